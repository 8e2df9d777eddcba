#include "channel.h"

namespace {

// Handed to the library by argument.
class ShmChannel : public Channel {
public:
  void Barrier() override { MPI_Barrier(MPI_COMM_WORLD); }
};

// Stored where the library can reach it.
class RdmaChannel : public Channel {
public:
  void Barrier() override { MPI_Barrier(MPI_COMM_WORLD); }
};

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  ShmChannel Shm;
  Publish(Shm, rank);
  static RdmaChannel Rdma;
  DefaultChannel = &Rdma;
  MPI_Finalize();
}
