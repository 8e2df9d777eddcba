#include "ckpt.h"

void train(c10d::ProcessGroup *pg, std::vector<at::Tensor> &grads,
           const at::Tensor &w) {
  int rank = pg->getRank();
  for (int step = 0; step < 100; ++step) {
    pg->allreduce(grads)->wait();
    if (rank == 0) {
      save_checkpoint(pg, w);
    }
  }
}

// Not a case: rank 0 saves, then every rank synchronises through a helper
// of another file that issues the same barrier.
void train_fixed(c10d::ProcessGroup *pg, std::vector<at::Tensor> &grads,
                 const at::Tensor &w) {
  int rank = pg->getRank();
  pg->allreduce(grads)->wait();
  if (rank == 0) {
    save_checkpoint(pg, w);
  } else {
    log_and_sync(pg);
  }
}

// Not a case: the helper of the other file does not communicate.
void train_writes(c10d::ProcessGroup *pg, const at::Tensor &w) {
  if (pg->getRank() == 0)
    write_weights(w);
}
