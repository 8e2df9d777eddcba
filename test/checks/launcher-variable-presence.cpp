// RUN: %check_ddp_tidy %s 'ddp-*' %t -- -- %mock_flags
// RUN: %expect_exit 1 %ddp_lint --no-cache --source-root %S %s -- %mock_flags > %t.lint.txt
// RUN: FileCheck %s --check-prefix=LINT --input-file=%t.lint.txt --implicit-check-not=warning:

// Whether a launcher's rank variable is set is the same on every rank: the
// launcher (mpirun, srun, torchrun) sets its variables for all of them, or
// the program was not started by it at all. Only the text differs. From
// baidu-allreduce's test, which reads the local rank from Open MPI's
// variable or Slurm's and gives up when neither is set. Twins, reported: a
// test of the value itself, and a null test of a pointer only rank 0 sets.

#include <cstdlib>
#include <mpi.h>
#include <stdexcept>

void allreduce(float *Buf, int N) {
  MPI_Allreduce(MPI_IN_PLACE, Buf, N, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
}

int localRank() {
  char *Env = std::getenv("OMPI_COMM_WORLD_LOCAL_RANK");
  if (Env == NULL)
    Env = std::getenv("SLURM_LOCALID");
  if (!Env)
    throw std::runtime_error("no local rank");
  return std::atoi(Env);
}

void presence(float *Buf, int N) {
  const char *Rank = std::getenv("RANK");
  if (Rank == nullptr)
    return;
  allreduce(Buf, N);
}

void value(float *Buf, int N) {
  const char *Rank = std::getenv("RANK");
  if (Rank && std::atoi(Rank) == 0)
    return;
  allreduce(Buf, N);
}
// CHECK-MESSAGES: :[[@LINE-2]]:3: warning: 'MPI_Allreduce' in 'allreduce' is skipped by ranks that leave early when 'Rank && std::atoi(Rank) == 0' [ddp-collective-in-rank-branch]
// LINT: :[[@LINE-5]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]

void pointerOnRankZero(float *Buf, int N) {
  int Rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  float *Root = Rank == 0 ? Buf : nullptr;
  if (Root == nullptr)
    return;
  allreduce(Buf, N);
}
// CHECK-MESSAGES: :[[@LINE-2]]:3: warning: 'MPI_Allreduce' in 'allreduce' is skipped by ranks that leave early when 'Root == nullptr' [ddp-collective-in-rank-branch]
// LINT: :[[@LINE-5]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  float Buf[8] = {};
  int Device = localRank();
  presence(Buf, 8);
  value(Buf, 8);
  pointerOnRankZero(Buf, 8);
  MPI_Finalize();
  return Device;
}
