// RUN: %check_ddp_tidy %s ddp-collective-in-rank-branch %t -- -- %mock_flags

// A tensor-parallel layer communicates in its forward: running the module
// under a rank test (generation on the last rank only) leaves the rest of
// its group waiting. `model(x)` on a module holder (TORCH_MODULE) runs the
// Impl's forward through LibTorch's ModuleHolder::operator(); so does
// `model->forward(x)`, and a module's forward through its submodules.

#include <c10d/ProcessGroup.hpp>
#include <torch/nn.h>

#include <iostream>

using PG = c10::intrusive_ptr<c10d::ProcessGroup>;

// Each rank holds a column slice of the weight; the output is gathered.
class ColumnParallelLinearImpl : public torch::nn::Module {
public:
  ColumnParallelLinearImpl(PG group, int64_t in, int64_t out)
      : group_(group), local_(in, out / group->getSize()) {}
  at::Tensor forward(const at::Tensor &x) {
    std::vector<at::Tensor> part{local_(x)};
    std::vector<std::vector<at::Tensor>> gathered(1);
    group_->allgather(gathered, part)->wait();
    return gathered[0][0];
  }

private:
  PG group_;
  torch::nn::Linear local_;
};
TORCH_MODULE(ColumnParallelLinear);

// Two tensor-parallel layers: its forward communicates through them.
class ParallelMlpImpl : public torch::nn::Module {
public:
  ParallelMlpImpl(PG group)
      : fc1_(group, 8, 32), fc2_(group, 32, 8) {}
  at::Tensor forward(at::Tensor x) { return fc2_(fc1_(x)); }

private:
  ColumnParallelLinear fc1_;
  ColumnParallelLinear fc2_;
};
TORCH_MODULE(ParallelMlp);

// A module that does not communicate.
class LocalHeadImpl : public torch::nn::Module {
public:
  at::Tensor forward(at::Tensor x) { return head_(x); }

private:
  torch::nn::Linear head_{8, 2};
};
TORCH_MODULE(LocalHead);

void generateOnLastRank(PG pg, ColumnParallelLinear layer, at::Tensor prompt) {
  int rank = pg->getRank();
  if (rank == pg->getSize() - 1) {
    at::Tensor out = layer(prompt);
    std::cout << "generated\n";
  }
}
// CHECK-NOTES: :[[@LINE-4]]:22: warning: 'allgather' in 'ColumnParallelLinearImpl::forward' is reached only by ranks where 'rank == pg->getSize() - 1' [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-6]]:7: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-8]]:14: note: 'rank' is set from 'pg->getRank()' here
// CHECK-NOTES: :[[@LINE-43]]:5: note: 'ColumnParallelLinearImpl::forward' calls 'allgather' here

// Through the submodules the model's forward runs.
void evaluateOnRoot(PG pg, ParallelMlp mlp, at::Tensor batch) {
  if (pg->getRank() == 0)
    mlp(batch);
}
// CHECK-NOTES: :[[@LINE-2]]:5: warning: 'allgather' in 'ParallelMlpImpl::forward' is reached only by ranks where 'pg->getRank() == 0' [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-4]]:7: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-5]]:7: note: 'pg->getRank()' returns the rank of this process
// CHECK-NOTES: :[[@LINE-38]]:50: note: 'ParallelMlpImpl::forward' calls 'ColumnParallelLinearImpl::forward' here
// CHECK-NOTES: :[[@LINE-54]]:5: note: 'ColumnParallelLinearImpl::forward' calls 'allgather' here

// The forward called by name through the holder's operator->.
void evaluateOnRootByName(PG pg, ColumnParallelLinear layer, at::Tensor x) {
  if (pg->getRank() == 0)
    layer->forward(x);
}
// CHECK-NOTES: :[[@LINE-2]]:12: warning: 'allgather' in 'ColumnParallelLinearImpl::forward' is reached only by ranks where 'pg->getRank() == 0' [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-4]]:7: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-5]]:7: note: 'pg->getRank()' returns the rank of this process
// CHECK-NOTES: :[[@LINE-64]]:5: note: 'ColumnParallelLinearImpl::forward' calls 'allgather' here

// Silent: every rank of the group runs the layer; only the last one prints.
void generateEverywhere(PG pg, ColumnParallelLinear layer, at::Tensor prompt) {
  int rank = pg->getRank();
  at::Tensor out = layer(prompt);
  if (rank == pg->getSize() - 1)
    std::cout << "generated\n";
}

// Silent: a module that does not communicate, run on one rank.
void localHeadOnRoot(PG pg, LocalHead head, at::Tensor x) {
  if (pg->getRank() == 0)
    head(x);
}
