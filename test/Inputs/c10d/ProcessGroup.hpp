// Mock of the parts of LibTorch's c10d API that ddp-lint's tests use. The
// real headers (Debian libtorch-dev) are exercised by test/checks/real-*.cpp.
#pragma once
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace c10 {
template <class T> class intrusive_ptr {
public:
  T *operator->() const { return Ptr; }
  T &operator*() const { return *Ptr; }
  explicit operator bool() const { return Ptr != nullptr; }

private:
  T *Ptr = nullptr;
};
template <class T, class... Args> intrusive_ptr<T> make_intrusive(Args &&...);
} // namespace c10

namespace at {
class Tensor {
public:
  void backward() const;
  template <class T> T item() const;
  Tensor operator+(const Tensor &) const;
  Tensor operator*(double) const;
  Tensor &div_(double);
  Tensor isnan() const;
  bool is_nonzero() const;
  Tensor detach() const;
  bool defined() const;
  const Tensor &grad() const;
  Tensor &mutable_grad() const;
};
Tensor ones(std::vector<int64_t> sizes);
Tensor zeros(std::vector<int64_t> sizes);
Tensor zeros_like(const Tensor &t);
} // namespace at

namespace torch {
using at::Tensor;
Tensor tensor(double value);
Tensor ones(std::vector<int64_t> sizes);
void save(const Tensor &t, const std::string &path);
void load(Tensor &t, const std::string &path);
namespace autograd {
void backward(const std::vector<Tensor> &tensors);
} // namespace autograd
} // namespace torch

namespace c10d {
class Work {
public:
  bool wait();
  bool isCompleted();
};

enum class ReduceOp { SUM, AVG, MIN, MAX };
struct BroadcastOptions { int64_t rootRank = 0; };
struct AllreduceOptions { ReduceOp reduceOp = ReduceOp::SUM; };
struct ReduceOptions { int64_t rootRank = 0; };
struct AllgatherOptions {};
struct GatherOptions { int64_t rootRank = 0; };
struct ScatterOptions { int64_t rootRank = 0; };
struct ReduceScatterOptions {};
struct AllToAllOptions {};
struct BarrierOptions {};

class ProcessGroup {
public:
  struct Options {
    std::chrono::milliseconds timeout;
  };
  virtual ~ProcessGroup();
  int getRank() const;
  int getSize() const;
  virtual c10::intrusive_ptr<Work>
  broadcast(std::vector<at::Tensor> &tensors,
            const BroadcastOptions &opts = BroadcastOptions());
  virtual c10::intrusive_ptr<Work>
  allreduce(std::vector<at::Tensor> &tensors,
            const AllreduceOptions &opts = AllreduceOptions());
  virtual c10::intrusive_ptr<Work>
  allreduce_coalesced(std::vector<at::Tensor> &tensors,
                      const AllreduceOptions &opts = AllreduceOptions());
  virtual c10::intrusive_ptr<Work>
  reduce(std::vector<at::Tensor> &tensors,
         const ReduceOptions &opts = ReduceOptions());
  virtual c10::intrusive_ptr<Work>
  allgather(std::vector<std::vector<at::Tensor>> &outputTensors,
            std::vector<at::Tensor> &inputTensors,
            const AllgatherOptions &opts = AllgatherOptions());
  virtual c10::intrusive_ptr<Work>
  _allgather_base(at::Tensor &outputBuffer, at::Tensor &inputBuffer,
                  const AllgatherOptions &opts = AllgatherOptions());
  virtual c10::intrusive_ptr<Work>
  gather(std::vector<std::vector<at::Tensor>> &outputTensors,
         std::vector<at::Tensor> &inputTensors,
         const GatherOptions &opts = GatherOptions());
  virtual c10::intrusive_ptr<Work>
  scatter(std::vector<at::Tensor> &outputTensors,
          std::vector<std::vector<at::Tensor>> &inputTensors,
          const ScatterOptions &opts = ScatterOptions());
  virtual c10::intrusive_ptr<Work>
  reduce_scatter(std::vector<at::Tensor> &outputTensors,
                 std::vector<std::vector<at::Tensor>> &inputTensors,
                 const ReduceScatterOptions &opts = ReduceScatterOptions());
  virtual c10::intrusive_ptr<Work>
  alltoall_base(at::Tensor &outputTensor, at::Tensor &inputTensor,
                std::vector<int64_t> &outputSplitSizes,
                std::vector<int64_t> &inputSplitSizes,
                const AllToAllOptions &opts = AllToAllOptions());
  virtual c10::intrusive_ptr<Work>
  barrier(const BarrierOptions &opts = BarrierOptions());
  virtual void monitoredBarrier(const BarrierOptions &opts = BarrierOptions(),
                                bool waitAllRanks = false);
  virtual c10::intrusive_ptr<Work> send(std::vector<at::Tensor> &tensors,
                                        int dstRank, int tag);
  virtual c10::intrusive_ptr<Work> recv(std::vector<at::Tensor> &tensors,
                                        int srcRank, int tag);
  virtual c10::intrusive_ptr<Work>
  recvAnysource(std::vector<at::Tensor> &tensors, int tag);
};

class Store {
public:
  virtual ~Store();
  virtual void set(const std::string &key, const std::vector<uint8_t> &value);
  virtual std::vector<uint8_t> get(const std::string &key);
};

class TCPStore : public Store {
public:
  TCPStore(std::string host, uint16_t port, int numWorkers, bool isServer);
};

class ProcessGroupGloo : public ProcessGroup {
public:
  struct Options {
    static c10::intrusive_ptr<Options> create();
  };
  ProcessGroupGloo(const c10::intrusive_ptr<Store> &store, int rank, int size,
                   c10::intrusive_ptr<Options> options);
};

class Reducer {
public:
  Reducer(std::vector<at::Tensor> params,
          c10::intrusive_ptr<ProcessGroup> process_group,
          bool find_unused_parameters);
  void prepare_for_backward(const std::vector<at::Tensor> &outputs);
};
} // namespace c10d
