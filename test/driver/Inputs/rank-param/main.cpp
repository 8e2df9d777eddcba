#include "util.h"

// The rank crosses into step.cpp as an argument.
void run(c10d::ProcessGroup *pg, std::vector<at::Tensor> &grads) {
  int r = pg->getRank();
  step(pg, r, grads);
  balanced_step(pg, r, grads);
}

// Not a case: a uniform argument.
void run_uniform(c10d::ProcessGroup *pg, std::vector<at::Tensor> &grads) {
  step(pg, pg->getSize() - 1, grads);
}

// A rank-dependent value returned by query.cpp.
void sync_leader(c10d::ProcessGroup *pg) {
  if (leader_id(pg) == 0)
    pg->barrier()->wait();
}

// Not a case: the world size, returned by query.cpp, is uniform.
void sync_if_many(c10d::ProcessGroup *pg) {
  if (group_size(pg) > 1)
    pg->barrier()->wait();
}
