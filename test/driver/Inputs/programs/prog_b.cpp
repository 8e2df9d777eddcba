#include "lib.h"
#include <cstdlib>

c10d::ProcessGroup *group();

// Program B: calls the same functions with values every rank shares; what
// they return here does not depend on what program A passes them.
int main(int argc, char **argv) {
  c10d::ProcessGroup *pg = group();
  Tensors grads;
  syncIfFirst(pg, grads, 0);
  syncIfLeader(pg, grads, 1);
  int steps = std::atoi(argv[1]);
  for (int i = 0; i < clampTo(steps, 10); ++i)
    pg->allreduce(grads)->wait();
  int fixed;
  copyInto(4, fixed);
  if (fixed > 2)
    pg->allreduce(grads)->wait();
  // The rank read by a helper of the library.
  const int rank = envInt("RANK", 0);
  const int every = envInt("SAVE_EVERY", 4);
  for (int step = 0; step < steps; ++step) {
    pg->allreduce(grads)->wait();
    if (rank == 0 && step % every == 0)
      saveAndBarrier(pg, grads);
  }
  return 0;
}
