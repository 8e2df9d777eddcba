// Gradient synchronisation with the real LibTorch 1.13 headers (Debian
// libtorch-dev): torch::nn modules and the real c10d::Reducer, with every
// ddp check enabled.
// REQUIRES: libtorch
// Once per test command: the LLVM 19 and sanitizer runs analyse the real
// headers in real-libtorch-training.cpp, unresolved-calls-real-libtorch.cpp
// and driver/real-libtorch.test (each parse of them costs seconds).
// UNSUPPORTED: sanitizers, llvm-19
// RUN: %check_ddp_tidy %s 'ddp-*' %t -- -- %torch_flags \
// RUN:   -isystem %S/../Inputs/libtorch-dev-missing

#include <torch/nn.h>
#include <torch/optim.h>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/reducer.hpp>

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

using PG = c10::intrusive_ptr<c10d::ProcessGroup>;

/// A c10d::Reducer over a module's parameters, one bucket, as a C++ DDP
/// replacement builds it.
std::unique_ptr<c10d::Reducer> makeReducer(std::vector<at::Tensor> params,
                                           const PG &pg, bool findUnused) {
  std::vector<size_t> all(params.size());
  for (size_t i = 0; i < all.size(); ++i)
    all[i] = i;
  return std::make_unique<c10d::Reducer>(
      params, std::vector<std::vector<size_t>>{all},
      std::vector<size_t>{25 * 1024 * 1024}, pg,
      std::vector<bool>(params.size(), false), 25 * 1024 * 1024, findUnused,
      /*gradient_as_bucket_view=*/false,
      std::unordered_map<size_t, std::string>{}, 1024 * 1024);
}

// The module: an auxiliary head used only when a flag is set.
struct AuxNetImpl : torch::nn::Module {
  explicit AuxNetImpl(bool withAux) : withAux_(withAux) {
    body = register_module("body", torch::nn::Linear(8, 8));
    aux = register_module("aux", torch::nn::Linear(8, 8));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = body(x);
    if (withAux_)
      x = x + aux(x);
    return x;
  }
  torch::nn::Linear body{nullptr}, aux{nullptr};
  bool withAux_;
};
// CHECK-NOTES: :[[@LINE-6]]:15: warning: 'aux' takes part in the forward pass of 'AuxNetImpl' only on some paths: with 'find_unused_parameters' off, the gradient reduction waits for its gradients on the steps that skip it [ddp-unused-parameters]
// CHECK-NOTES: :[[@LINE-8]]:5: note: 'aux' is used only on this branch
// CHECK-NOTES: :[[@LINE+26]]:52: note: 'AuxNetImpl' is synchronised with 'find_unused_parameters' set to false by this c10d::Reducer
// CHECK-NOTES: :[[@LINE-9]]:15: note: use every parameter on every path (add the unused output multiplied by zero to the loss), or turn 'find_unused_parameters' on, which costs a traversal of the autograd graph every step
TORCH_MODULE(AuxNet);

// Every member on every path (dropout has no parameters).
struct PlainNetImpl : torch::nn::Module {
  PlainNetImpl() {
    fc = register_module("fc", torch::nn::Linear(8, 8));
    drop = register_module("drop", torch::nn::Dropout(0.1));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = fc(x);
    if (is_training())
      x = drop(x);
    return x;
  }
  torch::nn::Linear fc{nullptr};
  torch::nn::Dropout drop{nullptr};
};
TORCH_MODULE(PlainNet);

void strictAuxNet(const PG &pg) {
  AuxNet net(true);
  std::vector<size_t> one{0, 1, 2, 3};
  c10d::Reducer reducer(net->parameters(), {one}, {1 << 20}, pg,
                        std::vector<bool>(4, false), 1 << 20,
                        /*find_unused_parameters=*/false,
                        /*gradient_as_bucket_view=*/false, {}, 1 << 20);
}

// Silent: every parameter takes part on every path.
void strictPlainNet(const PG &pg) {
  PlainNet net;
  std::vector<size_t> one{0, 1};
  c10d::Reducer reducer(net->parameters(), {one}, {1 << 20}, pg,
                        std::vector<bool>(2, false), 1 << 20,
                        /*find_unused_parameters=*/false, false, {}, 1 << 20);
}

// Two forward passes before one armed backward.
void twoPasses(const PG &pg, PlainNet &net, torch::Tensor a, torch::Tensor b) {
  std::vector<size_t> one{0, 1};
  c10d::Reducer reducer(net->parameters(), {one}, {1 << 20}, pg,
                        std::vector<bool>(2, false), 1 << 20, false, false, {},
                        1 << 20);
  torch::Tensor oa = net(a);
  torch::Tensor ob = net(b);
  reducer.prepare_for_backward({oa, ob});
  (oa - ob).pow(2).sum().backward();
}
// CHECK-NOTES: :[[@LINE-4]]:22: warning: second forward pass of 'net' before its gradients are synchronised: synchronisation expects one forward pass per backward [ddp-forward-outside-no-sync]
// CHECK-NOTES: :[[@LINE-6]]:22: note: first forward pass here
// CHECK-NOTES: :[[@LINE-4]]:26: note: 'backward' synchronises the gradients of 'net' here
// CHECK-NOTES: :[[@LINE-6]]:11: note: the c10d::Reducer over the parameters of 'net' is armed here
// CHECK-NOTES: :[[@LINE-8]]:22: note: run the extra forward passes under the no-sync guard ('no_sync()'), or through the module without the wrapper, or sum the losses of one forward pass

// Silent: one pass per armed backward.
void onePass(const PG &pg, PlainNet &net, torch::Tensor a) {
  auto reducer = makeReducer(net->parameters(), pg, false);
  torch::Tensor out = net(a);
  reducer->prepare_for_backward({out});
  out.sum().backward();
}

// Rank 0 alone runs the synchronising backward.
void backwardOnRoot(const PG &pg, PlainNet &net, torch::Tensor a) {
  auto reducer = makeReducer(net->parameters(), pg, false);
  torch::Tensor out = net(a);
  reducer->prepare_for_backward({out});
  if (pg->getRank() == 0)
    out.sum().backward();
}
// CHECK-NOTES: :[[@LINE-2]]:15: warning: 'backward' is reached only by ranks where 'pg->getRank() == 0' [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-4]]:7: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-5]]:7: note: 'pg->getRank()' returns the rank of this process
// CHECK-NOTES: :[[@LINE-5]]:15: note: gradient synchronisation is armed in this file (a c10d::Reducer, a DDP-like wrapper or a gradient hook that communicates), so 'backward' is a collective

// Gradient accumulation that reduces every micro-step.
void accumulate(const PG &pg, PlainNet &net, torch::optim::SGD &optimizer,
                const std::vector<torch::Tensor> &micro) {
  std::vector<size_t> one{0, 1};
  c10d::Reducer reducer(net->parameters(), {one}, {1 << 20}, pg,
                        std::vector<bool>(2, false), 1 << 20, false, false, {},
                        1 << 20);
  for (const torch::Tensor &x : micro) {
    torch::Tensor out = net(x);
    reducer.prepare_for_backward({out});
    out.sum().backward();
  }
  optimizer.step();
}
// CHECK-NOTES: :[[@LINE-4]]:15: warning: gradients are synchronised at every micro-step of this accumulation loop, but the optimizer uses them only after the loop: the other reductions are wasted bandwidth [ddp-forward-outside-no-sync]
// CHECK-NOTES: :[[@LINE-3]]:13: note: the optimizer steps here
// CHECK-NOTES: :[[@LINE-6]]:15: note: run the forward and backward of all but the last micro-step under the no-sync guard ('no_sync()')
