// Loops over data on the real LibTorch 1.13 headers (Debian libtorch-dev):
// torch::data's loaders and samplers, with every ddp check enabled, so each
// loop is reported once, by the check that owns it.
// REQUIRES: libtorch
// Once per test command: the LLVM 19 and sanitizer runs analyse the real
// headers in real-libtorch-training.cpp, unresolved-calls-real-libtorch.cpp
// and driver/real-libtorch.test (each parse of them costs seconds).
// UNSUPPORTED: sanitizers, llvm-19
// RUN: %check_ddp_tidy %s 'ddp-*' %t -- -- %torch_flags

#include <torch/data.h>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>

#include <cmath>
#include <string>
#include <vector>

using PG = c10::intrusive_ptr<c10d::ProcessGroup>;
namespace samplers = torch::data::samplers;
using torch::data::DataLoaderOptions;
using torch::data::make_data_loader;

struct Shard : torch::data::datasets::Dataset<Shard> {
  explicit Shard(std::string path);
  torch::data::Example<> get(size_t index) override;
  c10::optional<size_t> size() const override;
};

void averageGradients(const PG &pg, std::vector<at::Tensor> &grads) {
  pg->allreduce(grads)->wait();
}

// The negative: a loader over DistributedRandomSampler(size, world,
// rank) with default options gives every rank the same number of batches.
void distributedSampler(const PG &pg, std::vector<at::Tensor> &grads) {
  int rank = pg->getRank(), world = pg->getSize();
  Shard all("train.bin");
  auto loader = make_data_loader(
      all, samplers::DistributedRandomSampler(all.size().value(), world, rank),
      DataLoaderOptions());
  for (auto &batch : *loader)
    averageGradients(pg, grads);
}

// The sequential sampler, truncating: as even.
void distributedSequentialTruncating(const PG &pg,
                                     std::vector<at::Tensor> &grads) {
  Shard all("train.bin");
  samplers::DistributedSequentialSampler sampler(
      all.size().value(), pg->getSize(), pg->getRank(),
      /*allow_duplicates=*/false);
  auto loader = make_data_loader(all, std::move(sampler),
                                 DataLoaderOptions().batch_size(16));
  for (auto &batch : *loader)
    averageGradients(pg, grads);
}

// Each rank's own file with the default sampler.
void ownFile(const PG &pg, std::vector<at::Tensor> &grads) {
  Shard shard("train-" + std::to_string(pg->getRank()) + ".bin");
  auto loader = make_data_loader(shard, DataLoaderOptions().batch_size(16));
  for (auto &batch : *loader)
    averageGradients(pg, grads);
}
// CHECK-NOTES: :[[@LINE-2]]:5: warning: 'allreduce' in 'averageGradients' is called once per batch, and ranks get different numbers of batches from '*loader' [ddp-sampler-drop-last]
// CHECK-NOTES: :[[@LINE-4]]:22: note: the length of this range depends on the rank
// CHECK-NOTES: :[[@LINE-6]]:17: note: 'loader' is set from 'make_data_loader(shard, DataLoaderOptions().b...' here
// CHECK-NOTES: :[[@LINE-8]]:9: note: 'shard' is set from 'shard("train-" + std::to_string(pg->getRank()...' here
// CHECK-NOTES: :[[@LINE-39]]:3: note: 'averageGradients' calls 'allreduce' here
// CHECK-NOTES: :[[@LINE-9]]:17: note: the loader's default sampler walks all of this rank's dataset, whose size depends on the rank; share one dataset and pass 'DistributedRandomSampler(size, world_size, rank)', or make every rank run the same number of steps: an allreduce with MIN of the local number of batches, then stop there

// The positive: a strided share with the allreduce inside.
void stridedShare(const PG &pg, std::vector<at::Tensor> &grads, size_t n) {
  size_t rank = pg->getRank(), world = pg->getSize();
  for (size_t i = rank; i < n; i += world) {
    // ... the work on item i ...
    pg->allreduce(grads)->wait();
  }
}
// CHECK-NOTES: :[[@LINE-3]]:9: warning: 'allreduce' is called once per item of this rank's share, and the shares differ in size: 'i' starts at 'rank' and steps over the items while 'i < n' [ddp-sampler-drop-last]
// CHECK-NOTES: :[[@LINE-6]]:25: note: this loop condition depends on the rank
// CHECK-NOTES: :[[@LINE-7]]:19: note: 'i' is set from 'rank' here
// CHECK-NOTES: :[[@LINE-9]]:17: note: 'rank' is set from 'pg->getRank()' here
// CHECK-NOTES: :[[@LINE-9]]:3: note: run the same number of iterations on every rank (the largest share, or the smallest) and skip the work past the end of this rank's share, not the collective

// A distributed sampler built for one replica.
void samplerWithoutWorld(const PG &pg, Shard &all) {
  samplers::DistributedRandomSampler sampler(all.size().value());
}
// CHECK-NOTES: :[[@LINE-2]]:38: warning: 'DistributedRandomSampler' is built without the world size and the rank: every rank reads the whole dataset instead of its own share [ddp-sampler-drop-last]
// CHECK-NOTES: :[[@LINE-3]]:38: note: pass them: 'DistributedRandomSampler(size, world_size, rank)'

// The data-dependent example, and its fix.
void skipNonFinite(const PG &pg, std::vector<at::Tensor> &grads,
                   const torch::Tensor &loss) {
  if (!std::isfinite(loss.item<float>()))
    return;
  pg->allreduce(grads)->wait();
}
// CHECK-NOTES: :[[@LINE-2]]:7: warning: 'allreduce' is skipped by ranks that leave early when '!std::isfinite(loss.item<float>())' [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-5]]:7: note: this condition depends on data local to each rank
// CHECK-NOTES: :[[@LINE-6]]:22: note: 'loss.item<float>()' is computed from this rank's own data
// CHECK-NOTES: :[[@LINE-6]]:5: note: ranks where '!std::isfinite(loss.item<float>())' leave here (return) and never reach 'allreduce'

void skipNonFiniteTogether(const PG &pg, std::vector<at::Tensor> &grads,
                           const torch::Tensor &loss) {
  std::vector<at::Tensor> flag{loss.isfinite().logical_not().to(torch::kFloat)};
  c10d::AllreduceOptions anyRank;
  anyRank.reduceOp = c10d::ReduceOp::MAX;
  pg->allreduce(flag, anyRank)->wait();
  if (flag[0].item<float>() > 0)
    return;
  pg->allreduce(grads)->wait();
}
