//===- catch_fallback/buggy.cpp - A collective only ranks that throw run --===//
//
// Each rank loads its data shard from a file on its own node. A rank whose
// shard is missing catches the error and falls back to data broadcast from
// rank 0 - but the broadcast is in the `catch` handler, so only the ranks
// that failed call it. Whether a rank throws depends on its own files: here
// rank 0's node has its shard and rank 1's does not. Rank 1's broadcast
// meets rank 0's first gradient allreduce, and both wait.
//
//===----------------------------------------------------------------------===//

#include "common/dist_setup.h"

#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

static constexpr int kSteps = 4;

/// Reads this rank's shard: 32 samples of 4 features.
static torch::Tensor loadShard(const std::string &path) {
  std::ifstream in(path);
  if (!in.is_open())
    throw std::runtime_error("no shard at " + path);
  std::vector<float> values;
  for (float v; in >> v;)
    values.push_back(v);
  return torch::tensor(values).reshape({-1, 4});
}

/// Stands for the data on each node: only rank 0's node has its shard.
static std::string prepareShard(int rank) {
  std::string path = "/tmp/ddp_example_shard_" +
                     ddp_example::envString("MASTER_PORT", "0") + "_rank" +
                     std::to_string(rank) + ".txt";
  std::remove(path.c_str());
  if (rank == 0) {
    std::ofstream out(path);
    for (int i = 0; i < 32 * 4; ++i)
      out << (i % 7) * 0.25f << "\n";
  }
  return path;
}

static void train(const c10::intrusive_ptr<c10d::ProcessGroup> &pg) {
  int rank = pg->getRank();
  int worldSize = pg->getSize();
  std::string path = prepareShard(rank);

  torch::Tensor inputs;
  try {
    inputs = loadShard(path);
  } catch (const std::runtime_error &err) {
    // BUG: only the ranks whose shard is missing get here.
    std::cout << "rank " << rank << ": " << err.what()
              << ", using rank 0's data" << std::endl;
    std::vector<torch::Tensor> fallback{torch::zeros({32, 4})};
    pg->broadcast(fallback)->wait();
    inputs = fallback[0];
  }
  std::remove(path.c_str());
  torch::Tensor targets = inputs.sum(/*dim=*/1, /*keepdim=*/true);

  torch::manual_seed(0);
  torch::nn::Linear model(4, 1);
  torch::optim::SGD optimizer(model->parameters(), /*lr=*/0.05);
  for (int step = 0; step < kSteps; ++step) {
    optimizer.zero_grad();
    torch::mse_loss(model->forward(inputs), targets).backward();
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
