//===- send_recv/fixed.cpp - Matched point-to-point exchange --------------===//
//
// Data-parallel training in which rank 0 owns the data set: it generates one
// shard per rank and ships every other rank its shard with a point-to-point
// send, which that rank receives. The code is asymmetric on purpose - rank 0
// runs send() while the others run recv() - but every send has a matching
// recv, so this is correct and must not be reported.
//
//===----------------------------------------------------------------------===//

#include "common/dist_setup.h"

#include <vector>

static constexpr int kSteps = 6;
static constexpr int kShardSize = 32;
static constexpr int kDataTag = 0;

static void train(const c10::intrusive_ptr<c10d::ProcessGroup> &pg) {
  int rank = pg->getRank();
  int worldSize = pg->getSize();

  // Rank 0 generates the data for everybody and sends each rank its shard;
  // the other ranks receive their shard from rank 0.
  torch::Tensor inputs = torch::empty({kShardSize, 4});
  if (rank == 0) {
    torch::manual_seed(1);
    torch::Tensor dataset = torch::randn({worldSize, kShardSize, 4});
    for (int dst = 1; dst < worldSize; ++dst) {
      std::vector<torch::Tensor> shard{dataset[dst].contiguous()};
      pg->send(shard, dst, kDataTag)->wait();
    }
    inputs = dataset[0].clone();
  } else {
    std::vector<torch::Tensor> shard{inputs};
    pg->recv(shard, /*srcRank=*/0, kDataTag)->wait();
  }
  torch::Tensor targets = inputs.sum(/*dim=*/1, /*keepdim=*/true);

  // Every rank starts from the same weights.
  torch::manual_seed(0);
  torch::nn::Linear model(4, 1);
  torch::optim::SGD optimizer(model->parameters(), /*lr=*/0.05);

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
