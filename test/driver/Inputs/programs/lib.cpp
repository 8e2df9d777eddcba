#include "lib.h"
#include <cstdlib>

void save(const Tensors &state);

int clampTo(int value, int limit) { return value < limit ? value : limit; }

void copyInto(int value, int &out) { out = value; }

// Program A passes the rank: reported, through A's call.
void syncIfFirst(c10d::ProcessGroup *pg, Tensors &grads, int who) {
  if (who == 0)
    pg->allreduce(grads)->wait();
}

// Only constants reach it: not reported.
void syncIfLeader(c10d::ProcessGroup *pg, Tensors &grads, int who) {
  if (who == 0)
    pg->allreduce(grads)->wait();
}

// A rank source where the name passed is a rank variable's.
int envInt(const char *key, int fallback) {
  const char *v = std::getenv(key);
  return v ? std::atoi(v) : fallback;
}

void saveAndBarrier(c10d::ProcessGroup *pg, const Tensors &state) {
  save(state);
  pg->barrier()->wait();
}
