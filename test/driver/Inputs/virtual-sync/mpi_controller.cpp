#include "controller.h"

void MpiController::crossRankAnd(std::vector<int> &Bits) {
  MPI_Allreduce(MPI_IN_PLACE, Bits.data(), (int)Bits.size(), MPI_INT, MPI_MIN,
                MPI_COMM_WORLD);
}

void MpiCache::agree(std::vector<int> &Bits) {
  MPI_Allreduce(MPI_IN_PLACE, Bits.data(), (int)Bits.size(), MPI_INT, MPI_MIN,
                MPI_COMM_WORLD);
}
