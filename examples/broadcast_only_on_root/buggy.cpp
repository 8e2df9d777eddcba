//===- broadcast_only_on_root/buggy.cpp - Broadcast called by root only ---===//
//
// Data-parallel training in which rank 0 decides the initial weights and
// broadcasts them so that all replicas start out identical. The broadcast was
// written inside the `if (rank == 0)` that prepares the weights, as if it
// were a "send to everybody". But a broadcast is a collective: the receiving
// ranks have to call it too. They never do, so rank 0 waits in the broadcast
// and the other ranks train on their own, different, weights.
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
    c10d::BroadcastOptions fromRoot;
    fromRoot.rootRank = 0;
    if (rank == 0) {
      for (torch::Tensor &param : model->parameters()) {
        param.normal_(/*mean=*/0.0, /*std=*/0.1);
        // BUG: only the root calls the broadcast; the ranks that should
        // receive the weights never take part in it.
        std::vector<torch::Tensor> buffer{param};
        pg->broadcast(buffer, fromRoot)->wait();
      }
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
