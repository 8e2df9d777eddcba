#include "pingpong.h"

void only_root(c10d::ProcessGroup *pg, std::vector<at::Tensor> &t) {
  if (pg->getRank() == 0)
    ping(pg, t, 4);
}

// Not a case: every rank runs the same recursion.
void everyone(c10d::ProcessGroup *pg, std::vector<at::Tensor> &t) {
  if (pg->getRank() == 0)
    ping(pg, t, 4);
  else
    ping(pg, t, 4);
}
