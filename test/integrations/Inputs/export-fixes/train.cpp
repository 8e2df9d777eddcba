// Two findings for --export-fixes: a barrier only rank 0 reaches, which
// ddp-rank-gated-barrier can move after the `if` (a fix-it), and an
// allreduce only rank 0 reaches, which ddp-collective-in-rank-branch reports
// without one.

#include <c10d/ProcessGroup.hpp>

#include <vector>

void checkpoint(c10d::ProcessGroup *pg, const at::Tensor &weights) {
  int rank = pg->getRank();
  if (rank == 0) {
    torch::save(weights, "checkpoint.pt");
    pg->barrier()->wait();
  }
}

void report(c10d::ProcessGroup *pg, std::vector<at::Tensor> &metrics) {
  if (pg->getRank() == 0)
    pg->allreduce(metrics)->wait();
}
