//===- parallel_layer_on_last/buggy.cpp - A sharded layer on one rank -----===//
//
// A row-parallel linear layer: each rank holds the weight columns for its
// slice of the input features, computes a partial product, and the partial
// products are summed over the ranks with an allreduce inside the layer's
// forward. The model trains on every rank; afterwards the last rank alone
// runs it on a prompt to print a prediction - but its forward is a
// collective, and the other ranks are already waiting in the final barrier.
//
//===----------------------------------------------------------------------===//

#include "common/dist_setup.h"

#include <vector>

static constexpr int kSteps = 4;
static constexpr int kFeatures = 8;

/// y = x W^T, with W split by input columns over the ranks of the group.
class RowParallelLinearImpl : public torch::nn::Module {
public:
  RowParallelLinearImpl(c10::intrusive_ptr<c10d::ProcessGroup> group,
                        int64_t in, int64_t out)
      : group_(group), slice_(in / group->getSize()),
        first_(group->getRank() * slice_) {
    weight_ = register_parameter("weight", torch::randn({out, slice_}) * 0.1);
  }

  torch::Tensor forward(const torch::Tensor &x) {
    torch::Tensor mine = x.narrow(/*dim=*/1, first_, slice_);
    std::vector<torch::Tensor> partial{torch::matmul(mine, weight_.t())};
    group_->allreduce(partial)->wait();
    return partial[0];
  }

private:
  c10::intrusive_ptr<c10d::ProcessGroup> group_;
  int64_t slice_;
  int64_t first_;
  torch::Tensor weight_;
};
TORCH_MODULE(RowParallelLinear);

static void train(const c10::intrusive_ptr<c10d::ProcessGroup> &pg) {
  int rank = pg->getRank();
  torch::manual_seed(rank);
  RowParallelLinear layer(pg, kFeatures, 1);
  torch::optim::SGD optimizer(layer->parameters(), /*lr=*/0.05);

  // The same batch on every rank: each rank trains its own columns.
  torch::manual_seed(0);
  torch::Tensor inputs = torch::randn({16, kFeatures});
  torch::Tensor targets = inputs.sum(/*dim=*/1, /*keepdim=*/true);
  for (int step = 0; step < kSteps; ++step) {
    optimizer.zero_grad();
    torch::mse_loss(layer(inputs), targets).backward();
    optimizer.step();
  }

  // BUG: the prediction is printed by the last rank, and only it runs the
  // layer, whose forward all-reduces over every rank.
  if (rank == pg->getSize() - 1) {
    torch::NoGradGuard noGrad;
    torch::Tensor prediction = layer(torch::ones({1, kFeatures}));
    std::cout << "prediction " << prediction.item<float>() << std::endl;
  }
  pg->barrier()->wait();
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
