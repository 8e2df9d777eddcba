#include <mpi.h>

#include "reduce.h"

// Each rank's own number of scores.
void evaluate() {
  int Rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  std::vector<float> Scores(Rank + 2);
  reduceEither(Scores);
}
