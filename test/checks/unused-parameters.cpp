// RUN: %check_ddp_tidy %s ddp-unused-parameters %t -- -- %mock_flags

// Modules synchronised with find_unused_parameters off (a DDP-like wrapper
// whose default is off, or a c10d::Reducer told false) whose forward uses a
// registered submodule or parameter only on some paths, or never.
// unused-parameters-real.cpp: the real c10d::Reducer and torch::nn.

#include <c10d/ProcessGroup.hpp>
#include <dist/DistributedDataParallel.h>
#include <torch/nn.h>

#include <memory>

using PG = c10::intrusive_ptr<c10d::ProcessGroup>;

//===----------------------------------------------------------------------===//
// Modules.
//===----------------------------------------------------------------------===//

// An auxiliary head used only when a flag is set.
struct AuxHeadNetImpl : torch::nn::Module {
  AuxHeadNetImpl(bool useAux) : useAux_(useAux) {
    body = register_module("body", torch::nn::Linear(8, 8));
    aux = register_module("aux", torch::nn::Linear(8, 8));
  }
  at::Tensor forward(at::Tensor x) {
    x = body(x);
    if (useAux_)
      x = x + aux(x);
    return x;
  }
  torch::nn::Linear body{nullptr}, aux{nullptr};
  bool useAux_;
};
// CHECK-NOTES: :[[@LINE-6]]:15: warning: 'aux' takes part in the forward pass of 'AuxHeadNetImpl' only on some paths: with 'find_unused_parameters' off, the gradient reduction waits for its gradients on the steps that skip it [ddp-unused-parameters]
// CHECK-NOTES: :[[@LINE-8]]:5: note: 'aux' is used only on this branch
// CHECK-NOTES: :[[@LINE+192]]:33: note: 'AuxHeadNetImpl' is synchronised with 'find_unused_parameters' off by default by this wrapper
// CHECK-NOTES: :[[@LINE-9]]:15: note: use every parameter on every path (add the unused output multiplied by zero to the loss), or turn 'find_unused_parameters' on, which costs a traversal of the autograd graph every step
TORCH_MODULE(AuxHeadNet);

// A head used in training only.
struct TrainingHeadImpl : torch::nn::Module {
  TrainingHeadImpl()
      : trunk(register_module("trunk", torch::nn::Linear(4, 4))),
        head(register_module("head", torch::nn::Linear(4, 4))) {}
  at::Tensor forward(at::Tensor x) {
    x = trunk(x);
    if (is_training())
      x = x + head(x);
    return x;
  }
  torch::nn::Linear trunk, head;
};
// CHECK-NOTES: :[[@LINE-5]]:15: warning: 'head' takes part in the forward pass of 'TrainingHeadImpl' only on some paths: with 'find_unused_parameters' off, the gradient reduction waits for its gradients on the steps that skip it [ddp-unused-parameters]
// CHECK-NOTES: :[[@LINE-7]]:5: note: 'head' is used only on this branch
// CHECK-NOTES: :[[@LINE+180]]:49: note: 'TrainingHeadImpl' is synchronised with 'find_unused_parameters' set to false by this wrapper
// CHECK-NOTES: :[[@LINE-8]]:15: note: use every parameter on every path (add the unused output multiplied by zero to the loss), or turn 'find_unused_parameters' on, which costs a traversal of the autograd graph every step
TORCH_MODULE(TrainingHead);

// A projection skipped by an early return; a parameter used on one side of
// a ?:; a layer never used.
struct ShortcutImpl : torch::nn::Module {
  ShortcutImpl() {
    proj = register_module("proj", torch::nn::Linear(4, 4));
    legacy = register_module("legacy", torch::nn::Linear(4, 4));
    bias = register_parameter("bias", at::zeros({4}));
  }
  at::Tensor forward(at::Tensor x, bool project, bool shift) {
    x = shift ? x + bias : x;
    if (!project)
      return x;
    return proj(x);
  }
  torch::nn::Linear proj{nullptr}, legacy{nullptr};
  at::Tensor bias;
};
// CHECK-NOTES: :[[@LINE-12]]:14: warning: 'legacy' is registered in 'ShortcutImpl' but its forward never uses it: with 'find_unused_parameters' off, the gradient reduction waits for its gradients, which never come [ddp-unused-parameters]
// CHECK-NOTES: :[[@LINE+165]]:52: note: 'ShortcutImpl' is synchronised with 'find_unused_parameters' set to false by this c10d::Reducer
// CHECK-NOTES: :[[@LINE-14]]:14: note: use every parameter on every path (add the unused output multiplied by zero to the loss), or turn 'find_unused_parameters' on, which costs a traversal of the autograd graph every step
// CHECK-NOTES: :[[@LINE-11]]:21: warning: 'bias' takes part in the forward pass of 'ShortcutImpl' only on some paths: with 'find_unused_parameters' off, the gradient reduction waits for its gradients on the steps that skip it [ddp-unused-parameters]
// CHECK-NOTES: :[[@LINE-12]]:9: note: 'bias' is used only on this branch
// CHECK-NOTES: :[[@LINE+161]]:52: note: 'ShortcutImpl' is synchronised with 'find_unused_parameters' set to false by this c10d::Reducer
// CHECK-NOTES: :[[@LINE-14]]:21: note: use every parameter on every path (add the unused output multiplied by zero to the loss), or turn 'find_unused_parameters' on, which costs a traversal of the autograd graph every step
// CHECK-NOTES: :[[@LINE-12]]:12: warning: 'proj' takes part in the forward pass of 'ShortcutImpl' only on some paths: with 'find_unused_parameters' off, the gradient reduction waits for its gradients on the steps that skip it [ddp-unused-parameters]
// CHECK-NOTES: :[[@LINE-14]]:7: note: this return skips 'proj'
// CHECK-NOTES: :[[@LINE+157]]:52: note: 'ShortcutImpl' is synchronised with 'find_unused_parameters' set to false by this c10d::Reducer
// CHECK-NOTES: :[[@LINE-15]]:12: note: use every parameter on every path (add the unused output multiplied by zero to the loss), or turn 'find_unused_parameters' on, which costs a traversal of the autograd graph every step
TORCH_MODULE(Shortcut);

// A head reached through a helper method called on some steps.
struct HelperHeadImpl : torch::nn::Module {
  HelperHeadImpl() {
    base = register_module("base", torch::nn::Linear(4, 4));
    extra = register_module("extra", torch::nn::Linear(4, 4));
  }
  at::Tensor refine(at::Tensor x) { return extra(x); }
  at::Tensor forward(at::Tensor x, bool refineStep) {
    x = base(x);
    if (refineStep)
      x = refine(x);
    return x;
  }
  torch::nn::Linear base{nullptr}, extra{nullptr};
};
// CHECK-NOTES: :[[@LINE-5]]:11: warning: 'extra' takes part in the forward pass of 'HelperHeadImpl' only on some paths: with 'find_unused_parameters' off, the gradient reduction waits for its gradients on the steps that skip it [ddp-unused-parameters]
// CHECK-NOTES: :[[@LINE-7]]:5: note: 'extra' is used only on this branch
// CHECK-NOTES: :[[@LINE+141]]:37: note: 'HelperHeadImpl' is synchronised with 'find_unused_parameters' set to false by this c10d::Reducer
// CHECK-NOTES: :[[@LINE-8]]:11: note: use every parameter on every path (add the unused output multiplied by zero to the loss), or turn 'find_unused_parameters' on, which costs a traversal of the autograd graph every step
TORCH_MODULE(HelperHead);

// Every member on every path: both arms, a loop, a ?: with the same layer.
struct EveryPathImpl : torch::nn::Module {
  EveryPathImpl() {
    a = register_module("a", torch::nn::Linear(4, 4));
    b = register_module("b", torch::nn::Linear(4, 4));
    c = register_module("c", torch::nn::Linear(4, 4));
    drop = register_module("drop", torch::nn::Dropout(0.1));
    scale = register_parameter("scale", at::ones({1}));
  }
  at::Tensor forward(at::Tensor x, bool flip) {
    if (flip)
      x = a(x);
    else
      x = a(x + x);
    for (int i = 0; i < 3; ++i)
      x = b(x);
    x = flip ? c(x + scale) : c(x + x + scale);
    if (is_training())
      x = drop(x);
    return x;
  }
  torch::nn::Linear a{nullptr}, b{nullptr}, c{nullptr};
  torch::nn::Dropout drop{nullptr};
  at::Tensor scale;
};
TORCH_MODULE(EveryPath);

// A module whose conditional member is a plain field, not registered.
struct CachedImpl : torch::nn::Module {
  CachedImpl() { fc = register_module("fc", torch::nn::Linear(4, 4)); }
  at::Tensor forward(at::Tensor x, bool useCache) {
    if (useCache)
      x = x + cache;
    return fc(x);
  }
  torch::nn::Linear fc{nullptr};
  at::Tensor cache;
};
TORCH_MODULE(Cached);

// One head per task, chosen by a switch.
struct MultiTaskImpl : torch::nn::Module {
  MultiTaskImpl() {
    classify = register_module("classify", torch::nn::Linear(4, 2));
    regress = register_module("regress", torch::nn::Linear(4, 1));
  }
  at::Tensor forward(at::Tensor x, int task) {
    switch (task) {
    case 0:
      return classify(x);
    default:
      return regress(x);
    }
  }
  torch::nn::Linear classify{nullptr}, regress{nullptr};
};
// CHECK-NOTES: :[[@LINE-7]]:14: warning: 'classify' takes part in the forward pass of 'MultiTaskImpl' only on some paths: with 'find_unused_parameters' off, the gradient reduction waits for its gradients on the steps that skip it [ddp-unused-parameters]
// CHECK-NOTES: :[[@LINE-10]]:5: note: 'classify' is used only on this branch
// CHECK-NOTES: :[[@LINE+84]]:33: note: 'MultiTaskImpl' is synchronised with 'find_unused_parameters' off by default by this wrapper
// CHECK-NOTES: :[[@LINE-10]]:14: note: use every parameter on every path (add the unused output multiplied by zero to the loss), or turn 'find_unused_parameters' on, which costs a traversal of the autograd graph every step
// CHECK-NOTES: :[[@LINE-9]]:14: warning: 'regress' takes part in the forward pass of 'MultiTaskImpl' only on some paths: with 'find_unused_parameters' off, the gradient reduction waits for its gradients on the steps that skip it [ddp-unused-parameters]
// CHECK-NOTES: :[[@LINE-14]]:5: note: 'regress' is used only on this branch
// CHECK-NOTES: :[[@LINE+80]]:33: note: 'MultiTaskImpl' is synchronised with 'find_unused_parameters' off by default by this wrapper
// CHECK-NOTES: :[[@LINE-12]]:14: note: use every parameter on every path (add the unused output multiplied by zero to the loss), or turn 'find_unused_parameters' on, which costs a traversal of the autograd graph every step

// forward defined out of line, with an early return in evaluation.
struct DeepSupervisionImpl : torch::nn::Module {
  DeepSupervisionImpl();
  at::Tensor forward(at::Tensor x);
  torch::nn::Linear trunk{nullptr}, side{nullptr};
};
DeepSupervisionImpl::DeepSupervisionImpl() {
  trunk = register_module("trunk", torch::nn::Linear(4, 4));
  side = register_module("side", torch::nn::Linear(4, 4));
}
at::Tensor DeepSupervisionImpl::forward(at::Tensor x) {
  x = trunk(x);
  if (!is_training())
    return x;
  return x + side(x);
}
// CHECK-NOTES: :[[@LINE-2]]:14: warning: 'side' takes part in the forward pass of 'DeepSupervisionImpl' only on some paths: with 'find_unused_parameters' off, the gradient reduction waits for its gradients on the steps that skip it [ddp-unused-parameters]
// CHECK-NOTES: :[[@LINE-4]]:5: note: this return skips 'side'
// CHECK-NOTES: :[[@LINE+64]]:48: note: 'DeepSupervisionImpl' is synchronised with 'find_unused_parameters' set to false by this c10d::Reducer
// CHECK-NOTES: :[[@LINE-5]]:14: note: use every parameter on every path (add the unused output multiplied by zero to the loss), or turn 'find_unused_parameters' on, which costs a traversal of the autograd graph every step

// A gate evaluated only when a flag is set (the right of &&); a refiner
// used in a while loop (taken to run), and a layer used through `this->` on
// both sides of a branch.
struct GatedImpl : torch::nn::Module {
  GatedImpl() {
    gate = register_module("gate", torch::nn::Linear(4, 1));
    refiner = register_module("refiner", torch::nn::Linear(4, 4));
    out = register_module("out", torch::nn::Linear(4, 4));
  }
  at::Tensor forward(at::Tensor x, bool gated, int rounds) {
    if (gated && gate(x).is_nonzero())
      x = x + x;
    while (rounds-- > 0)
      x = refiner(x);
    if (gated)
      return this->out(x);
    return this->out(x + x);
  }
  torch::nn::Linear gate{nullptr}, refiner{nullptr}, out{nullptr};
};
// CHECK-NOTES: :[[@LINE-10]]:18: warning: 'gate' takes part in the forward pass of 'GatedImpl' only on some paths: with 'find_unused_parameters' off, the gradient reduction waits for its gradients on the steps that skip it [ddp-unused-parameters]
// CHECK-NOTES: :[[@LINE-11]]:9: note: 'gate' is used only on this branch
// CHECK-NOTES: :[[@LINE+44]]:16: note: 'GatedImpl' is synchronised with 'find_unused_parameters' off by default by this wrapper
// CHECK-NOTES: :[[@LINE-13]]:18: note: use every parameter on every path (add the unused output multiplied by zero to the loss), or turn 'find_unused_parameters' on, which costs a traversal of the autograd graph every step

//===----------------------------------------------------------------------===//
// Synchronisation with find_unused_parameters off.
//===----------------------------------------------------------------------===//

// The wrapper's default is off.
void wrapAuxHead(const PG &pg) {
  AuxHeadNet net(true);
  dist::DistributedDataParallel model(net.ptr(), pg);
}

// Told false explicitly, built with make_shared.
void wrapTrainingHead(const PG &pg) {
  TrainingHead net;
  auto model = std::make_shared<dist::DistributedDataParallelImpl>(
      net.ptr(), pg, /*find_unused_parameters=*/false);
}

// A c10d::Reducer over the parameters, told false.
void reduceShortcut(const PG &pg) {
  Shortcut net;
  c10d::Reducer reducer(net->parameters(), pg,
                        /*find_unused_parameters=*/false);
}

void reduceHelperHead(const PG &pg, HelperHead &net) {
  auto params = net->parameters();
  c10d::Reducer reducer(params, pg, false);
}

// The module built in place for the wrapper.
void wrapMultiTask(const PG &pg) {
  dist::DistributedDataParallel model(std::make_shared<MultiTaskImpl>(), pg);
}

void reduceDeepSupervision(const PG &pg) {
  auto net = std::make_shared<DeepSupervisionImpl>();
  c10d::Reducer reducer(net->parameters(), pg, false);
}

void wrapGated(const PG &pg) {
  auto net = std::make_shared<GatedImpl>();
  auto model = std::make_shared<dist::DistributedDataParallelImpl>(net, pg);
}

//===----------------------------------------------------------------------===//
// Silent.
//===----------------------------------------------------------------------===//

// find_unused_parameters on.
void wrapAuxHeadFindUnused(const PG &pg) {
  AuxHeadNet net(true);
  dist::DistributedDataParallel model(net.ptr(), pg,
                                      /*find_unused_parameters=*/true);
}

// Decided at run time: not known to be off.
void wrapAuxHeadConfigured(const PG &pg, bool findUnused) {
  AuxHeadNet net(false);
  dist::DistributedDataParallel model(net.ptr(), pg, findUnused);
}

// Every member on every path.
void wrapEveryPath(const PG &pg) {
  EveryPath net;
  dist::DistributedDataParallel model(net.ptr(), pg);
  c10d::Reducer reducer(net->parameters(), pg, false);
}

// Only a plain field is conditional.
void wrapCached(const PG &pg) {
  Cached net;
  dist::DistributedDataParallel model(net.ptr(), pg);
}

// Not synchronised at all.
void trainLocally(Shortcut &net, at::Tensor x) {
  net->forward(x, true, false).backward();
}

// find_unused_parameters on, for a Reducer and through make_shared.
void reduceAuxHeadFindUnused(const PG &pg) {
  AuxHeadNet net(true);
  c10d::Reducer reducer(net->parameters(), pg,
                        /*find_unused_parameters=*/true);
  auto model = std::make_shared<dist::DistributedDataParallelImpl>(
      net.ptr(), pg, /*find_unused_parameters=*/true);
}
