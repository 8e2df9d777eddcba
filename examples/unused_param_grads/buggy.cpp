//===- unused_param_grads/buggy.cpp - Gradients of the parameters used ----===//
//
// A model with a main head and an auxiliary head. A rank uses the auxiliary
// head only when its batch carries auxiliary labels: here rank 0's do and
// rank 1's do not. The gradients are averaged layer by layer, with one
// coalesced allreduce over the gradients of the layer that are defined, and
// a layer without any is skipped - so rank 1, whose auxiliary head has no
// gradient, skips the allreduce that rank 0 makes for it, and goes on to the
// final barrier. (DistributedDataParallel's find_unused_parameters exists
// for this case; a layer used in part would pass lists of another length.)
//
//===----------------------------------------------------------------------===//

#include "common/dist_setup.h"

#include <vector>

static constexpr int kSteps = 4;

struct NetImpl : torch::nn::Module {
  NetImpl()
      : trunk(register_module("trunk", torch::nn::Linear(4, 4))),
        head(register_module("head", torch::nn::Linear(4, 1))),
        aux(register_module("aux", torch::nn::Linear(4, 1))) {}
  torch::nn::Linear trunk, head, aux;
};
TORCH_MODULE(Net);

/// Averages the gradients this rank has.
static void averageGradients(const c10::intrusive_ptr<c10d::ProcessGroup> &pg,
                             torch::nn::Module &module) {
  std::vector<torch::Tensor> grads;
  // BUG: a parameter this rank's forward pass did not use has no gradient,
  // so the list is shorter on that rank.
  for (torch::Tensor &param : module.parameters())
    if (param.grad().defined())
      grads.push_back(param.grad());
  if (grads.empty())
    return;
  pg->allreduce_coalesced(grads)->wait();
  for (torch::Tensor &grad : grads)
    grad.div_(pg->getSize());
}

static void train(const c10::intrusive_ptr<c10d::ProcessGroup> &pg) {
  int rank = pg->getRank();
  torch::manual_seed(0);
  Net net;
  torch::optim::SGD optimizer(net->parameters(), /*lr=*/0.05);

  torch::manual_seed(1 + rank);
  torch::Tensor inputs = torch::randn({16, 4});
  torch::Tensor targets = inputs.sum(/*dim=*/1, /*keepdim=*/true);
  // Only rank 0's data carries labels for the auxiliary task.
  bool hasAuxLabels = rank == 0;
  torch::Tensor auxTargets = inputs.mean(/*dim=*/1, /*keepdim=*/true);

  for (int step = 0; step < kSteps; ++step) {
    optimizer.zero_grad();
    torch::Tensor features = torch::relu(net->trunk(inputs));
    torch::Tensor loss = torch::mse_loss(net->head(features), targets);
    if (hasAuxLabels)
      loss = loss + torch::mse_loss(net->aux(features), auxTargets);
    loss.backward();
    // One coalesced allreduce per layer.
    for (const auto &layer : net->children())
      averageGradients(pg, *layer);
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
