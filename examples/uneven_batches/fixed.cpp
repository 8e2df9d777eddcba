//===- uneven_batches/fixed.cpp - Ranks agree on the number of steps ------===//
//
// Data-parallel training over an unevenly sharded data set (16 + 5 * rank
// samples on each rank, mini-batches of 4). Before training, the ranks agree
// on the number of steps per epoch: an allreduce with MIN over the local
// numbers of full batches. Every rank then runs exactly that many steps and
// the samples beyond them are dropped (as with drop_last), so the
// collectives line up across ranks.
//
//===----------------------------------------------------------------------===//

#include "common/dist_setup.h"

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

  // Agree on the number of steps: the smallest shard decides. Every rank
  // gets the same value back from the allreduce.
  std::vector<torch::Tensor> count{
      torch::tensor({numSamples / kBatchSize}, torch::kLong)};
  c10d::AllreduceOptions minOpts;
  minOpts.reduceOp = c10d::ReduceOp::MIN;
  pg->allreduce(count, minOpts)->wait();
  const int64_t stepsPerEpoch = count[0].item<int64_t>();

  for (int epoch = 0; epoch < kEpochs; ++epoch) {
    for (int64_t step = 0; step < stepsPerEpoch; ++step) {
      torch::Tensor x =
          inputs.slice(/*dim=*/0, step * kBatchSize, (step + 1) * kBatchSize);
      torch::Tensor y =
          targets.slice(/*dim=*/0, step * kBatchSize, (step + 1) * kBatchSize);

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
    }
    if (rank == 0)
      std::cout << "epoch " << epoch << ": " << stepsPerEpoch << " steps"
                << std::endl;
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
