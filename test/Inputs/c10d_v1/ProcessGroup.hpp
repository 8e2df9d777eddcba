// Mock of the LibTorch 1.x (up to 1.12) c10d API, where Work is nested in
// ProcessGroup and collectives return std::shared_ptr<ProcessGroup::Work>.
#pragma once
#include <memory>
#include <vector>

namespace at {
class Tensor {
public:
  template <class T> T item() const;
};
} // namespace at

namespace c10d {
struct AllreduceOptions {};
struct BarrierOptions {};
class ProcessGroup {
public:
  class Work {
  public:
    bool wait();
  };
  int getRank() const;
  int getSize() const;
  virtual std::shared_ptr<Work>
  allreduce(std::vector<at::Tensor> &tensors,
            const AllreduceOptions &opts = AllreduceOptions());
  virtual std::shared_ptr<Work>
  barrier(const BarrierOptions &opts = BarrierOptions());
};
class ProcessGroupMPI : public ProcessGroup {
public:
  static std::shared_ptr<ProcessGroupMPI> createProcessGroupMPI();
};
} // namespace c10d
