#include <mpi.h>

#include "part_dataset.h"

// Another program of the same database, never linked with train.cpp.
int main(int Argc, char **Argv) {
  MPI_Init(&Argc, &Argv);
  int Rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  PartDataset Data(Rank);
  int Status = Data.size() > 0 ? 0 : 1;
  MPI_Finalize();
  return Status;
}
