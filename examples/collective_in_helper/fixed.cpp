//===- collective_in_helper/fixed.cpp - Logger called on every rank -------===//
//
// Data-parallel training that logs the loss averaged over all ranks. The
// logging helper contains an allreduce, so every rank calls it; inside, only
// rank 0 prints.
//
//===----------------------------------------------------------------------===//

#include "common/dist_setup.h"

#include <vector>

static constexpr int kSteps = 6;
static constexpr int kLogEvery = 2;

/// Prints the training loss averaged over all ranks. This is a collective:
/// every rank of \p pg has to call it.
static void logMetrics(const c10::intrusive_ptr<c10d::ProcessGroup> &pg,
                       const torch::Tensor &loss, int step) {
  std::vector<torch::Tensor> total{loss.detach().reshape({1}).clone()};
  pg->allreduce(total)->wait();
  // Every rank has the sum now; one of them is enough to print it.
  if (pg->getRank() == 0) {
    std::cout << "step " << step << ": mean loss "
              << (total[0] / pg->getSize()).item<float>() << std::endl;
  }
}

static void train(const c10::intrusive_ptr<c10d::ProcessGroup> &pg) {
  int rank = pg->getRank();
  int worldSize = pg->getSize();

  // Every rank starts from the same weights but trains on its own data shard.
  torch::manual_seed(0);
  torch::nn::Linear model(4, 1);
  torch::optim::SGD optimizer(model->parameters(), /*lr=*/0.05);

  torch::manual_seed(1 + rank);
  torch::Tensor inputs = torch::randn({32, 4});
  torch::Tensor targets = inputs.sum(/*dim=*/1, /*keepdim=*/true);

  for (int step = 0; step < kSteps; ++step) {
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

    // logMetrics() is a collective, so every rank calls it.
    if (step % kLogEvery == 0)
      logMetrics(pg, loss, step);
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
