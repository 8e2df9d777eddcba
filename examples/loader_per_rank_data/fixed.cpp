//===- loader_per_rank_data/fixed.cpp - One dataset, a distributed sampler ===//
//
// Data-parallel training with LibTorch's data loader over one dataset that
// every rank shares (the same file, here 42 samples generated from the same
// seed). A DistributedRandomSampler(size, world size, rank) gives every rank
// ceil(42 / 2) = 21 indices, padding with duplicates when the size does not
// split evenly, so every rank gets the same 6 batches of 4 (the last one
// partial) and the gradient allreduces line up.
//
//===----------------------------------------------------------------------===//

#include "common/dist_setup.h"

#include <cstdint>
#include <vector>

static constexpr int64_t kBatchSize = 4;
static constexpr int64_t kSamples = 42;

/// The file every rank shares.
static torch::data::datasets::TensorDataset loadSharedFile() {
  torch::manual_seed(1);
  return torch::data::datasets::TensorDataset(torch::randn({kSamples, 4}));
}

static void train(const c10::intrusive_ptr<c10d::ProcessGroup> &pg) {
  int rank = pg->getRank();
  int worldSize = pg->getSize();

  torch::manual_seed(0);
  torch::nn::Linear model(4, 1);
  torch::optim::SGD optimizer(model->parameters(), /*lr=*/0.05);

  auto dataset = loadSharedFile().map(
      torch::data::transforms::Stack<torch::data::TensorExample>());
  const size_t size = dataset.size().value();
  auto loader = torch::data::make_data_loader(
      std::move(dataset),
      torch::data::samplers::DistributedRandomSampler(size, worldSize, rank),
      torch::data::DataLoaderOptions().batch_size(kBatchSize));

  int steps = 0;
  for (auto &batch : *loader) {
    torch::Tensor x = batch.data;
    torch::Tensor y = x.sum(/*dim=*/1, /*keepdim=*/true);
    optimizer.zero_grad();
    torch::Tensor loss = torch::mse_loss(model->forward(x), y);
    loss.backward();
    // Average the gradients so that every replica applies the same update.
    for (torch::Tensor &param : model->parameters()) {
      std::vector<torch::Tensor> grads{param.grad()};
      pg->allreduce(grads)->wait();
      param.grad().div_(worldSize);
    }
    optimizer.step();
    ++steps;
  }
  std::cout << "rank " << rank << ": " << steps << " steps" << std::endl;
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
