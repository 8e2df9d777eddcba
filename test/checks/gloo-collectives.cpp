// REQUIRES: gloo, mpi
// RUN: %check_ddp_tidy %s 'ddp-*' %t -- -- -std=c++17 %mpi_flags
// RUN: %expect_exit 1 %ddp_lint --no-cache --source-root %S %s -- -std=c++17 %mpi_flags > %t.lint.txt
// RUN: FileCheck %s --check-prefix=LINT --input-file=%t.lint.txt --implicit-check-not=warning:

// Gloo's own collectives, written against the real headers (Debian
// libgloo-dev). Each takes an options object; the buffer given to it with
// setOutput holds the same value on every rank once allreduce, broadcast or
// allgather returns. Found in horovod: a controller's CrossRankBitwiseAnd has
// an MPI override (MPI_Allreduce in place) and a Gloo one
// (gloo::allreduce(opts) after opts.setOutput(bits.data(), n)); the Gloo one
// was not known to communicate, so the bit vector every caller tests looked
// rank-dependent after the call. Twins, reported: a Gloo collective that only
// some ranks reach, and a buffer given as input only.

#include <gloo/allgather.h>
#include <gloo/allreduce.h>
#include <gloo/barrier.h>
#include <gloo/broadcast.h>
#include <gloo/context.h>
#include <mpi.h>

#include <memory>
#include <vector>

void bitAnd(void *c, const void *a, const void *b, size_t n) {
  auto *out = static_cast<long long *>(c);
  const auto *x = static_cast<const long long *>(a);
  const auto *y = static_cast<const long long *>(b);
  for (size_t i = 0; i < n; ++i)
    out[i] = x[i] & y[i];
}

// In place: the output is also the input.
void crossRankAnd(const std::shared_ptr<gloo::Context> &context,
                  std::vector<long long> &bits) {
  gloo::AllreduceOptions opts(context);
  opts.setOutput(bits.data(), bits.size());
  opts.setReduceFunction(gloo::AllreduceOptions::Func(&bitAnd));
  gloo::allreduce(opts);
}

// Each rank's own bits are uniform after the allreduce: every rank takes the
// same branch, so the barrier under it is fine.
void syncIfAgreed(const std::shared_ptr<gloo::Context> &context) {
  std::vector<long long> bits(4, 0);
  bits[0] = context->rank % 2;
  crossRankAnd(context, bits);
  if (bits[0] != 0) {
    gloo::BarrierOptions barrier(context);
    gloo::barrier(barrier);
  }
}

// Through a controller whose overrides use either library: both leave the
// bits the same on every rank.
class Controller {
public:
  virtual ~Controller() = default;
  virtual void crossRankAnd(std::vector<long long> &bits) = 0;
  virtual void barrier() = 0;
};

class MPIController : public Controller {
public:
  void crossRankAnd(std::vector<long long> &bits) override {
    MPI_Allreduce(MPI_IN_PLACE, bits.data(), static_cast<int>(bits.size()),
                  MPI_LONG_LONG_INT, MPI_BAND, MPI_COMM_WORLD);
  }
  void barrier() override { MPI_Barrier(MPI_COMM_WORLD); }
};

class GlooController : public Controller {
public:
  explicit GlooController(std::shared_ptr<gloo::Context> context)
      : context_(std::move(context)) {}
  void crossRankAnd(std::vector<long long> &bits) override {
    crossRankAnd(context_, bits);
  }
  void barrier() override {
    gloo::BarrierOptions opts(context_);
    gloo::barrier(opts);
  }

private:
  static void crossRankAnd(const std::shared_ptr<gloo::Context> &context,
                           std::vector<long long> &bits) {
    ::crossRankAnd(context, bits);
  }
  std::shared_ptr<gloo::Context> context_;
};

void syncIfAllReady(Controller &controller, int rank) {
  std::vector<long long> bits(1, rank % 2);
  controller.crossRankAnd(bits);
  if (bits[0] != 0)
    controller.barrier();
}

// The same, with the broadcast's output.
void shareStep(const std::shared_ptr<gloo::Context> &context) {
  int step = context->rank == 0 ? 10 : 0;
  gloo::BroadcastOptions opts(context);
  opts.setOutput(&step, 1);
  opts.setRoot(0);
  gloo::broadcast(opts);
  if (step > 5) {
    gloo::BarrierOptions barrier(context);
    gloo::barrier(barrier);
  }
}

// Twin, reported: the rank's own value, given as the input only, is still
// the rank's own after the call; the output is another buffer.
void syncOnInput(const std::shared_ptr<gloo::Context> &context) {
  int mine = context->rank;
  int sum = 0;
  gloo::AllreduceOptions opts(context);
  opts.setInput(&mine, 1);
  opts.setOutput(&sum, 1);
  gloo::allreduce(opts);
  if (mine == 0) {
    gloo::BarrierOptions barrier(context);
    gloo::barrier(barrier);
  }
}
// CHECK-MESSAGES: :[[@LINE-3]]:5: warning: 'barrier' is reached only by ranks where 'mine == 0' [ddp-rank-gated-barrier]
// LINT: gloo-collectives.cpp:[[@LINE-6]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]

// A context is Gloo's communicator: processes outside a sub-context hold a
// null one, so a collective on it under `if (sub != nullptr)` is called by
// every member (horovod's EnumerateSubRanks). Twin, reported: under the same
// test, a collective on the world's context.
std::shared_ptr<gloo::Context>
joinEvenRanks(const std::shared_ptr<gloo::Context> &world);

std::vector<int> subRanks(const std::shared_ptr<gloo::Context> &world) {
  std::shared_ptr<gloo::Context> sub;
  if (world->rank % 2 == 0)
    sub = joinEvenRanks(world);
  std::vector<int> result;
  if (sub != nullptr) {
    int globalRank = world->rank;
    result.resize(sub->size);
    gloo::AllgatherOptions opts(sub);
    opts.setInput(&globalRank, 1);
    opts.setOutput(result.data(), result.size());
    gloo::allgather(opts);
  }
  return result;
}

void worldUnderSubTest(const std::shared_ptr<gloo::Context> &world) {
  std::shared_ptr<gloo::Context> sub;
  if (world->rank % 2 == 0)
    sub = joinEvenRanks(world);
  if (sub) {
    gloo::BarrierOptions opts(world);
    gloo::barrier(opts);
  }
}
// CHECK-MESSAGES: :[[@LINE-3]]:5: warning: 'barrier' is reached only by ranks where 'sub' [ddp-rank-gated-barrier]
// LINT: gloo-collectives.cpp:[[@LINE-6]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]

// Twin, reported: a Gloo collective that only rank 0 reaches.
void rootOnly(const std::shared_ptr<gloo::Context> &context,
              std::vector<float> &grads) {
  if (context->rank == 0) {
    gloo::AllreduceOptions opts(context);
    opts.setOutput(grads.data(), grads.size());
    gloo::allreduce(opts);
  }
}
// CHECK-MESSAGES: :[[@LINE-3]]:5: warning: 'allreduce' is reached only by ranks where 'context->rank == 0' [ddp-collective-in-rank-branch]
// LINT: gloo-collectives.cpp:[[@LINE-7]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]
