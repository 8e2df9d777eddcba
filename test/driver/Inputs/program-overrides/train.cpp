#include <mpi.h>

#include "dataset.h"

// As many rows on every rank.
struct MemDataset : Dataset {
  long Rows;
  explicit MemDataset(long Rows) : Rows(Rows) {}
  long size() const override { return Rows; }
};

void train(const Dataset &Data, float *Grads, int N) {
  for (long I = 0; I < Data.size(); ++I)
    MPI_Allreduce(MPI_IN_PLACE, Grads, N, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
}

int main(int Argc, char **Argv) {
  MPI_Init(&Argc, &Argv);
  int World;
  MPI_Comm_size(MPI_COMM_WORLD, &World);
  MemDataset Data(10000 / World);
  float Grads[4] = {};
  train(Data, Grads, 4);
  // Each rank's own part, where a library file of this program has one.
  int Rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  if (Argc > 1)
    train(*partOf(Rank), Grads, 4);
  MPI_Finalize();
}
