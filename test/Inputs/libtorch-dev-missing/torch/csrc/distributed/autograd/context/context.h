// Debian's libtorch-dev 1.13 ships torch/csrc/distributed/c10d/reducer.hpp
// but not the distributed-autograd header it includes. This stand-in
// declares the two names reducer.hpp uses, with LibTorch's definitions, so
// that the real Reducer header parses in tests (gradient-sync-real.cpp).
#pragma once
#include <ATen/core/Tensor.h>
#include <functional>
#include <memory>

namespace torch {
namespace distributed {
namespace autograd {
class DistAutogradContext {
public:
  using GradCallback = std::function<bool(at::Tensor &)>;
};
using ContextPtr = std::shared_ptr<DistAutogradContext>;
} // namespace autograd
} // namespace distributed
} // namespace torch
