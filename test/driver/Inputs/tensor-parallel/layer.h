#pragma once
#include <c10d/ProcessGroup.hpp>
#include <torch/nn.h>

using PG = c10::intrusive_ptr<c10d::ProcessGroup>;

// A tensor-parallel layer; its forward (layer.cpp) all-reduces the partial
// sums of the ranks of its group.
class RowParallelLinearImpl : public torch::nn::Module {
public:
  RowParallelLinearImpl(PG group, int64_t in, int64_t out);
  at::Tensor forward(const at::Tensor &x);

private:
  PG group_;
  torch::nn::Linear local_;
};
TORCH_MODULE(RowParallelLinear);
