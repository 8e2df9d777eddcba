// REQUIRES: mpi
// RUN: %check_ddp_tidy %s 'ddp-*' %t -- -- -std=c++17 %mpi_flags
// RUN: %expect_exit 1 %ddp_lint --no-cache --source-root %S %s -- -std=c++17 %mpi_flags > %t.lint.txt
// RUN: FileCheck %s --check-prefix=LINT --input-file=%t.lint.txt --implicit-check-not=warning:

// Every way to make or free an MPI window is collective over its
// communicator, and so is opening a file; a collective on MPI_COMM_SELF
// involves the calling process alone. Found in the OSU micro-benchmarks
// (osu_1sc.c): a rank whose buffer is on the device makes its window with
// MPI_Win_create, the other with MPI_Win_allocate; MPI_Win_allocate was not
// known to be collective, so the finding said the others call nothing.

#include <mpi.h>

// Reported, and the other side is named: ranks with their buffer on the
// device and on the host make the window with different calls.
void makeWindow(int rank, bool rank0OnDevice, bool rank1OnDevice, void *dev,
                MPI_Aint size, MPI_Win *win, void **base) {
  bool onDevice = rank == 0 ? rank0OnDevice : rank1OnDevice;
  if (onDevice)
    MPI_Win_create(dev, size, 1, MPI_INFO_NULL, MPI_COMM_WORLD, win);
  else
    MPI_Win_allocate(size, 1, MPI_INFO_NULL, MPI_COMM_WORLD, base, win);
}
// CHECK-MESSAGES: :[[@LINE-4]]:5: warning: 'MPI_Win_create' is reached only by ranks where 'onDevice' [ddp-collective-in-rank-branch]
// LINT: mpi-windows-and-self.cpp:[[@LINE-6]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]
// LINT:      when true:  MPI_Win_create (mpi-windows-and-self.cpp:[[@LINE-6]]:5)
// LINT-NEXT: when false: MPI_Win_allocate (mpi-windows-and-self.cpp:[[@LINE-5]]:5)

// Reported: only rank 0 frees the window.
void freeWindow(int rank, MPI_Win *win) {
  if (rank == 0)
    MPI_Win_free(win);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Win_free' is reached only by ranks where 'rank == 0' [ddp-collective-in-rank-branch]
// LINT: mpi-windows-and-self.cpp:[[@LINE-4]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]

// Silent: rank 0 opens a file of its own, on MPI_COMM_SELF.
void writeLog(int rank, const char *path, const char *text, int length) {
  if (rank == 0) {
    MPI_File file;
    MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_WRONLY,
                  MPI_INFO_NULL, &file);
    MPI_File_write(file, text, length, MPI_CHAR, MPI_STATUS_IGNORE);
    MPI_File_close(&file);
  }
}

// Reported: rank 0 opens a file on the world's communicator, which every
// rank must open together.
void writeShared(int rank, const char *path, const char *text, int length) {
  if (rank == 0) {
    MPI_File file;
    MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY,
                  MPI_INFO_NULL, &file);
    MPI_File_write(file, text, length, MPI_CHAR, MPI_STATUS_IGNORE);
    MPI_File_close(&file);
  }
}
// CHECK-MESSAGES: :[[@LINE-6]]:5: warning: 'MPI_File_open' is reached only by ranks where 'rank == 0' [ddp-collective-in-rank-branch]
// LINT: mpi-windows-and-self.cpp:[[@LINE-9]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]

// Silent: a barrier on MPI_COMM_SELF waits for no one else.
void selfBarrier(int rank) {
  if (rank == 0)
    MPI_Barrier(MPI_COMM_SELF);
}

// Silent: rank 0 runs the benchmark as a job of its own, on MPI_COMM_SELF
// (ior's test of its library: `ior_run(3, param, MPI_COMM_SELF, stdout)`).
// Twin, reported: the same run on the world's communicator.
int runBenchmark(int iterations, MPI_Comm comm) {
  int total = 0;
  for (int i = 0; i < iterations; ++i)
    MPI_Allreduce(&i, &total, 1, MPI_INT, MPI_SUM, comm);
  MPI_Barrier(comm);
  return total;
}

void selfJob(int rank) {
  if (rank == 0)
    runBenchmark(3, MPI_COMM_SELF);
}

void worldJob(int rank) {
  if (rank == 0)
    runBenchmark(3, MPI_COMM_WORLD);
// CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' in 'runBenchmark' is reached only by ranks where 'rank == 0' [ddp-collective-in-rank-branch]
// LINT: mpi-windows-and-self.cpp:[[@LINE-3]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]
}
