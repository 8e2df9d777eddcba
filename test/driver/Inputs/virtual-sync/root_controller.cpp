#include "controller.h"

void RootController::crossRankAnd(std::vector<int> &Bits) {
  MPI_Reduce(MPI_IN_PLACE, Bits.data(), (int)Bits.size(), MPI_INT, MPI_MIN, 0,
             MPI_COMM_WORLD);
  MPI_Bcast(Bits.data(), (int)Bits.size(), MPI_INT, 0, MPI_COMM_WORLD);
}

void LocalCache::agree(std::vector<int> &Bits) {}
