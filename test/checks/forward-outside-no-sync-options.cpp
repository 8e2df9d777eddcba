// RUN: %check_ddp_tidy %s ddp-forward-outside-no-sync %t -- \
// RUN:   --config="{CheckOptions: {SyncWrappers: 'engine::Engine', NoSyncMethods: 'pause_sync', NoSyncGuards: 'SyncPause', SyncFlags: 'sync_grads', ddp-forward-outside-no-sync.GradientAccumulation: false}}" \
// RUN:   -- %mock_flags

// A framework's own wrapper, guard, method and flag, given by the options;
// the accumulation rule turned off. The options replace the defaults, so
// dist::DistributedDataParallel is no longer a wrapper here.

#include <dist/DistributedDataParallel.h>
#include <torch/nn.h>

#include <vector>

at::Tensor mse(const at::Tensor &a, const at::Tensor &b);

namespace engine {
class SyncPause {
public:
  ~SyncPause();
};
class Engine {
public:
  at::Tensor forward(at::Tensor x);
  SyncPause pause_sync();
  bool sync_grads = true;
};
} // namespace engine

void engineTwice(engine::Engine &engine, at::Tensor a, at::Tensor b) {
  at::Tensor oa = engine.forward(a);
  at::Tensor ob = engine.forward(b);
  mse(oa, ob).backward();
}
// CHECK-MESSAGES: :[[@LINE-3]]:26: warning: second forward pass of 'engine' before its gradients are synchronised: synchronisation expects one forward pass per backward [ddp-forward-outside-no-sync]

// Silent: the configured method's guard.
void enginePaused(engine::Engine &engine, at::Tensor a, at::Tensor b) {
  at::Tensor ob;
  {
    auto pause = engine.pause_sync();
    ob = engine.forward(b).detach();
  }
  mse(engine.forward(a), ob).backward();
}

// Silent: the configured guard type.
void enginePauseGuard(engine::Engine &engine, engine::SyncPause pause,
                      at::Tensor a, at::Tensor b) {
  engine::SyncPause held = std::move(pause);
  mse(engine.forward(a), engine.forward(b)).backward();
}

// Silent: the configured flag.
void engineFlagOff(engine::Engine &engine, at::Tensor a, at::Tensor b) {
  engine.sync_grads = false;
  mse(engine.forward(a), engine.forward(b)).backward();
}

// Silent: GradientAccumulation is off.
void accumulate(engine::Engine &engine, torch::optim::SGD &optimizer,
                const std::vector<at::Tensor> &micro) {
  for (const at::Tensor &x : micro)
    engine.forward(x).backward();
  optimizer.step();
}

// Silent: not a wrapper under these options.
void defaultWrapperNotConfigured(dist::DistributedDataParallel &model,
                                 at::Tensor a, at::Tensor b) {
  mse(model(a), model(b)).backward();
}
