// RUN: %check_ddp_tidy %s ddp-sampler-drop-last %t -- -- %mock_flags

// Data loading that gives ranks different numbers of batches while every
// batch issues a collective; distributed samplers built without the world
// size and the rank. LibTorch's DistributedRandomSampler and
// DistributedSequentialSampler pad (or truncate) to the same count on every
// rank, so a loader over them is safe when their size is the same on every
// rank. sampler-drop-last-real.cpp runs the same kind of code on the real
// LibTorch headers.

#include <c10d/ProcessGroup.hpp>
#include <torch/data.h>

#include <string>

using Tensors = std::vector<at::Tensor>;
namespace samplers = torch::data::samplers;
using torch::data::DataLoaderOptions;
using torch::data::make_data_loader;

struct Shard : torch::data::datasets::Dataset<Shard> {
  explicit Shard(std::string path);
  c10::optional<size_t> size() const override;
};

void syncGradients(c10d::ProcessGroup *pg, Tensors &grads) {
  pg->allreduce(grads)->wait();
}

//===----------------------------------------------------------------------===//
// Loaders over data whose size depends on the rank.
//===----------------------------------------------------------------------===//

// Each rank reads its own file; the default sampler walks all of it.
void defaultSamplerOverOwnFile(c10d::ProcessGroup *pg, Tensors &grads) {
  int rank = pg->getRank();
  Shard shard("train-" + std::to_string(rank) + ".bin");
  auto loader = make_data_loader(shard, DataLoaderOptions().batch_size(32));
  for (auto &batch : *loader)
    syncGradients(pg, grads);
}
// CHECK-NOTES: :[[@LINE-2]]:5: warning: 'allreduce' in 'syncGradients' is called once per batch, and ranks get different numbers of batches from '*loader' [ddp-sampler-drop-last]
// CHECK-NOTES: :[[@LINE-4]]:22: note: the length of this range depends on the rank
// CHECK-NOTES: :[[@LINE-6]]:17: note: 'loader' is set from 'make_data_loader(shard, DataLoaderOptions().b...' here
// CHECK-NOTES: :[[@LINE-8]]:9: note: 'shard' is set from 'shard("train-" + std::to_string(rank) + ".bin")' here
// CHECK-NOTES: :[[@LINE-10]]:14: note: 'rank' is set from 'pg->getRank()' here
// CHECK-NOTES: :[[@LINE-20]]:3: note: 'syncGradients' calls 'allreduce' here
// CHECK-NOTES: :[[@LINE-10]]:17: note: the loader's default sampler walks all of this rank's dataset, whose size depends on the rank; share one dataset and pass 'DistributedRandomSampler(size, world_size, rank)', or make every rank run the same number of steps: an allreduce with MIN of the local number of batches, then stop there

// An explicit RandomSampler over the rank's own data; drop_last(true) only
// drops a partial last batch and cannot even out the shards.
void randomSamplerOverOwnFile(c10d::ProcessGroup *pg, Tensors &grads) {
  Shard shard("train-" + std::to_string(pg->getRank()) + ".bin");
  auto loader = make_data_loader(
      shard, samplers::RandomSampler(shard.size().value()),
      DataLoaderOptions().batch_size(32).drop_last(true));
  for (auto &batch : *loader)
    pg->allreduce(grads)->wait();
}
// CHECK-NOTES: :[[@LINE-2]]:9: warning: 'allreduce' is called once per batch, and ranks get different numbers of batches from '*loader' [ddp-sampler-drop-last]
// CHECK-NOTES: :[[@LINE-4]]:22: note: the length of this range depends on the rank
// CHECK-NOTES: :[[@LINE-8]]:17: note: 'loader' is set from 'make_data_loader( shard, samplers::RandomSamp...' here
// CHECK-NOTES: :[[@LINE-10]]:9: note: 'shard' is set from 'shard("train-" + std::to_string(pg->getRank()...' here
// CHECK-NOTES: :[[@LINE-9]]:14: note: 'RandomSampler' yields every index of this rank's own data; share one dataset and use 'DistributedRandomSampler(size, world_size, rank)', which gives every rank the same number of batches, or make every rank run the same number of steps: an allreduce with MIN of the local number of batches, then stop there

// A distributed sampler evens out the shares only of one size: here the size
// is the rank's own file's.
void distributedSamplerOverOwnFile(c10d::ProcessGroup *pg, Tensors &grads) {
  int rank = pg->getRank(), world = pg->getSize();
  Shard shard("train-" + std::to_string(rank) + ".bin");
  samplers::DistributedRandomSampler sampler(shard.size().value(), world, rank);
  auto loader =
      make_data_loader(shard, sampler, DataLoaderOptions().batch_size(32));
  for (auto &batch : *loader)
    pg->allreduce(grads)->wait();
}
// CHECK-NOTES: :[[@LINE-2]]:9: warning: 'allreduce' is called once per batch, and ranks get different numbers of batches from '*loader' [ddp-sampler-drop-last]
// CHECK-NOTES: :[[@LINE-4]]:22: note: the length of this range depends on the rank
// CHECK-NOTES: :[[@LINE-6]]:7: note: 'loader' is set from 'make_data_loader(shard, sampler, DataLoaderOp...' here
// CHECK-NOTES: :[[@LINE-9]]:38: note: 'sampler' is set from 'sampler(shard.size().value(), world, rank)' here
// CHECK-NOTES: :[[@LINE-11]]:9: note: 'shard' is set from 'shard("train-" + std::to_string(rank) + ".bin")' here
// CHECK-NOTES: :[[@LINE-13]]:14: note: 'rank' is set from 'pg->getRank()' here
// CHECK-NOTES: :[[@LINE-12]]:38: note: 'DistributedRandomSampler' gives every rank the same number of batches only if its size is the same on every rank: build it over one dataset that all ranks share, or make every rank run the same number of steps: an allreduce with MIN of the local number of batches, then stop there

// The batch size depends on the rank: so does the number of batches.
void batchSizeFromRank(c10d::ProcessGroup *pg, Tensors &grads, Shard &all) {
  int rank = pg->getRank(), world = pg->getSize();
  auto loader = make_data_loader(
      all, samplers::DistributedRandomSampler(all.size().value(), world, rank),
      DataLoaderOptions().batch_size(16 * (rank + 1)));
  for (auto &batch : *loader)
    pg->allreduce(grads)->wait();
}
// CHECK-NOTES: :[[@LINE-2]]:9: warning: 'allreduce' is called once per batch, and ranks get different numbers of batches from '*loader' [ddp-sampler-drop-last]
// CHECK-NOTES: :[[@LINE-4]]:22: note: the length of this range depends on the rank
// CHECK-NOTES: :[[@LINE-8]]:17: note: 'loader' is set from 'make_data_loader( all, samplers::DistributedR...' here
// CHECK-NOTES: :[[@LINE-10]]:14: note: 'rank' is set from 'pg->getRank()' here
// CHECK-NOTES: :[[@LINE-9]]:12: note: 'DistributedRandomSampler' gives every rank the same number of batches only if its size is the same on every rank: build it over one dataset that all ranks share, or make every rank run the same number of steps: an allreduce with MIN of the local number of batches, then stop there

// Taking batches one by one with next().
void nextBatchOverOwnFile(c10d::ProcessGroup *pg, Tensors &grads) {
  Shard shard("train-" + std::to_string(pg->getRank()) + ".bin");
  auto loader = make_data_loader(shard, DataLoaderOptions().batch_size(8));
  while (auto batch = loader->next())
    pg->allreduce(grads)->wait();
}
// CHECK-NOTES: :[[@LINE-2]]:9: warning: 'allreduce' is called once per batch, and ranks get different numbers of batches from 'loader' [ddp-sampler-drop-last]
// CHECK-NOTES: :[[@LINE-4]]:15: note: this loop condition depends on the rank
// CHECK-NOTES: :[[@LINE-5]]:23: note: 'batch' is set from 'loader->next()' here
// CHECK-NOTES: :[[@LINE-7]]:17: note: 'loader' is set from 'make_data_loader(shard, DataLoaderOptions().b...' here
// CHECK-NOTES: :[[@LINE-9]]:9: note: 'shard' is set from 'shard("train-" + std::to_string(pg->getRank()...' here
// CHECK-NOTES: :[[@LINE-9]]:17: note: the loader's default sampler walks all of this rank's dataset, whose size depends on the rank; share one dataset and pass 'DistributedRandomSampler(size, world_size, rank)', or make every rank run the same number of steps: an allreduce with MIN of the local number of batches, then stop there

// Iterators from begin() and end().
void iteratorsOverOwnFile(c10d::ProcessGroup *pg, Tensors &grads) {
  Shard shard("train-" + std::to_string(pg->getRank()) + ".bin");
  auto loader = make_data_loader(shard, DataLoaderOptions().batch_size(8));
  for (auto it = loader->begin(); it != loader->end(); ++it)
    pg->allreduce(grads)->wait();
}
// CHECK-NOTES: :[[@LINE-2]]:9: warning: 'allreduce' is called once per batch, and ranks get different numbers of batches from 'loader' [ddp-sampler-drop-last]
// CHECK-NOTES: :[[@LINE-4]]:35: note: this loop condition depends on the rank
// CHECK-NOTES: :[[@LINE-5]]:18: note: 'it' is set from 'loader->begin()' here
// CHECK-NOTES: :[[@LINE-7]]:17: note: 'loader' is set from 'make_data_loader(shard, DataLoaderOptions().b...' here
// CHECK-NOTES: :[[@LINE-9]]:9: note: 'shard' is set from 'shard("train-" + std::to_string(pg->getRank()...' here
// CHECK-NOTES: :[[@LINE-9]]:17: note: the loader's default sampler walks all of this rank's dataset, whose size depends on the rank; share one dataset and pass 'DistributedRandomSampler(size, world_size, rank)', or make every rank run the same number of steps: an allreduce with MIN of the local number of batches, then stop there

// A barrier per batch: this check reports it, not ddp-rank-gated-barrier.
void barrierPerBatch(c10d::ProcessGroup *pg) {
  Shard shard("val-" + std::to_string(pg->getRank()) + ".bin");
  auto loader = make_data_loader(shard, DataLoaderOptions());
  for (auto &batch : *loader)
    pg->barrier()->wait();
}
// CHECK-NOTES: :[[@LINE-2]]:9: warning: 'barrier' is called once per batch, and ranks get different numbers of batches from '*loader' [ddp-sampler-drop-last]
// CHECK-NOTES: :[[@LINE-4]]:22: note: the length of this range depends on the rank
// CHECK-NOTES: :[[@LINE-6]]:17: note: 'loader' is set from 'make_data_loader(shard, DataLoaderOptions())' here
// CHECK-NOTES: :[[@LINE-8]]:9: note: 'shard' is set from 'shard("val-" + std::to_string(pg->getRank()) ...' here
// CHECK-NOTES: :[[@LINE-8]]:17: note: the loader's default sampler walks all of this rank's dataset, whose size depends on the rank; share one dataset and pass 'DistributedRandomSampler(size, world_size, rank)', or make every rank run the same number of steps: an allreduce with MIN of the local number of batches, then stop there

//===----------------------------------------------------------------------===//
// Chunk datasets: ranks read different chunks, which can differ in size.
//===----------------------------------------------------------------------===//

struct Reader : torch::data::datasets::ChunkDataReader<> {
  std::vector<torch::data::Example<>> read_chunk(size_t index) override;
  size_t chunk_count() override;
  void reset() override;
};
using Chunks = torch::data::datasets::ChunkDataset<
    Reader, samplers::DistributedRandomSampler, samplers::RandomSampler>;

void chunksSplitByRank(c10d::ProcessGroup *pg, Tensors &grads, Reader reader) {
  int rank = pg->getRank(), world = pg->getSize();
  samplers::DistributedRandomSampler chunkSampler(reader.chunk_count(), world,
                                                  rank);
  Chunks chunks(reader, chunkSampler, samplers::RandomSampler(0),
                torch::data::datasets::ChunkDatasetOptions(2, 32));
  auto loader = make_data_loader(std::move(chunks), DataLoaderOptions());
  for (auto &batch : *loader)
    pg->allreduce(grads)->wait();
}
// CHECK-NOTES: :[[@LINE-2]]:9: warning: 'allreduce' is called once per batch, and ranks get different numbers of batches from '*loader' [ddp-sampler-drop-last]
// CHECK-NOTES: :[[@LINE-4]]:22: note: the length of this range depends on the rank
// CHECK-NOTES: :[[@LINE-6]]:17: note: 'loader' is set from 'make_data_loader(std::move(chunks), DataLoade...' here
// CHECK-NOTES: :[[@LINE-9]]:10: note: 'chunks' is set from 'chunks(reader, chunkSampler, samplers::Random...' here
// CHECK-NOTES: :[[@LINE-10]]:25: note: each rank reads its own chunks through 'chunkSampler', and chunks can differ in size
// CHECK-NOTES: :[[@LINE-14]]:14: note: 'rank' is set from 'pg->getRank()' here
// CHECK-NOTES: :[[@LINE-10]]:17: note: no sampler can even out chunks of different sizes: make every rank run the same number of steps (an allreduce with MIN of the local number of batches, or a fixed step count)

// The same through make_shared_dataset.
void sharedChunksSplitByRank(c10d::ProcessGroup *pg, Tensors &grads,
                             Reader reader) {
  int rank = pg->getRank(), world = pg->getSize();
  auto chunks = torch::data::datasets::make_shared_dataset<Chunks>(
      reader, samplers::DistributedRandomSampler(reader.chunk_count(), world, rank),
      samplers::RandomSampler(0),
      torch::data::datasets::ChunkDatasetOptions(2, 32));
  auto loader = make_data_loader(chunks, DataLoaderOptions());
  for (auto &batch : *loader)
    pg->allreduce(grads)->wait();
}
// CHECK-NOTES: :[[@LINE-2]]:9: warning: 'allreduce' is called once per batch, and ranks get different numbers of batches from '*loader' [ddp-sampler-drop-last]
// CHECK-NOTES: :[[@LINE-4]]:22: note: the length of this range depends on the rank
// CHECK-NOTES: :[[@LINE-6]]:17: note: 'loader' is set from 'make_data_loader(chunks, DataLoaderOptions())' here
// CHECK-NOTES: :[[@LINE-11]]:17: note: 'chunks' is set from 'torch::data::datasets::make_shared_dataset<Ch...' here
// CHECK-NOTES: :[[@LINE-11]]:15: note: each rank reads its own chunks through 'samplers::DistributedRandomSampler(reader.chu...', and chunks can differ in size
// CHECK-NOTES: :[[@LINE-14]]:14: note: 'rank' is set from 'pg->getRank()' here
// CHECK-NOTES: :[[@LINE-10]]:17: note: no sampler can even out chunks of different sizes: make every rank run the same number of steps (an allreduce with MIN of the local number of batches, or a fixed step count)

//===----------------------------------------------------------------------===//
// Strided shards: rank r takes items r, r + world, ...
//===----------------------------------------------------------------------===//

void stridedShard(c10d::ProcessGroup *pg, Tensors &grads, size_t n) {
  size_t rank = pg->getRank(), world = pg->getSize();
  for (size_t i = rank; i < n; i += world)
    pg->allreduce(grads)->wait();
}
// CHECK-NOTES: :[[@LINE-2]]:9: warning: 'allreduce' is called once per item of this rank's share, and the shares differ in size: 'i' starts at 'rank' and steps over the items while 'i < n' [ddp-sampler-drop-last]
// CHECK-NOTES: :[[@LINE-4]]:25: note: this loop condition depends on the rank
// CHECK-NOTES: :[[@LINE-5]]:19: note: 'i' is set from 'rank' here
// CHECK-NOTES: :[[@LINE-7]]:17: note: 'rank' is set from 'pg->getRank()' here
// CHECK-NOTES: :[[@LINE-7]]:3: note: run the same number of iterations on every rank (the largest share, or the smallest) and skip the work past the end of this rank's share, not the collective

void stridedShardAssign(c10d::ProcessGroup *pg, Tensors &grads, int n) {
  for (int i = pg->getRank(); i < n; i = i + pg->getSize())
    syncGradients(pg, grads);
}
// CHECK-NOTES: :[[@LINE-2]]:5: warning: 'allreduce' in 'syncGradients' is called once per item of this rank's share, and the shares differ in size: 'i' starts at 'pg->getRank()' and steps over the items while 'i < n' [ddp-sampler-drop-last]
// CHECK-NOTES: :[[@LINE-4]]:31: note: this loop condition depends on the rank
// CHECK-NOTES: :[[@LINE-5]]:42: note: 'i' is set from 'i + pg->getSize()' here
// CHECK-NOTES: :[[@LINE-6]]:16: note: 'i' is set from 'pg->getRank()' here
// CHECK-NOTES: :[[@LINE-187]]:3: note: 'syncGradients' calls 'allreduce' here
// CHECK-NOTES: :[[@LINE-8]]:3: note: run the same number of iterations on every rank (the largest share, or the smallest) and skip the work past the end of this rank's share, not the collective

//===----------------------------------------------------------------------===//
// Distributed samplers built without the world size and the rank.
//===----------------------------------------------------------------------===//

void samplerWithoutWorld(Shard &all, int rank, int world_size) {
  auto loader = make_data_loader(
      all, samplers::DistributedRandomSampler(all.size().value()),
      DataLoaderOptions());
}
// CHECK-NOTES: :[[@LINE-3]]:12: warning: 'DistributedRandomSampler' is built without the world size and the rank: every rank reads the whole dataset instead of its own share [ddp-sampler-drop-last]
// CHECK-FIXES: {{^}}      all, samplers::DistributedRandomSampler(all.size().value(), world_size, rank),{{$}}

void samplerWithoutRank(Shard &all, size_t rank, size_t nranks) {
  samplers::DistributedSequentialSampler sampler(all.size().value(), nranks);
}
// CHECK-NOTES: :[[@LINE-2]]:42: warning: 'DistributedSequentialSampler' is built without the rank: every rank reads the share of rank 0 [ddp-sampler-drop-last]
// CHECK-FIXES: {{^}}  samplers::DistributedSequentialSampler sampler(all.size().value(), nranks, rank);{{$}}

// No variable holds the rank here: no fix-it, a note says what to pass.
void samplerWithoutAnything(Shard &all) {
  samplers::DistributedRandomSampler sampler(all.size().value());
}
// CHECK-NOTES: :[[@LINE-2]]:38: warning: 'DistributedRandomSampler' is built without the world size and the rank: every rank reads the whole dataset instead of its own share [ddp-sampler-drop-last]
// CHECK-NOTES: :[[@LINE-3]]:38: note: pass them: 'DistributedRandomSampler(size, world_size, rank)'

void defaultDistributedSampler(Shard &all) {
  auto loader = make_data_loader<samplers::DistributedRandomSampler>(
      all, DataLoaderOptions().batch_size(32));
}
// CHECK-NOTES: :[[@LINE-3]]:17: warning: 'make_data_loader' builds its 'DistributedRandomSampler' from the dataset's size alone, without the world size and the rank: every rank reads the whole dataset instead of its own share [ddp-sampler-drop-last]
// CHECK-NOTES: :[[@LINE-4]]:17: note: pass the sampler instead: 'make_data_loader(dataset, DistributedRandomSampler(size, world_size, rank), options)'

//===----------------------------------------------------------------------===//
// A custom sampler whose share ends at a rank-dependent point.
//===----------------------------------------------------------------------===//

class StridedSampler : public samplers::Sampler<> {
public:
  StridedSampler(size_t size, size_t world, size_t rank)
      : size_(size), world_(world), rank_(rank) {}
  void reset(c10::optional<size_t> size) override {
    if (size)
      size_ = *size;
    next_ = rank_;
  }
  c10::optional<std::vector<size_t>> next(size_t batch) override {
    if (next_ >= size_)
      return c10::nullopt;
    std::vector<size_t> indices;
    for (; next_ < size_ && indices.size() < batch; next_ += world_)
      indices.push_back(next_);
    return indices;
  }

private:
  size_t size_, world_, rank_, next_ = 0;
};
// CHECK-NOTES: :[[@LINE-10]]:7: warning: sampler 'StridedSampler' runs out after a rank-dependent number of batches: ranks leave the training loop at different steps [ddp-sampler-drop-last]
// CHECK-NOTES: :[[@LINE-15]]:13: note: 'next_' is set from 'rank_' here
// CHECK-NOTES: :[[@LINE-20]]:43: note: 'rank_' is set from 'rank' here
// CHECK-NOTES: :[[@LINE-22]]:52: note: 'rank' is taken to hold the rank because of its name; its value is set outside the code analysed
// CHECK-NOTES: :[[@LINE-14]]:7: note: give every rank the same number of indices, padding or truncating its share as 'DistributedRandomSampler' does

//===----------------------------------------------------------------------===//
// Silent.
//===----------------------------------------------------------------------===//

// The distributed sampler over one shared dataset: the same number of
// batches on every rank (padded), whichever batches they are.
void distributedSamplerOverSharedData(c10d::ProcessGroup *pg, Tensors &grads) {
  int rank = pg->getRank(), world = pg->getSize();
  Shard all("train.bin");
  auto loader = make_data_loader(
      all, samplers::DistributedRandomSampler(all.size().value(), world, rank),
      DataLoaderOptions().batch_size(32));
  for (auto &batch : *loader)
    pg->allreduce(grads)->wait();
}

// Truncating (allow_duplicates = false) is as even as padding.
void truncatingSequentialSampler(c10d::ProcessGroup *pg, Tensors &grads,
                                 Shard &all) {
  samplers::DistributedSequentialSampler sampler(
      all.size().value(), pg->getSize(), pg->getRank(),
      /*allow_duplicates=*/false);
  auto loader = make_data_loader(all, sampler, DataLoaderOptions());
  for (auto &batch : *loader)
    pg->allreduce(grads)->wait();
}

// Per-rank files, but the sampler's size is a count every rank shares.
void sharedCountOverOwnFile(c10d::ProcessGroup *pg, Tensors &grads,
                            size_t samplesPerRank) {
  int rank = pg->getRank(), world = pg->getSize();
  Shard shard("train-" + std::to_string(rank) + ".bin");
  auto loader = make_data_loader(
      shard, samplers::SequentialSampler(samplesPerRank), DataLoaderOptions());
  for (auto &batch : *loader)
    pg->allreduce(grads)->wait();
}

// Every rank reads the whole shared dataset: the same count everywhere.
void wholeSharedDataset(c10d::ProcessGroup *pg, Tensors &grads) {
  Shard all("train.bin");
  auto loader = make_data_loader(all, DataLoaderOptions().batch_size(32));
  for (auto &batch : *loader)
    pg->allreduce(grads)->wait();
}

// A loop over the rank's own data that issues no collective.
float localEvaluation(c10d::ProcessGroup *pg) {
  Shard shard("val-" + std::to_string(pg->getRank()) + ".bin");
  auto loader = make_data_loader(shard, DataLoaderOptions());
  float batches = 0;
  for (auto &batch : *loader)
    batches += 1;
  return batches;
}

// The number of steps was agreed on first: an allreduce with MIN.
void agreedStepCount(c10d::ProcessGroup *pg, Tensors &grads) {
  Shard shard("train-" + std::to_string(pg->getRank()) + ".bin");
  Tensors count{at::ones({1})};
  pg->allreduce(count, c10d::AllreduceOptions{c10d::ReduceOp::MIN})->wait();
  int steps = count[0].item<int>();
  auto loader = make_data_loader(shard, DataLoaderOptions());
  auto it = loader->begin();
  for (int step = 0; step < steps; ++step, ++it)
    pg->allreduce(grads)->wait();
}

// A fixed number of steps; the rank only picks the items.
void fixedStepsRankIndexing(c10d::ProcessGroup *pg, Tensors &grads, int steps) {
  int rank = pg->getRank(), world = pg->getSize();
  for (int step = 0; step < steps; ++step) {
    int item = step * world + rank;
    (void)item;
    pg->allreduce(grads)->wait();
  }
}

// A strided share with no collective in it.
float stridedLocalSum(c10d::ProcessGroup *pg, const std::vector<float> &xs) {
  float sum = 0;
  for (size_t i = pg->getRank(); i < xs.size(); i += pg->getSize())
    sum += xs[i];
  return sum;
}

// A stride from a constant start is the same on every rank.
void strideFromZero(c10d::ProcessGroup *pg, Tensors &grads, int n, int world) {
  for (int i = 0; i < n; i += world)
    pg->allreduce(grads)->wait();
}

// The shared count is padded: every rank runs ceil(n / world) iterations.
void paddedStride(c10d::ProcessGroup *pg, Tensors &grads, size_t n) {
  size_t rank = pg->getRank(), world = pg->getSize();
  for (size_t base = 0; base < n; base += world) {
    if (base + rank < n) {
      // work on item base + rank
    }
    pg->allreduce(grads)->wait();
  }
}

// A custom sampler that gives every rank ceil(size / world) indices.
class PaddedSampler : public samplers::Sampler<> {
public:
  PaddedSampler(size_t size, size_t world, size_t rank)
      : size_(size), world_(world), rank_(rank) {}
  void reset(c10::optional<size_t> size) override { taken_ = 0; }
  c10::optional<std::vector<size_t>> next(size_t batch) override {
    size_t share = (size_ + world_ - 1) / world_;
    if (taken_ >= share)
      return c10::nullopt;
    std::vector<size_t> indices;
    for (; taken_ < share && indices.size() < batch; ++taken_)
      indices.push_back((rank_ + taken_ * world_) % size_);
    return indices;
  }

private:
  size_t size_, world_, rank_, taken_ = 0;
};

// Every rank reads every chunk: the same batches everywhere.
void chunksNotSplit(c10d::ProcessGroup *pg, Tensors &grads, Reader reader) {
  using AllChunks = torch::data::datasets::ChunkDataset<
      Reader, samplers::SequentialSampler, samplers::RandomSampler>;
  AllChunks chunks(reader, samplers::SequentialSampler(reader.chunk_count()),
                   samplers::RandomSampler(0),
                   torch::data::datasets::ChunkDatasetOptions(2, 32));
  auto loader = make_data_loader(std::move(chunks), DataLoaderOptions());
  for (auto &batch : *loader)
    pg->allreduce(grads)->wait();
}
