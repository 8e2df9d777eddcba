//===- unused_param_grads/fixed.cpp - A gradient for every parameter ------===//
//
// The same model and data, where rank 1 does not use the auxiliary head. A
// parameter without a gradient gets a zero one before the averaging, as
// DistributedDataParallel does with find_unused_parameters, so every rank
// passes the same list of tensors to the coalesced allreduce.
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

/// Averages the gradients of every parameter; unused ones count as zero.
static void averageGradients(const c10::intrusive_ptr<c10d::ProcessGroup> &pg,
                             torch::nn::Module &module) {
  std::vector<torch::Tensor> grads;
  for (torch::Tensor &param : module.parameters()) {
    if (!param.grad().defined())
      param.mutable_grad() = torch::zeros_like(param);
    grads.push_back(param.grad());
  }
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
