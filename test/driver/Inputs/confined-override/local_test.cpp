#include "channel.h"
#include <memory>

namespace {

// A test's own transport: its objects never leave this file.
class MpiChannel : public Channel {
public:
  void Barrier() override { MPI_Barrier(MPI_COMM_WORLD); }
};

void checkBarrier(Channel &Ch) { Ch.Barrier(); }

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::shared_ptr<Channel> Ch = std::make_shared<MpiChannel>();
  checkBarrier(*Ch);
  if (rank == 0)
    checkBarrier(*Ch);
  MPI_Finalize();
}
