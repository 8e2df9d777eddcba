//===- loader_per_rank_data/buggy.cpp - A data loader per rank's own file -===//
//
// Data-parallel training with LibTorch's data loader, where every rank loads
// its own file: a dataset of 16 + 5 * rank samples here, as when the data is
// pre-split into files of different sizes. The loader's default sampler
// walks all of the rank's own dataset, so rank 0 gets 4 batches of 4 and
// rank 1 gets 6 - and every batch ends in a gradient allreduce. Rank 1 waits
// in its extra allreduces for a partner that has finished. (drop_last would
// not help: it would leave 4 and 5 batches.)
//
//===----------------------------------------------------------------------===//

#include "common/dist_setup.h"

#include <cstdint>
#include <vector>

static constexpr int64_t kBatchSize = 4;

/// This rank's file: its number of samples depends on the rank.
static torch::data::datasets::TensorDataset loadOwnFile(int rank) {
  torch::manual_seed(1 + rank);
  return torch::data::datasets::TensorDataset(torch::randn({16 + 5 * rank, 4}));
}

static void train(const c10::intrusive_ptr<c10d::ProcessGroup> &pg) {
  int rank = pg->getRank();
  int worldSize = pg->getSize();

  torch::manual_seed(0);
  torch::nn::Linear model(4, 1);
  torch::optim::SGD optimizer(model->parameters(), /*lr=*/0.05);

  // BUG: a dataset per rank, and a loader that walks all of it.
  auto dataset = loadOwnFile(rank).map(
      torch::data::transforms::Stack<torch::data::TensorExample>());
  auto loader = torch::data::make_data_loader(
      std::move(dataset), torch::data::DataLoaderOptions().batch_size(kBatchSize));

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
