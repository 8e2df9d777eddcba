// RUN: %check_ddp_tidy %s ddp-collective-in-rank-branch %t -- --config="{CheckOptions: {Collectives: 'fw::CclImpl::AllReduce;fw::CclImpl::Broadcast'}}" -- %mock_flags

// A framework's own collective interface, named in the Collectives option:
// a method pattern matches the named class and every class derived from it,
// so every call through a base pointer or reference and every call of an
// override is a collective, whether or not the overrides are in this TU
// (here they are not).

#include <cstddef>
#include <cstdlib>
#include <memory>

namespace fw {
class CclImpl {
public:
  virtual ~CclImpl() = default;
  virtual void AllReduce(float *buf, size_t count) = 0;
  virtual void Broadcast(float *buf, size_t count, int root) = 0;
  virtual void RecordEvent(const char *name) = 0;
};
// Declared here, defined elsewhere: only the option says they communicate.
class NcclImpl : public CclImpl {
public:
  void AllReduce(float *buf, size_t count) override;
  void Broadcast(float *buf, size_t count, int root) override;
  void RecordEvent(const char *name) override;
};
} // namespace fw

static int envRank() { return std::atoi(std::getenv("RANK")); }

// Through a pointer member.
class Trainer {
public:
  void step(float *grads, size_t n) {
    if (rank_ == 0)
      ccl_impl_->Broadcast(grads, n, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'Broadcast' is reached only by ranks where 'rank_ == 0' [ddp-collective-in-rank-branch]
    // Not a case: not named in the option, and nothing else says it
    // communicates.
    if (rank_ == 0)
      ccl_impl_->RecordEvent("step");
  }

private:
  int rank_ = envRank();
  std::unique_ptr<fw::CclImpl> ccl_impl_;
};

// Through a reference: ranks other than 0 leave before the all-reduce.
void evaluate(fw::CclImpl &ccl, float *metrics, size_t n) {
  if (envRank() != 0)
    return;
  ccl.AllReduce(metrics, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'AllReduce' is skipped by ranks that leave early when 'envRank() != 0' [ddp-collective-in-rank-branch]
}

// An override, called directly.
void direct(fw::NcclImpl &nccl, float *grads, size_t n) {
  int rank = envRank();
  if (rank == 1)
    nccl.AllReduce(grads, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'AllReduce' is reached only by ranks where 'rank == 1' [ddp-collective-in-rank-branch]
}

// Not a case: the same all-reduce on both sides, through the base and
// through the override.
void balanced(fw::CclImpl &ccl, fw::NcclImpl &nccl, float *grads, size_t n) {
  if (envRank() == 0)
    ccl.AllReduce(grads, n);
  else
    nccl.AllReduce(grads, n);
}
