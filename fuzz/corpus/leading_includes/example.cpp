//===- early_return/buggy.cpp - Evaluation skipped on non-zero ranks ------===//
//
// Data-parallel training with a periodic evaluation that reports the
// validation loss averaged over all ranks. Because only rank 0 prints the
// result, the evaluation helper returns early on every other rank - before
// the allreduce that combines the per-rank losses. Rank 0 then waits in that
// allreduce for partners that never arrive.
//
//===----------------------------------------------------------------------===//

#include "common/dist_setup.h"

#include <vector>

static constexpr int kSteps = 6;
static constexpr int kEvalEvery = 3;

/// Prints the validation loss averaged over all ranks.
static void evaluate(const c10::intrusive_ptr<c10d::ProcessGroup> &pg,
                     torch::nn::Linear &model, const torch::Tensor &inputs,
                     const torch::Tensor &targets, int step) {
  int rank = pg->getRank();
  // BUG: only rank 0 reports the result, so the other ranks skip the
  // evaluation altogether - including the allreduce below.
  if (rank != 0)
    return;

  torch::NoGradGuard noGrad;
  torch::Tensor loss = torch::mse_loss(model->forward(inputs), targets);
  std::vector<torch::Tensor> total{loss.reshape({1})};
  pg->allreduce(total)->wait();
  std::cout << "step " << step << ": validation loss "
            << (total[0] / pg->getSize()).item<float>() << std::endl;
}

static void train(const c10::intrusive_ptr<c10d::ProcessGroup> &pg) {
  int rank = pg->getRank();
  int worldSize = pg->getSize();

  // Every rank starts from the same weights but trains and validates on its
  // own data shard.
  torch::manual_seed(0);
  torch::nn::Linear model(4, 1);
  torch::optim::SGD optimizer(model->parameters(), /*lr=*/0.05);

  torch::manual_seed(1 + rank);
  torch::Tensor inputs = torch::randn({32, 4});
  torch::Tensor targets = inputs.sum(/*dim=*/1, /*keepdim=*/true);
  torch::Tensor valInputs = torch::randn({8, 4});
  torch::Tensor valTargets = valInputs.sum(/*dim=*/1, /*keepdim=*/true);

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

    if ((step + 1) % kEvalEvery == 0)
      evaluate(pg, model, valInputs, valTargets, step);
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
