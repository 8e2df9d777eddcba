//===- rank_gated_barrier/fixed.cpp - Checkpoint barrier on every rank ----===//
//
// Data-parallel training that writes a checkpoint every few steps. Only rank 0
// writes the file, but the barrier that keeps the other ranks from racing
// ahead of the checkpoint is outside the `if`, so every rank reaches it.
//
//===----------------------------------------------------------------------===//

#include "common/dist_setup.h"

#include <cstdio>
#include <string>
#include <unistd.h>
#include <vector>

static constexpr int kSteps = 6;
static constexpr int kCheckpointEvery = 2;

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

  const std::string checkpointPath = "/tmp/ddp_example_ckpt_rank" +
                                     std::to_string(rank) + "_pid" +
                                     std::to_string(getpid()) + ".pt";

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

    if ((step + 1) % kCheckpointEvery == 0) {
      // The replicas are identical, so one copy of the weights is enough.
      if (rank == 0) {
        torch::save(model, checkpointPath);
        std::cout << "step " << step << ": saved " << checkpointPath
                  << std::endl;
      }
      // Every rank waits here until the checkpoint has been written.
      pg->barrier()->wait();
    }
  }

  if (rank == 0) {
    std::cout << "training finished" << std::endl;
    // The checkpoint of this demo is not needed once the run is over.
    std::remove(checkpointPath.c_str());
  }
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
