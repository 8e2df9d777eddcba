// RUN: %check_ddp_tidy %s ddp-forward-outside-no-sync %t -- -- %mock_flags

// A synchronised module (a DDP-like wrapper, or a module whose parameters a
// c10d::Reducer reduces) run forward more than once before one backward,
// outside its no-sync guard; gradient accumulation that synchronises every
// micro-step. forward-outside-no-sync-options.cpp: the options.

#include <c10d/ProcessGroup.hpp>
#include <dist/DistributedDataParallel.h>
#include <torch/nn.h>

#include <memory>
#include <vector>

using PG = c10::intrusive_ptr<c10d::ProcessGroup>;
at::Tensor mse(const at::Tensor &a, const at::Tensor &b);
at::Tensor crossEntropy(const at::Tensor &logits, const at::Tensor &labels);
at::Tensor augment(const at::Tensor &x);
namespace torch {
struct NoGradGuard {
  NoGradGuard();
  ~NoGradGuard();
};
} // namespace torch

//===----------------------------------------------------------------------===//
// Extra forward passes before one backward.
//===----------------------------------------------------------------------===//

// Self-distillation: the synchronised student runs twice, on the input and on
// an augmented view, before one backward.
void studentTwice(dist::DistributedDataParallel &student, at::Tensor x) {
  at::Tensor clean = student(x);
  at::Tensor noisy = student(augment(x));
  mse(clean, noisy).backward();
}
// CHECK-NOTES: :[[@LINE-3]]:22: warning: second forward pass of 'student' before its gradients are synchronised: synchronisation expects one forward pass per backward [ddp-forward-outside-no-sync]
// CHECK-NOTES: :[[@LINE-5]]:22: note: first forward pass here
// CHECK-NOTES: :[[@LINE-4]]:21: note: 'backward' synchronises the gradients of 'student' here
// CHECK-NOTES: :[[@LINE-6]]:22: note: run the extra forward passes under the no-sync guard ('no_sync()'), or through the module without the wrapper, or sum the losses of one forward pass

// Two losses from two forward calls, summed.
void twoLosses(dist::DistributedDataParallel &model, at::Tensor a,
               at::Tensor b, at::Tensor labels) {
  at::Tensor la = crossEntropy(model->forward(a), labels);
  at::Tensor lb = crossEntropy(model->forward(b), labels);
  (la + lb).backward();
}
// CHECK-NOTES: :[[@LINE-3]]:39: warning: second forward pass of 'model' before its gradients are synchronised: synchronisation expects one forward pass per backward [ddp-forward-outside-no-sync]
// CHECK-NOTES: :[[@LINE-5]]:39: note: first forward pass here
// CHECK-NOTES: :[[@LINE-4]]:13: note: 'backward' synchronises the gradients of 'model' here
// CHECK-NOTES: :[[@LINE-6]]:39: note: run the extra forward passes under the no-sync guard ('no_sync()'), or through the module without the wrapper, or sum the losses of one forward pass

// Chunks through the wrapper in a loop, one backward after it.
void chunksThenBackward(dist::DistributedDataParallel &model,
                        const std::vector<at::Tensor> &chunks) {
  at::Tensor total = at::zeros({1});
  for (const at::Tensor &chunk : chunks)
    total = total + model(chunk);
  total.backward();
}
// CHECK-NOTES: :[[@LINE-3]]:21: warning: 'model' runs forward in every iteration of this loop, but its gradients are synchronised by one 'backward' after the loop: synchronisation expects one forward pass per backward [ddp-forward-outside-no-sync]
// CHECK-NOTES: :[[@LINE-3]]:9: note: 'backward' synchronises the gradients of 'model' here
// CHECK-NOTES: :[[@LINE-5]]:21: note: run the extra forward passes under the no-sync guard ('no_sync()'), or through the module without the wrapper, or sum the losses of one forward pass

// A forward every iteration, a backward every fourth.
void backwardEveryFourth(dist::DistributedDataParallel &model,
                         const std::vector<at::Tensor> &batches) {
  at::Tensor loss = at::zeros({1});
  for (size_t i = 0; i < batches.size(); ++i) {
    loss = loss + model(batches[i]);
    if ((i + 1) % 4 == 0) {
      loss.backward();
      loss = at::zeros({1});
    }
  }
}
// CHECK-NOTES: :[[@LINE-7]]:19: warning: 'model' runs forward in every iteration of this loop, but its gradients are synchronised by one 'backward' after the loop: synchronisation expects one forward pass per backward [ddp-forward-outside-no-sync]
// CHECK-NOTES: :[[@LINE-6]]:12: note: 'backward' synchronises the gradients of 'model' here
// CHECK-NOTES: :[[@LINE-9]]:19: note: run the extra forward passes under the no-sync guard ('no_sync()'), or through the module without the wrapper, or sum the losses of one forward pass

// The wrapper's module itself, through a shared_ptr.
void sharedWrapper(std::shared_ptr<dist::DistributedDataParallelImpl> ddp,
                   at::Tensor a, at::Tensor b) {
  at::Tensor oa = ddp->forward(a);
  at::Tensor ob = ddp->forward(b);
  mse(oa, ob).backward();
}
// CHECK-NOTES: :[[@LINE-3]]:24: warning: second forward pass of 'ddp' before its gradients are synchronised: synchronisation expects one forward pass per backward [ddp-forward-outside-no-sync]
// CHECK-NOTES: :[[@LINE-5]]:24: note: first forward pass here
// CHECK-NOTES: :[[@LINE-4]]:15: note: 'backward' synchronises the gradients of 'ddp' here
// CHECK-NOTES: :[[@LINE-6]]:24: note: run the extra forward passes under the no-sync guard ('no_sync()'), or through the module without the wrapper, or sum the losses of one forward pass

// A trainer that keeps the wrapper in a field.
struct Trainer {
  dist::DistributedDataParallel model;
  torch::optim::SGD optimizer;
  void step(at::Tensor x, at::Tensor target) {
    at::Tensor first = model(x);
    at::Tensor again = model(x);
    mse(first + again, target).backward();
    optimizer.step();
  }
};
// CHECK-NOTES: :[[@LINE-5]]:24: warning: second forward pass of 'model' before its gradients are synchronised: synchronisation expects one forward pass per backward [ddp-forward-outside-no-sync]
// CHECK-NOTES: :[[@LINE-7]]:24: note: first forward pass here
// CHECK-NOTES: :[[@LINE-6]]:32: note: 'backward' synchronises the gradients of 'model' here
// CHECK-NOTES: :[[@LINE-8]]:24: note: run the extra forward passes under the no-sync guard ('no_sync()'), or through the module without the wrapper, or sum the losses of one forward pass

// An auxiliary pass on some steps only.
void auxiliaryPass(dist::DistributedDataParallel &model, at::Tensor x,
                   at::Tensor aux, bool useAux) {
  at::Tensor out = model(x);
  if (useAux)
    out = out + model(aux);
  out.backward();
}
// CHECK-NOTES: :[[@LINE-3]]:17: warning: second forward pass of 'model' before its gradients are synchronised: synchronisation expects one forward pass per backward [ddp-forward-outside-no-sync]
// CHECK-NOTES: :[[@LINE-6]]:20: note: first forward pass here
// CHECK-NOTES: :[[@LINE-4]]:7: note: 'backward' synchronises the gradients of 'model' here
// CHECK-NOTES: :[[@LINE-6]]:17: note: run the extra forward passes under the no-sync guard ('no_sync()'), or through the module without the wrapper, or sum the losses of one forward pass

// The guard's scope ended before the extra pass.
void guardScopeEnded(dist::DistributedDataParallel &model, at::Tensor a,
                     at::Tensor b) {
  {
    dist::NoSyncGuard guard = model->no_sync();
    model(a).backward();
  }
  at::Tensor oa = model(a);
  at::Tensor ob = model(b);
  mse(oa, ob).backward();
}
// CHECK-NOTES: :[[@LINE-3]]:19: warning: second forward pass of 'model' before its gradients are synchronised: synchronisation expects one forward pass per backward [ddp-forward-outside-no-sync]
// CHECK-NOTES: :[[@LINE-5]]:19: note: first forward pass here
// CHECK-NOTES: :[[@LINE-4]]:15: note: 'backward' synchronises the gradients of 'model' here
// CHECK-NOTES: :[[@LINE-6]]:19: note: run the extra forward passes under the no-sync guard ('no_sync()'), or through the module without the wrapper, or sum the losses of one forward pass

// The flag was turned back on before the passes.
void flagBackOn(dist::DistributedDataParallel &model, at::Tensor a,
                at::Tensor b) {
  model->require_backward_grad_sync = false;
  model(a).backward();
  model->require_backward_grad_sync = true;
  at::Tensor oa = model(a);
  at::Tensor ob = model(b);
  mse(oa, ob).backward();
}
// CHECK-NOTES: :[[@LINE-3]]:19: warning: second forward pass of 'model' before its gradients are synchronised: synchronisation expects one forward pass per backward [ddp-forward-outside-no-sync]
// CHECK-NOTES: :[[@LINE-5]]:19: note: first forward pass here
// CHECK-NOTES: :[[@LINE-4]]:15: note: 'backward' synchronises the gradients of 'model' here
// CHECK-NOTES: :[[@LINE-6]]:19: note: run the extra forward passes under the no-sync guard ('no_sync()'), or through the module without the wrapper, or sum the losses of one forward pass

// A c10d::Reducer over the module's parameters, armed for this backward.
void reducerTwice(torch::nn::Linear &model, const PG &pg, at::Tensor a,
                  at::Tensor b) {
  c10d::Reducer reducer(model->parameters(), pg,
                        /*find_unused_parameters=*/false);
  at::Tensor oa = model(a);
  at::Tensor ob = model(b);
  reducer.prepare_for_backward({oa, ob});
  torch::autograd::backward({mse(oa, ob)});
}
// CHECK-NOTES: :[[@LINE-4]]:19: warning: second forward pass of 'model' before its gradients are synchronised: synchronisation expects one forward pass per backward [ddp-forward-outside-no-sync]
// CHECK-NOTES: :[[@LINE-6]]:19: note: first forward pass here
// CHECK-NOTES: :[[@LINE-4]]:3: note: 'backward' synchronises the gradients of 'model' here
// CHECK-NOTES: :[[@LINE-6]]:11: note: the c10d::Reducer over the parameters of 'model' is armed here
// CHECK-NOTES: :[[@LINE-8]]:19: note: run the extra forward passes under the no-sync guard ('no_sync()'), or through the module without the wrapper, or sum the losses of one forward pass

// A teacher-student loop: the synchronised student also produces its own
// soft targets, outside the guard, before the one backward of the step.
void distillOutsideGuard(dist::DistributedDataParallel &student,
                         torch::nn::Linear &teacher,
                         torch::optim::SGD &optimizer,
                         const std::vector<at::Tensor> &batches) {
  for (const at::Tensor &x : batches) {
    optimizer.zero_grad();
    at::Tensor soft = student(augment(x)).detach();
    at::Tensor out = student(x);
    mse(out, soft + teacher(x)).backward();
    optimizer.step();
  }
}
// CHECK-NOTES: :[[@LINE-5]]:22: warning: second forward pass of 'student' before its gradients are synchronised: synchronisation expects one forward pass per backward [ddp-forward-outside-no-sync]
// CHECK-NOTES: :[[@LINE-7]]:23: note: first forward pass here
// CHECK-NOTES: :[[@LINE-6]]:33: note: 'backward' synchronises the gradients of 'student' here
// CHECK-NOTES: :[[@LINE-8]]:22: note: run the extra forward passes under the no-sync guard ('no_sync()'), or through the module without the wrapper, or sum the losses of one forward pass

//===----------------------------------------------------------------------===//
// Gradient accumulation that synchronises every micro-step.
//===----------------------------------------------------------------------===//

void accumulateWithSyncEveryStep(dist::DistributedDataParallel &model,
                                 torch::optim::SGD &optimizer,
                                 const std::vector<at::Tensor> &batches) {
  for (size_t i = 0; i < batches.size(); ++i) {
    model(batches[i]).backward();
    if ((i + 1) % 8 == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}
// CHECK-NOTES: :[[@LINE-7]]:23: warning: gradients are synchronised at every micro-step of this accumulation loop, but the optimizer uses them only every few iterations: the other reductions are wasted bandwidth [ddp-forward-outside-no-sync]
// CHECK-NOTES: :[[@LINE-6]]:17: note: the optimizer steps here
// CHECK-NOTES: :[[@LINE-9]]:23: note: run the forward and backward of all but the last micro-step under the no-sync guard ('no_sync()')

void microStepsThenStep(dist::DistributedDataParallel &model,
                        torch::optim::SGD &optimizer,
                        const std::vector<std::vector<at::Tensor>> &steps) {
  for (const auto &microBatches : steps) {
    for (const at::Tensor &micro : microBatches)
      model(micro).backward();
    optimizer.step();
  }
}
// CHECK-NOTES: :[[@LINE-4]]:20: warning: gradients are synchronised at every micro-step of this accumulation loop, but the optimizer uses them only after the loop: the other reductions are wasted bandwidth [ddp-forward-outside-no-sync]
// CHECK-NOTES: :[[@LINE-4]]:15: note: the optimizer steps here
// CHECK-NOTES: :[[@LINE-6]]:20: note: run the forward and backward of all but the last micro-step under the no-sync guard ('no_sync()')

void reducerEveryMicroStep(torch::nn::Linear &model, const PG &pg,
                           torch::optim::SGD &optimizer,
                           const std::vector<at::Tensor> &micro) {
  c10d::Reducer reducer(model->parameters(), pg, false);
  for (const at::Tensor &x : micro) {
    at::Tensor out = model(x);
    reducer.prepare_for_backward({out});
    out.backward();
  }
  optimizer.step();
}
// CHECK-NOTES: :[[@LINE-4]]:9: warning: gradients are synchronised at every micro-step of this accumulation loop, but the optimizer uses them only after the loop: the other reductions are wasted bandwidth [ddp-forward-outside-no-sync]
// CHECK-NOTES: :[[@LINE-3]]:13: note: the optimizer steps here
// CHECK-NOTES: :[[@LINE-6]]:9: note: run the forward and backward of all but the last micro-step under the no-sync guard ('no_sync()')

//===----------------------------------------------------------------------===//
// Silent.
//===----------------------------------------------------------------------===//

// One forward per backward, the optimizer every step.
void oneForwardPerBackward(dist::DistributedDataParallel &model,
                           torch::optim::SGD &optimizer,
                           const std::vector<at::Tensor> &batches) {
  for (const at::Tensor &batch : batches) {
    optimizer.zero_grad();
    model(batch).backward();
    optimizer.step();
  }
}

// The teacher is a plain module: only the student synchronises.
void teacherUnwrapped(dist::DistributedDataParallel &student,
                      torch::nn::Linear &teacher, at::Tensor x) {
  at::Tensor target = teacher(x);
  mse(student(x), target).backward();
}

// The extra pass under the guard.
void extraPassUnderGuard(dist::DistributedDataParallel &student, at::Tensor x) {
  at::Tensor target;
  {
    auto guard = student->no_sync();
    target = student(augment(x)).detach();
  }
  mse(student(x), target).backward();
}

// The same loop with the soft targets under the guard.
void distillUnderGuard(dist::DistributedDataParallel &student,
                       torch::nn::Linear &teacher,
                       torch::optim::SGD &optimizer,
                       const std::vector<at::Tensor> &batches) {
  for (const at::Tensor &x : batches) {
    optimizer.zero_grad();
    at::Tensor soft;
    {
      auto guard = student->no_sync();
      soft = student(augment(x)).detach();
    }
    at::Tensor out = student(x);
    mse(out, soft + teacher(x)).backward();
    optimizer.step();
  }
}

// The whole step under a guard built directly: nothing synchronises.
void wholeStepUnderGuard(dist::DistributedDataParallel &model, at::Tensor a,
                         at::Tensor b) {
  dist::NoSyncGuard guard(*model);
  mse(model(a), model(b)).backward();
}

// Synchronisation turned off by the flag.
void flagOff(dist::DistributedDataParallel &model, at::Tensor a,
             at::Tensor b) {
  model->require_backward_grad_sync = false;
  mse(model(a), model(b)).backward();
}

// Accumulation done right: all but the last micro-step under the guard.
void accumulateUnderGuard(dist::DistributedDataParallel &model,
                          torch::optim::SGD &optimizer,
                          const std::vector<at::Tensor> &micro) {
  for (size_t i = 0; i < micro.size(); ++i) {
    if (i + 1 < micro.size()) {
      auto guard = model->no_sync();
      model(micro[i]).backward();
    } else {
      model(micro[i]).backward();
    }
  }
  optimizer.step();
}

// One forward on each side of a branch.
void oneForwardEitherWay(dist::DistributedDataParallel &model, at::Tensor a,
                         at::Tensor b, bool flip) {
  at::Tensor out;
  if (flip)
    out = model(b);
  else
    out = model(a);
  out.backward();
}

// A Reducer that is not armed for this backward (no prepare_for_backward):
// the backward does not synchronise.
void reducerNotArmed(torch::nn::Linear &model, const PG &pg, at::Tensor a,
                     at::Tensor b) {
  c10d::Reducer reducer(model->parameters(), pg, false);
  mse(model(a), model(b)).backward();
}

// Two wrappers, one forward each.
void twoWrappers(dist::DistributedDataParallel &encoder,
                 dist::DistributedDataParallel &decoder, at::Tensor x) {
  decoder(encoder(x)).backward();
}

// An evaluation pass under torch::NoGradGuard builds no graph.
void evalInTheMiddle(dist::DistributedDataParallel &model, at::Tensor x,
                     at::Tensor val) {
  at::Tensor out = model(x);
  {
    torch::NoGradGuard noGrad;
    model(val);
  }
  out.backward();
}

// Two complete steps.
void twoSteps(dist::DistributedDataParallel &model, at::Tensor a,
              at::Tensor b) {
  model(a).backward();
  model(b).backward();
}

// A plain module run twice: nothing synchronises it.
void plainModuleTwice(torch::nn::Linear &model, at::Tensor a, at::Tensor b) {
  mse(model(a), model(b)).backward();
}

// The micro-steps of an inner loop under the guard, the last one outside.
void innerLoopUnderGuard(dist::DistributedDataParallel &model,
                         torch::optim::SGD &optimizer,
                         const std::vector<at::Tensor> &micro,
                         at::Tensor last) {
  {
    auto guard = model->no_sync();
    for (const at::Tensor &x : micro)
      model(x).backward();
  }
  model(last).backward();
  optimizer.step();
}
