// Another benchmark, a program of its own: it defines its own
// allocate_window, with other parameters, and is not built with
// one_sided.cpp.
#include <mpi.h>

extern "C" void allocate_window(int rank, int kind, MPI_Win *win) {
  switch (kind) {
  case 0:
    MPI_Win_create(nullptr, 64, 1, 0, 0, win);
    break;
  default:
    MPI_Win_fence(0, *win);
    break;
  }
}

int main(int argc, char **argv) {
  int rank;
  MPI_Win win;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(0, &rank);
  allocate_window(rank, argc > 1, &win);
  MPI_Finalize();
  return 0;
}
