//===- broadcast_only_on_root/fixed.cpp - Broadcast called by every rank --===//
//
// Data-parallel training in which rank 0 decides the initial weights and
// broadcasts them so that all replicas start out identical. Only rank 0 fills
// in the weights, but every rank calls the broadcast: the root sends, the
// others receive into their own parameters.
//
//===----------------------------------------------------------------------===//

#include "common/dist_setup.h"

#include <vector>

static constexpr int kSteps = 6;

static void train(const c10::intrusive_ptr<c10d::ProcessGroup> &pg) {
  int rank = pg->getRank();
  int worldSize = pg->getSize();

  // Each rank constructs the model with its own random initial weights...
  torch::manual_seed(100 + rank);
  torch::nn::Linear model(4, 1);

  // ...so rank 0 picks the starting point and shares it with the others.
  {
    torch::NoGradGuard noGrad;
    if (rank == 0) {
      for (torch::Tensor &param : model->parameters())
        param.normal_(/*mean=*/0.0, /*std=*/0.1);
    }
    // Every rank takes part: rank 0 sends, the others overwrite their
    // parameters with what they receive.
    c10d::BroadcastOptions fromRoot;
    fromRoot.rootRank = 0;
    for (torch::Tensor &param : model->parameters()) {
      std::vector<torch::Tensor> buffer{param};
      pg->broadcast(buffer, fromRoot)->wait();
    }
  }

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
