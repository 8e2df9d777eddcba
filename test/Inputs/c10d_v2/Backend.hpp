// Mock of the LibTorch 2.x c10d API: collectives on c10d::Backend
// subclasses, c10d::ops free functions, and torch::cuda::nccl.
#pragma once
#include <cstdint>
#include <vector>

namespace c10 {
template <class T> class intrusive_ptr {
public:
  T *operator->() const;
};
enum class DeviceType { CPU, CUDA };
} // namespace c10

namespace at {
class Tensor {};
} // namespace at

namespace c10d {
class Work {
public:
  bool wait();
};
struct AllreduceOptions {};
struct BroadcastOptions {};
struct BarrierOptions {};
class Backend {
public:
  int getRank() const;
  int getSize() const;
  virtual c10::intrusive_ptr<Work>
  allreduce(std::vector<at::Tensor> &tensors,
            const AllreduceOptions &opts = AllreduceOptions());
  virtual c10::intrusive_ptr<Work>
  barrier(const BarrierOptions &opts = BarrierOptions());
};
class ProcessGroupNCCL : public Backend {};
struct AllgatherOptions {};
// The process group dispatches to a backend per device.
class ProcessGroup {
public:
  int getRank() const;
  int getSize() const;
  c10::intrusive_ptr<Backend> getBackend(c10::DeviceType device);
  virtual c10::intrusive_ptr<Work>
  allreduce(std::vector<at::Tensor> &tensors,
            const AllreduceOptions &opts = AllreduceOptions());
  virtual c10::intrusive_ptr<Work>
  barrier(const BarrierOptions &opts = BarrierOptions());
  virtual c10::intrusive_ptr<Work>
  allgather_into_tensor_coalesced(std::vector<at::Tensor> &outputs,
                                  std::vector<at::Tensor> &inputs,
                                  const AllgatherOptions &opts = {});
};
namespace ops {
c10::intrusive_ptr<Work>
broadcast(const c10::intrusive_ptr<ProcessGroup> &process_group,
          std::vector<at::Tensor> &tensors,
          const BroadcastOptions &opts = {});
c10::intrusive_ptr<Work>
allreduce(const c10::intrusive_ptr<ProcessGroup> &process_group,
          std::vector<at::Tensor> &tensors, const AllreduceOptions &opts = {});
} // namespace ops
} // namespace c10d

namespace torch::cuda::nccl {
void all_reduce(const std::vector<at::Tensor> &inputs,
                std::vector<at::Tensor> &outputs, int32_t op = 0);
} // namespace torch::cuda::nccl
