//===- eval_skips_sync/fixed.cpp - Evaluation beside the training step ----===//
//
// The same training with rank 0's evaluation every third step. The
// evaluation only prints: it runs before the training step instead of
// replacing it, so every rank averages the gradients of every step.
//
//===----------------------------------------------------------------------===//

#include "common/dist_setup.h"

#include <vector>

static constexpr int kSteps = 6;
static constexpr int kEvalEvery = 3;

static void train(const c10::intrusive_ptr<c10d::ProcessGroup> &pg) {
  int rank = pg->getRank();
  int worldSize = pg->getSize();

  torch::manual_seed(0);
  torch::nn::Linear model(4, 1);
  torch::optim::SGD optimizer(model->parameters(), /*lr=*/0.05);

  torch::manual_seed(1 + rank);
  torch::Tensor inputs = torch::randn({32, 4});
  torch::Tensor targets = inputs.sum(/*dim=*/1, /*keepdim=*/true);
  torch::Tensor valInputs = torch::randn({8, 4});
  torch::Tensor valTargets = valInputs.sum(/*dim=*/1, /*keepdim=*/true);

  for (int step = 0; step < kSteps; ++step) {
    // Rank 0 evaluates, then trains like every other rank.
    if (rank == 0 && step % kEvalEvery == 0) {
      torch::NoGradGuard noGrad;
      torch::Tensor valLoss =
          torch::mse_loss(model->forward(valInputs), valTargets);
      std::cout << "step " << step << ": validation loss "
                << valLoss.item<float>() << std::endl;
    }

    optimizer.zero_grad();
    torch::Tensor loss = torch::mse_loss(model->forward(inputs), targets);
    loss.backward();
    for (torch::Tensor &param : model->parameters()) {
      std::vector<torch::Tensor> grads{param.grad()};
      pg->allreduce(grads)->wait();
      param.grad().div_(worldSize);
    }
    optimizer.step();
  }

  pg->barrier()->wait();
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
