// Mock of a DDP-like wrapper module, as a framework built on LibTorch would
// provide one (LibTorch itself has none in C++): it reduces the gradients of
// the wrapped module's parameters during backward, unless a NoSyncGuard
// from no_sync() is alive or require_backward_grad_sync is false.
#pragma once
#include <torch/nn.h>

namespace dist {
class DistributedDataParallelImpl;

class NoSyncGuard {
public:
  explicit NoSyncGuard(DistributedDataParallelImpl &ddp);
  NoSyncGuard(NoSyncGuard &&other);
  ~NoSyncGuard();
};

class DistributedDataParallelImpl : public torch::nn::Module {
public:
  DistributedDataParallelImpl(std::shared_ptr<torch::nn::Module> module,
                              c10::intrusive_ptr<c10d::ProcessGroup> pg,
                              bool find_unused_parameters = false);
  at::Tensor forward(at::Tensor input);
  NoSyncGuard no_sync();
  torch::nn::Module &module();
  bool require_backward_grad_sync = true;
};
TORCH_MODULE(DistributedDataParallel);
} // namespace dist
