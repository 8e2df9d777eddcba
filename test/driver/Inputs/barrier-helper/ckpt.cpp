#include "ckpt.h"

void write_weights(const at::Tensor &w) {}

void save_checkpoint(c10d::ProcessGroup *pg, const at::Tensor &w) {
  write_weights(w);
  pg->barrier()->wait();
}

void log_and_sync(c10d::ProcessGroup *pg) {
  pg->barrier()->wait();
}
