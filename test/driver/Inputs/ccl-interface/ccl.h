#pragma once
#include <cstddef>
#include <memory>

// A training framework's collective interface: the loop only sees this
// class; the NCCL implementation is in nccl_impl.cpp.
namespace fw {

class CclImpl {
public:
  virtual ~CclImpl() = default;
  virtual void AllReduce(float *buf, size_t count) = 0;
  virtual void Broadcast(float *buf, size_t count, int root) = 0;
  // Profiling marks: no implementation communicates.
  virtual void RecordEvent(const char *name) = 0;
};

std::unique_ptr<CclImpl> MakeNcclImpl(int rank, int world);

} // namespace fw
