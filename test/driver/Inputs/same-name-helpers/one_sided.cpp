// The window helper the one-sided benchmarks share (no main).
#include <mpi.h>

extern "C" void allocate_window(int rank, int onDevice, void *base,
                                MPI_Win *win) {
  if (onDevice)
    MPI_Win_create(base, 64, 1, 0, 0, win);
  else
    MPI_Win_fence(0, *win);
}
