//===- nan_skip/buggy.cpp - A rank skips a step on a local NaN loss -------===//
//
// Data-parallel training that guards against bad batches: when the loss of a
// step is NaN, the step is skipped instead of poisoning the weights. The test
// is made on the local loss, so only the rank that saw the bad batch skips -
// and with the step it skips the gradient allreduce that the other ranks do
// make. From then on the collectives no longer line up across ranks.
//
// The bad batch is injected into the synthetic data: batch 2 of rank 1 is
// all zeros, so its per-batch normalisation divides zero by a zero standard
// deviation and the loss becomes NaN.
//
//===----------------------------------------------------------------------===//

#include "common/dist_setup.h"

#include <cmath>
#include <vector>

static constexpr int kSteps = 6;
static constexpr int kBatchSize = 8;

/// Normalises every feature of a batch to mean 0 and standard deviation 1.
/// A batch in which a feature is constant gives 0 / 0 = NaN.
static torch::Tensor normalise(const torch::Tensor &batch) {
  return (batch - batch.mean(/*dim=*/0, /*keepdim=*/true)) /
         batch.std(/*dim=*/0, /*unbiased=*/true, /*keepdim=*/true);
}

static void train(const c10::intrusive_ptr<c10d::ProcessGroup> &pg) {
  int rank = pg->getRank();
  int worldSize = pg->getSize();

  // Every rank starts from the same weights but trains on its own data shard.
  torch::manual_seed(0);
  torch::nn::Linear model(4, 1);
  torch::optim::SGD optimizer(model->parameters(), /*lr=*/0.05);

  torch::manual_seed(1 + rank);
  torch::Tensor batches = torch::randn({kSteps, kBatchSize, 4});
  // Fault injection: a corrupted (all-zero) batch in rank 1's shard.
  if (rank == 1)
    batches[2].zero_();

  for (int step = 0; step < kSteps; ++step) {
    torch::Tensor inputs = normalise(batches[step]);
    torch::Tensor targets = inputs.sum(/*dim=*/1, /*keepdim=*/true);

    optimizer.zero_grad();
    torch::Tensor loss = torch::mse_loss(model->forward(inputs), targets);
    // BUG: the decision to skip is taken on this rank's loss alone. The rank
    // that sees the NaN skips the gradient allreduce below; the others don't.
    if (std::isnan(loss.item<float>())) {
      std::cout << "rank " << rank << ", step " << step
                << ": NaN loss, skipping the step" << std::endl;
      continue;
    }
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
