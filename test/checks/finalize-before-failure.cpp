// RUN: %check_ddp_tidy %s 'ddp-*' %t -- -- %mock_flags
// RUN: %expect_exit 1 %ddp_lint --no-cache --source-root %S %s -- %mock_flags > %t.lint.txt
// RUN: FileCheck %s --check-prefix=LINT --input-file=%t.lint.txt --implicit-check-not=warning:

// An error exit ends the job only if the rank gets to it: one that first
// waits in MPI_Finalize (or a barrier) waits for ranks that are elsewhere,
// and the job hangs instead. Found in a multi-GPU solver that checks each
// node's device count against its ranks on that node. Twins, silent: the
// same exits without the wait, which the launcher turns into the job's end.

#include <cstdio>
#include <cstdlib>
#include <mpi.h>

int deviceCount(int Rank);

// Reported: the rank finalizes, then would exit.
void checkDevices(int Rank) {
  if (deviceCount(Rank) < 1) {
    std::fprintf(stderr, "no device\n");
    MPI_Finalize();
    std::exit(1);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-5]]:5: warning: 'MPI_Finalize' is reached only by ranks where 'deviceCount(Rank) < 1' [ddp-collective-in-rank-branch]
// CHECK-MESSAGES: :[[@LINE-3]]:3: warning: 'MPI_Barrier' is reached only by ranks where 'deviceCount(Rank) < 1' is false [ddp-rank-gated-barrier]
// LINT: finalize-before-failure.cpp:[[@LINE-9]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]
// LINT:      when true:  MPI_Finalize (finalize-before-failure.cpp:[[@LINE-8]]:5)
// LINT-NEXT: when false: MPI_Barrier (finalize-before-failure.cpp:[[@LINE-6]]:3)

// Silent: the rank exits with an error straight away.
void checkDevicesAndExit(int Rank) {
  if (deviceCount(Rank) < 1) {
    std::fprintf(stderr, "no device\n");
    std::exit(1);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int Rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  checkDevices(Rank);
  checkDevicesAndExit(Rank);
  // Silent: returning an error code from main ends the job.
  if (deviceCount(Rank) > 8) {
    std::fprintf(stderr, "too many devices\n");
    return 1;
  }
  // Reported: this rank waits in MPI_Finalize, the others in MPI_Allreduce.
  if (deviceCount(Rank) < 2) {
    std::fprintf(stderr, "too few devices\n");
    MPI_Finalize();
    return 1;
  }
  float X = Rank, Sum = 0;
  MPI_Allreduce(&X, &Sum, 1, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
// CHECK-MESSAGES: :[[@LINE-8]]:5: warning: 'MPI_Finalize' is reached only by ranks where 'deviceCount(Rank) < 2' [ddp-collective-in-rank-branch]
// LINT: finalize-before-failure.cpp:[[@LINE-11]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]
// LINT:      when true:  MPI_Finalize (finalize-before-failure.cpp:[[@LINE-10]]:5)
// LINT-NEXT: when false: MPI_Allreduce (finalize-before-failure.cpp:[[@LINE-7]]:3) -> MPI_Finalize (finalize-before-failure.cpp:[[@LINE-6]]:3)
