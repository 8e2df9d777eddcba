//===- uneven_batches/buggy.cpp - Ranks run different numbers of steps ----===//
//
// Data-parallel training over an unevenly sharded data set: the shard of
// each rank has a different number of samples (16 + 5 * rank here, as when
// a data set does not split evenly over the ranks or every rank reads its
// own file). Every rank walks over its own shard in mini-batches of 4 and
// averages the gradients with an allreduce at every step, so a rank with more
// batches makes more allreduces than the others - and waits in the extra
// ones for partners that have already finished the epoch.
//
//===----------------------------------------------------------------------===//

#include "common/dist_setup.h"

#include <algorithm>
#include <cstdint>
#include <vector>

static constexpr int kEpochs = 2;
static constexpr int64_t kBatchSize = 4;

/// The number of samples in the shard of \p rank: the shards are uneven.
static int64_t shardSize(int rank) { return 16 + 5 * rank; }

static void train(const c10::intrusive_ptr<c10d::ProcessGroup> &pg) {
  int rank = pg->getRank();
  int worldSize = pg->getSize();

  // Every rank starts from the same weights but trains on its own shard.
  torch::manual_seed(0);
  torch::nn::Linear model(4, 1);
  torch::optim::SGD optimizer(model->parameters(), /*lr=*/0.05);

  torch::manual_seed(1 + rank);
  const int64_t numSamples = shardSize(rank);
  torch::Tensor inputs = torch::randn({numSamples, 4});
  torch::Tensor targets = inputs.sum(/*dim=*/1, /*keepdim=*/true);

  for (int epoch = 0; epoch < kEpochs; ++epoch) {
    int steps = 0;
    // BUG: the number of mini-batches depends on the size of this rank's
    // shard (4 on rank 0, 6 on rank 1), and every step makes collectives.
    for (int64_t start = 0; start < numSamples; start += kBatchSize) {
      const int64_t end = std::min(start + kBatchSize, numSamples);
      torch::Tensor x = inputs.slice(/*dim=*/0, start, end);
      torch::Tensor y = targets.slice(/*dim=*/0, start, end);

      optimizer.zero_grad();
      torch::Tensor loss = torch::mse_loss(model->forward(x), y);
      loss.backward();

      // Average the gradients so that every replica applies the same update.
      for (torch::Tensor &param : model->parameters()) {
        std::vector<torch::Tensor> grads{param.grad()};
        pg->allreduce(grads)->wait();
        param.grad().div_(worldSize);
      }
      optimizer.step();
      ++steps;
    }
    if (rank == 0)
      std::cout << "epoch " << epoch << ": " << steps << " steps" << std::endl;
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
