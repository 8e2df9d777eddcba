// Both checks on a training program written against the real LibTorch 1.13
// headers (Debian libtorch-dev, c10d with Gloo).
// REQUIRES: libtorch
// RUN: %check_ddp_tidy %s 'ddp-*' %t -- -- %torch_flags

#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>

#include <cmath>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

using PG = c10::intrusive_ptr<c10d::ProcessGroup>;

// Every rank builds the store; exactly one (rank 0) hosts it: correct.
PG connect(int rank, int world_size) {
  auto store = c10::make_intrusive<c10d::TCPStore>(
      "127.0.0.1", 29500, world_size, /*isServer=*/rank == 0);
  auto options = c10d::ProcessGroupGloo::Options::create();
  options->devices.push_back(
      c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
  return c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, world_size,
                                                      options);
}

void averageGradients(const PG &pg, torch::nn::Module &model) {
  for (auto &param : model.parameters()) {
    std::vector<at::Tensor> grads{param.grad()};
    pg->allreduce(grads)->wait();
    param.grad().div_(pg->getSize());
  }
}

float meanLoss(const PG &pg, float local) {
  std::vector<at::Tensor> value{torch::tensor(local)};
  pg->allreduce(value)->wait();
  return value[0].item<float>() / pg->getSize();
}

// Checkpoint on rank 0, then a barrier only rank 0 reaches.
void checkpointBuggy(const PG &pg, torch::nn::Linear &model, int step) {
  int rank = pg->getRank();
  if (rank == 0) {
    torch::save(model, "/tmp/ckpt-" + std::to_string(step) + ".pt");
    pg->barrier()->wait();
  }
}
// CHECK-MESSAGES: :[[@LINE-3]]:9: warning: 'barrier' is reached only by ranks where 'rank == 0' [ddp-rank-gated-barrier]
// CHECK-FIXES:      {{^}}    torch::save(model, "/tmp/ckpt-" + std::to_string(step) + ".pt");{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-FIXES-NEXT: {{^}}  pg->barrier()->wait();{{$}}

// The fixed form: rank 0 writes, everyone meets at the barrier.
void checkpointFixed(const PG &pg, torch::nn::Linear &model, int step) {
  if (pg->getRank() == 0)
    torch::save(model, "/tmp/ckpt-" + std::to_string(step) + ".pt");
  pg->barrier()->wait();
}

// Evaluation that returns early on the other ranks, before a collective.
float evaluateBuggy(const PG &pg, torch::nn::Linear &model,
                    const at::Tensor &x) {
  if (pg->getRank() != 0)
    return 0.f;
  float local = model->forward(x).mean().item<float>();
  return meanLoss(pg, local);
}
// CHECK-MESSAGES: :[[@LINE-2]]:10: warning: 'allreduce' in 'meanLoss' is skipped by ranks that leave early when 'pg->getRank() != 0' [ddp-collective-in-rank-branch]

// Every rank joins the reduction; only rank 0 prints.
float evaluateFixed(const PG &pg, torch::nn::Linear &model,
                    const at::Tensor &x) {
  float mean = meanLoss(pg, model->forward(x).mean().item<float>());
  if (pg->getRank() == 0)
    std::cout << "eval loss " << mean << "\n";
  return mean;
}

// Broadcast issued by the root only.
void broadcastBuggy(const PG &pg, at::Tensor &weights) {
  std::vector<at::Tensor> tensors{weights};
  if (pg->getRank() == 0)
    pg->broadcast(tensors)->wait();
}
// CHECK-MESSAGES: :[[@LINE-2]]:9: warning: 'broadcast' is reached only by ranks where 'pg->getRank() == 0' [ddp-collective-in-rank-branch]

// The root fills the tensor; every rank takes part in the broadcast.
void broadcastFixed(const PG &pg, at::Tensor &weights) {
  if (pg->getRank() == 0)
    weights.fill_(1.0);
  std::vector<at::Tensor> tensors{weights};
  c10d::BroadcastOptions opts;
  opts.rootRank = 0;
  pg->broadcast(tensors, opts)->wait();
}

// A matched point-to-point exchange is not a collective.
void exchange(const PG &pg, at::Tensor &t) {
  std::vector<at::Tensor> tensors{t};
  if (pg->getRank() == 0)
    pg->send(tensors, 1, 0)->wait();
  else
    pg->recv(tensors, 0, 0)->wait();
}

// The world size is the same on every rank.
void maybeAverage(const PG &pg, std::vector<at::Tensor> &tensors) {
  if (pg->getSize() > 1)
    pg->allreduce(tensors)->wait();
}

// Rank from the environment, as torchrun sets it.
void logOnLocalZero(const PG &pg, std::vector<at::Tensor> &metrics) {
  int local_rank = std::atoi(std::getenv("LOCAL_RANK"));
  if (local_rank == 0)
    pg->allreduce(metrics)->wait();
}
// CHECK-MESSAGES: :[[@LINE-2]]:9: warning: 'allreduce' is reached only by ranks where 'local_rank == 0' [ddp-collective-in-rank-branch]

// Early stopping on a loss every rank agreed on: the allreduce makes it
// uniform, so all ranks leave the loop together.
void trainUntilConverged(const PG &pg, torch::nn::Linear &model,
                         torch::optim::SGD &opt, const at::Tensor &x,
                         const at::Tensor &y) {
  for (int step = 0; step < 100; ++step) {
    opt.zero_grad();
    auto loss = torch::mse_loss(model->forward(x), y);
    loss.backward();
    averageGradients(pg, *model);
    opt.step();
    std::vector<at::Tensor> agreed{loss.detach() * (pg->getRank() + 1)};
    pg->allreduce(agreed)->wait();
    if (agreed[0].item<float>() < 1e-3f)
      break;
  }
}

// The same sequence on both sides of the branch.
void balanced(const PG &pg, std::vector<at::Tensor> &stats) {
  if (pg->getRank() == 0) {
    std::cout << "syncing\n";
    pg->allreduce(stats)->wait();
    pg->barrier()->wait();
  } else {
    pg->allreduce(stats)->wait();
    pg->barrier()->wait();
  }
}

// Each rank moves its batch to its own GPU: where a tensor lives does not
// change its shape, so every rank leaves or stays alike.
void stepOnLocalDevice(const PG &pg, const at::Tensor &batch) {
  torch::Device device(torch::kCUDA, std::atoi(std::getenv("LOCAL_RANK")));
  auto data = batch.to(device);
  auto ones = torch::ones({4}, torch::TensorOptions().device(device));
  if (data.size(0) == 0 || ones.numel() != 4)
    return;
  std::vector<at::Tensor> tensors{data};
  pg->allreduce(tensors)->wait();
}

// The device itself is this rank's.
void reduceOnFirstDevice(const PG &pg, std::vector<at::Tensor> &tensors) {
  torch::Device device(torch::kCUDA, std::atoi(std::getenv("LOCAL_RANK")));
  if (device.index() == 0)
    pg->allreduce(tensors)->wait();
}
// CHECK-MESSAGES: :[[@LINE-2]]:9: warning: 'allreduce' is reached only by ranks where 'device.index() == 0' [ddp-collective-in-rank-branch]

int main() {
  int rank = std::atoi(std::getenv("RANK"));
  int world_size = std::atoi(std::getenv("WORLD_SIZE"));
  PG pg = connect(rank, world_size);
  torch::nn::Linear model(4, 1);
  torch::optim::SGD opt(model->parameters(), 0.1);
  auto x = torch::randn({8, 4});
  auto y = torch::randn({8, 1});
  trainUntilConverged(pg, model, opt, x, y);
  checkpointFixed(pg, model, 1);
  evaluateFixed(pg, model, x);
  return 0;
}
