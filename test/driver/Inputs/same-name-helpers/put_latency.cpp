// A benchmark built with one_sided.cpp: where the buffer is depends on the
// rank.
#include <mpi.h>

extern "C" void allocate_window(int rank, int onDevice, void *base,
                                MPI_Win *win);

int main(int argc, char **argv) {
  int rank;
  MPI_Win win;
  char buf[64];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(0, &rank);
  allocate_window(rank, rank == 0, buf, &win);
  MPI_Finalize();
  return 0;
}
