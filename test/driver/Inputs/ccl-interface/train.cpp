#include "ccl.h"
#include <cstdlib>

// The training loop talks to the framework's interface only.
class Trainer {
public:
  Trainer(int rank, int world)
      : rank_(rank), ccl_impl_(fw::MakeNcclImpl(rank, world)) {}

  void Step(float *grads, size_t n, int step) {
    ccl_impl_->AllReduce(grads, n);
    // Only rank 0 broadcasts the refreshed weights: the others never join.
    if (rank_ == 0 && step % 100 == 0)
      ccl_impl_->Broadcast(grads, n, 0);
    // Not a case: no implementation of RecordEvent communicates.
    if (rank_ == 0)
      ccl_impl_->RecordEvent("step");
  }

private:
  int rank_;
  std::unique_ptr<fw::CclImpl> ccl_impl_;
};

// Through a reference: ranks other than 0 leave before the all-reduce.
void Evaluate(fw::CclImpl &ccl, float *metrics, size_t n, int rank) {
  if (rank != 0)
    return;
  ccl.AllReduce(metrics, n);
}

// Not a case: every rank all-reduces, through the interface, on both sides.
void Balanced(fw::CclImpl &ccl, float *grads, size_t n, int rank) {
  if (rank == 0) {
    ccl.RecordEvent("leader");
    ccl.AllReduce(grads, n);
  } else {
    ccl.AllReduce(grads, n);
  }
}

int main() {
  int rank = std::atoi(std::getenv("RANK"));
  int world = std::atoi(std::getenv("WORLD_SIZE"));
  Trainer trainer(rank, world);
  float grads[4] = {};
  for (int step = 0; step < 1000; ++step)
    trainer.Step(grads, 4, step);
  auto ccl = fw::MakeNcclImpl(rank, world);
  Evaluate(*ccl, grads, 4, rank);
  Balanced(*ccl, grads, 4, rank);
}
