#include <mpi.h>

#include <cstddef>

#include "shard.h"

void even(const std::vector<float> &All) {
  int Rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  std::vector<float> Mine = shard(All, Rank);
  for (std::size_t I = 0; I < Mine.size(); ++I)
    MPI_Allreduce(MPI_IN_PLACE, &Mine[I], 1, MPI_FLOAT, MPI_SUM,
                  MPI_COMM_WORLD);
}

void uneven(const std::vector<float> &All, const std::vector<int> &Counts) {
  int Rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  std::vector<float> Mine = unevenShard(All, Counts, Rank);
  for (std::size_t I = 0; I < Mine.size(); ++I)
    MPI_Allreduce(MPI_IN_PLACE, &Mine[I], 1, MPI_FLOAT, MPI_SUM,
                  MPI_COMM_WORLD);
}
