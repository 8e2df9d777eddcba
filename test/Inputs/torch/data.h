// Mock of the parts of LibTorch's data API (torch/data.h) that ddp-lint's
// tests use: the names and signatures of LibTorch 1.13, without the bodies.
// The real headers are exercised by test/checks/sampler-drop-last-real.cpp.
#pragma once
#include <c10d/ProcessGroup.hpp>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace c10 {
using std::nullopt;
using std::optional;
} // namespace c10

namespace torch {
namespace data {

template <typename Data = at::Tensor, typename Target = at::Tensor>
struct Example {
  Data data;
  Target target;
};

struct DataLoaderOptions {
  DataLoaderOptions() = default;
  DataLoaderOptions &batch_size(size_t n);
  DataLoaderOptions &workers(size_t n);
  DataLoaderOptions &drop_last(bool d);
};

namespace samplers {
template <typename BatchRequest = std::vector<size_t>> class Sampler {
public:
  virtual ~Sampler() = default;
  virtual void reset(c10::optional<size_t> new_size) = 0;
  virtual c10::optional<BatchRequest> next(size_t batch_size) = 0;
};

class RandomSampler : public Sampler<> {
public:
  explicit RandomSampler(int64_t size);
  void reset(c10::optional<size_t> new_size = c10::nullopt) override;
  c10::optional<std::vector<size_t>> next(size_t batch_size) override;
};

class SequentialSampler : public Sampler<> {
public:
  explicit SequentialSampler(size_t size);
  void reset(c10::optional<size_t> new_size = c10::nullopt) override;
  c10::optional<std::vector<size_t>> next(size_t batch_size) override;
};

template <typename BatchRequest = std::vector<size_t>>
class DistributedSampler : public Sampler<BatchRequest> {
public:
  DistributedSampler(size_t size, size_t num_replicas = 1, size_t rank = 0,
                     bool allow_duplicates = true);
  void set_epoch(size_t epoch);
};

class DistributedRandomSampler : public DistributedSampler<> {
public:
  DistributedRandomSampler(size_t size, size_t num_replicas = 1,
                           size_t rank = 0, bool allow_duplicates = true);
  void reset(c10::optional<size_t> new_size = c10::nullopt) override;
  c10::optional<std::vector<size_t>> next(size_t batch_size) override;
};

class DistributedSequentialSampler : public DistributedSampler<> {
public:
  DistributedSequentialSampler(size_t size, size_t num_replicas = 1,
                               size_t rank = 0, bool allow_duplicates = true);
  void reset(c10::optional<size_t> new_size = c10::nullopt) override;
  c10::optional<std::vector<size_t>> next(size_t batch_size) override;
};
} // namespace samplers

namespace datasets {
template <typename Self, typename SingleExample = Example<>> class Dataset {
public:
  static constexpr bool is_stateful = false;
  using ExampleType = SingleExample;
  virtual ~Dataset() = default;
  virtual c10::optional<size_t> size() const = 0;
};

template <typename Self, typename Batch = std::vector<Example<>>>
class StatefulDataset {
public:
  static constexpr bool is_stateful = true;
  using BatchType = Batch;
  virtual ~StatefulDataset() = default;
  virtual c10::optional<Batch> get_batch(size_t batch_size) = 0;
  virtual c10::optional<size_t> size() const = 0;
  virtual void reset() = 0;
};

template <typename ExampleType = Example<>,
          typename ChunkType = std::vector<ExampleType>>
class ChunkDataReader {
public:
  virtual ~ChunkDataReader() = default;
  virtual ChunkType read_chunk(size_t chunk_index) = 0;
  virtual size_t chunk_count() = 0;
  virtual void reset() = 0;
};

struct ChunkDatasetOptions {
  ChunkDatasetOptions(size_t preloader_count, size_t batch_size,
                      size_t cache_size = 2048, size_t cross_chunk_shuffle = 1);
};

template <typename ChunkReader, typename ChunkSampler = samplers::RandomSampler,
          typename ExampleSampler = samplers::RandomSampler>
class ChunkDataset final
    : public StatefulDataset<
          ChunkDataset<ChunkReader, ChunkSampler, ExampleSampler>> {
public:
  ChunkDataset(ChunkReader chunk_reader, ChunkSampler chunk_sampler,
               ExampleSampler example_sampler, ChunkDatasetOptions options);
  c10::optional<std::vector<Example<>>> get_batch(size_t batch_size) override;
  c10::optional<size_t> size() const override;
  void reset() override;
};

template <typename UnderlyingDataset> class SharedBatchDataset {
public:
  static constexpr bool is_stateful = UnderlyingDataset::is_stateful;
  c10::optional<size_t> size() const;
};

template <typename UnderlyingDataset, typename... Args>
SharedBatchDataset<UnderlyingDataset> make_shared_dataset(Args &&...args);
} // namespace datasets

template <typename Batch> class Iterator {
public:
  Batch &operator*();
  Iterator &operator++();
  bool operator!=(const Iterator &other) const;
  bool operator==(const Iterator &other) const;
};

template <typename Dataset, typename Batch, typename BatchRequest>
class DataLoaderBase {
public:
  virtual ~DataLoaderBase() = default;
  Iterator<Batch> begin();
  Iterator<Batch> end();
  c10::optional<Batch> next();
};

template <typename Dataset, typename Sampler>
class StatelessDataLoader
    : public DataLoaderBase<Dataset, std::vector<Example<>>,
                            std::vector<size_t>> {
public:
  StatelessDataLoader(Dataset dataset, Sampler sampler,
                      DataLoaderOptions options);
};

template <typename Dataset>
class StatefulDataLoader
    : public DataLoaderBase<Dataset, std::vector<Example<>>, size_t> {
public:
  StatefulDataLoader(Dataset dataset, DataLoaderOptions options);
};

template <typename Dataset, typename Sampler>
std::enable_if_t<!Dataset::is_stateful,
                 std::unique_ptr<StatelessDataLoader<Dataset, Sampler>>>
make_data_loader(Dataset dataset, Sampler sampler, DataLoaderOptions options);

template <typename Sampler = samplers::RandomSampler, typename Dataset>
std::enable_if_t<!Dataset::is_stateful &&
                     std::is_constructible<Sampler, size_t>::value,
                 std::unique_ptr<StatelessDataLoader<Dataset, Sampler>>>
make_data_loader(Dataset dataset,
                 DataLoaderOptions options = DataLoaderOptions());

template <typename Dataset,
          typename = std::enable_if_t<Dataset::is_stateful>>
std::unique_ptr<StatefulDataLoader<Dataset>>
make_data_loader(Dataset dataset,
                 DataLoaderOptions options = DataLoaderOptions());

} // namespace data
} // namespace torch
