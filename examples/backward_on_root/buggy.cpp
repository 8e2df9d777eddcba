//===- backward_on_root/buggy.cpp - A backward() only rank 0 runs ---------===//
//
// Data-parallel training with the gradients averaged by parameter hooks.
// LibTorch has no C++ DistributedDataParallel, so every parameter gets a
// hook that allreduces its gradient and divides it by the world size; the
// hooks run inside backward(), which therefore issues one allreduce per
// parameter and is a collective.
//
// The loss has an L2 penalty on the weights (weight decay), back-propagated
// separately from the data loss. The penalty only depends on the weights,
// which are the same on every rank, so "one rank is enough" and only rank 0
// runs its backward(). That backward fires the weight's hook, and rank 0
// issues an allreduce that the other ranks never match.
//
//===----------------------------------------------------------------------===//

#include "common/dist_setup.h"

#include <vector>

static constexpr int kSteps = 6;
static constexpr double kWeightDecay = 0.01;

/// Makes backward() average every parameter's gradient over the ranks of
/// \p pg: each parameter gets a hook that allreduces the gradient and
/// divides it by the world size. From now on every backward() through the
/// model is a collective.
static void averageGradientsInBackward(
    torch::nn::Module &model,
    const c10::intrusive_ptr<c10d::ProcessGroup> &pg) {
  for (torch::Tensor &param : model.parameters()) {
    param.register_hook([pg](torch::Tensor grad) {
      // A hook must not modify its argument: reduce a copy.
      std::vector<torch::Tensor> bucket{grad.clone()};
      pg->allreduce(bucket)->wait();
      return bucket[0] / pg->getSize();
    });
  }
}

static void train(const c10::intrusive_ptr<c10d::ProcessGroup> &pg) {
  int rank = pg->getRank();

  // Every rank starts from the same weights but trains on its own data shard.
  torch::manual_seed(0);
  torch::nn::Linear model(4, 1);
  torch::optim::SGD optimizer(model->parameters(), /*lr=*/0.05);
  averageGradientsInBackward(*model, pg);

  torch::manual_seed(1 + rank);
  torch::Tensor inputs = torch::randn({32, 4});
  torch::Tensor targets = inputs.sum(/*dim=*/1, /*keepdim=*/true);

  for (int step = 0; step < kSteps; ++step) {
    optimizer.zero_grad();
    torch::Tensor loss = torch::mse_loss(model->forward(inputs), targets);
    // The hooks average the gradients of the data loss over the ranks.
    loss.backward();

    // BUG: the weight-decay penalty is identical on every rank, so only
    // rank 0 back-propagates it - but that backward() runs the weight's
    // hook, whose allreduce needs every rank.
    if (rank == 0) {
      torch::Tensor penalty = kWeightDecay * model->weight.pow(2).sum();
      penalty.backward();
    }
    optimizer.step();

    if (rank == 0)
      std::cout << "step " << step << ": loss " << loss.item<float>()
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
