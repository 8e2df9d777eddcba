//===- send_recv_deadlock/buggy.cpp - Both partners receive first ---------===//
//
// Data-parallel training that reshuffles data between epochs: after every
// epoch, ranks 2k and 2k+1 swap their data shards with a point-to-point
// exchange, so each rank trains on new data in the next epoch. Both partners
// run the same code - receive the partner's shard, then send their own - so
// both block in recv() waiting for a send that the partner only makes after
// its own recv() has completed: a deadlock.
//
// ddp-p2p-deadlock reports the receive that every rank waits in before its
// send.
//
//===----------------------------------------------------------------------===//

#include "common/dist_setup.h"

#include <vector>

static constexpr int kEpochs = 3;
static constexpr int kStepsPerEpoch = 2;
static constexpr int kShardTag = 7;

static void train(const c10::intrusive_ptr<c10d::ProcessGroup> &pg) {
  int rank = pg->getRank();
  int worldSize = pg->getSize();
  // The rank this one swaps shards with (none for the last of an odd number
  // of ranks).
  int partner = rank ^ 1;

  // Every rank starts from the same weights but trains on its own data shard.
  torch::manual_seed(0);
  torch::nn::Linear model(4, 1);
  torch::optim::SGD optimizer(model->parameters(), /*lr=*/0.05);

  torch::manual_seed(1 + rank);
  torch::Tensor inputs = torch::randn({32, 4});

  for (int epoch = 0; epoch < kEpochs; ++epoch) {
    torch::Tensor targets = inputs.sum(/*dim=*/1, /*keepdim=*/true);
    for (int step = 0; step < kStepsPerEpoch; ++step) {
      optimizer.zero_grad();
      torch::Tensor loss = torch::mse_loss(model->forward(inputs), targets);
      loss.backward();

      // Average the gradients so that every replica applies the same update.
      for (torch::Tensor &param : model->parameters()) {
        std::vector<torch::Tensor> grads{param.grad()};
        pg->allreduce(grads)->wait();
        param.grad().div_(worldSize);
      }
      optimizer.step();
    }

    // Swap shards with the partner rank for the next epoch.
    if (epoch + 1 < kEpochs && partner < worldSize) {
      std::vector<torch::Tensor> incoming{torch::empty_like(inputs)};
      std::vector<torch::Tensor> outgoing{inputs};
      // BUG: both partners receive first. Neither reaches its send(), so
      // both wait in recv() until the timeout expires.
      pg->recv(incoming, partner, kShardTag)->wait();
      pg->send(outgoing, partner, kShardTag)->wait();
      inputs = incoming[0];
      if (rank == 0)
        std::cout << "epoch " << epoch << ": shards swapped" << std::endl;
    }
  }

  if (rank == 0)
    std::cout << "training finished" << std::endl;
}

int main() {
  try {
    c10::intrusive_ptr<c10d::ProcessGroup> pg = ddp_example::initProcessGroup();
    train(pg);
  } catch (const std::exception &err) {
    return ddp_example::reportFailure(err);
  }
  return 0;
}
