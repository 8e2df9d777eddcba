#include "ccl.h"
#include <nccl.h>

namespace fw {
namespace {

class NcclImpl : public CclImpl {
public:
  NcclImpl(ncclComm_t comm, cudaStream_t stream) : comm_(comm), stream_(stream) {}
  void AllReduce(float *buf, size_t count) override {
    ncclAllReduce(buf, buf, count, ncclFloat, ncclSum, comm_, stream_);
  }
  void Broadcast(float *buf, size_t count, int root) override {
    ncclBroadcast(buf, buf, count, ncclFloat, root, comm_, stream_);
  }
  void RecordEvent(const char *name) override { last_event_ = name; }

private:
  ncclComm_t comm_;
  cudaStream_t stream_;
  const char *last_event_ = nullptr;
};

} // namespace

std::unique_ptr<CclImpl> MakeNcclImpl(int rank, int world) {
  ncclComm_t comm = nullptr;
  return std::make_unique<NcclImpl>(comm, nullptr);
}

} // namespace fw
