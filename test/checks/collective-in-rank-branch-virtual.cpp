// RUN: %check_ddp_tidy %s ddp-collective-in-rank-branch %t -- -- %mock_flags

// Without any option, a virtual call can run any override the TU defines: it
// issues the collectives of one of them. (ddp-lint links the overrides of
// every TU: test/driver/framework-interface.test.)

#include <cstddef>
#include <cstdlib>
#include <nccl.h>

namespace fw {
class CclImpl {
public:
  virtual ~CclImpl() = default;
  virtual void AllReduce(float *buf, size_t count) = 0;
  // Profiling marks: no override communicates.
  virtual void RecordEvent(const char *name) = 0;
  // A default body that does not communicate, and an override that does.
  virtual void Flush() {}
};

class NcclImpl : public CclImpl {
public:
  void AllReduce(float *buf, size_t count) override {
    ncclAllReduce(buf, buf, count, ncclFloat, ncclSum, comm_, stream_);
  }
  void RecordEvent(const char *name) override { last_ = name; }
  void Flush() override {
    ncclAllReduce(nullptr, nullptr, 0, ncclFloat, ncclSum, comm_, stream_);
  }

private:
  ncclComm_t comm_ = nullptr;
  cudaStream_t stream_ = nullptr;
  const char *last_ = nullptr;
};
} // namespace fw

static int envRank() { return std::atoi(std::getenv("RANK")); }

void step(fw::CclImpl *ccl, float *grads, size_t n) {
  int rank = envRank();
  if (rank == 0)
    ccl->AllReduce(grads, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'ncclAllReduce' in 'AllReduce' is reached only by ranks where 'rank == 0' [ddp-collective-in-rank-branch]
  // Not a case: no override of RecordEvent communicates.
  if (rank == 0)
    ccl->RecordEvent("step");
}

// The base's own body issues nothing, NcclImpl's all-reduces: one of the two.
void flushOnLeader(fw::CclImpl &ccl) {
  if (envRank() == 0)
    ccl.Flush();
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'ncclAllReduce' in 'Flush' is reached only by ranks where 'envRank() == 0' [ddp-collective-in-rank-branch]
}

// Not a case: a qualified call runs the base's body, which does not
// communicate.
void flushBaseOnly(fw::CclImpl &ccl) {
  if (envRank() == 0)
    ccl.CclImpl::Flush();
}

// Not a case: every rank all-reduces through the interface.
void balanced(fw::CclImpl &ccl, float *grads, size_t n) {
  if (envRank() == 0) {
    ccl.RecordEvent("leader");
    ccl.AllReduce(grads, n);
  } else {
    ccl.AllReduce(grads, n);
  }
}
