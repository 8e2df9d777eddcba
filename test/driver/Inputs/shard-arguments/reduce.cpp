#include <mpi.h>

#include <cstddef>

#include "reduce.h"

// One allreduce per value: as many on every rank as the list is long.
static void reduceEach(std::vector<float> &Values) {
  for (std::size_t I = 0; I < Values.size(); ++I)
    MPI_Allreduce(MPI_IN_PLACE, &Values[I], 1, MPI_FLOAT, MPI_SUM,
                  MPI_COMM_WORLD);
}

void reduceShard(std::vector<float> &Values) { reduceEach(Values); }

void reduceCounts(std::vector<float> &Values) {
  for (std::size_t I = 0; I < Values.size(); ++I)
    MPI_Allreduce(MPI_IN_PLACE, &Values[I], 1, MPI_FLOAT, MPI_SUM,
                  MPI_COMM_WORLD);
}

void reduceEither(std::vector<float> &Values) {
  for (std::size_t I = 0; I < Values.size(); ++I)
    MPI_Allreduce(MPI_IN_PLACE, &Values[I], 1, MPI_FLOAT, MPI_SUM,
                  MPI_COMM_WORLD);
}
