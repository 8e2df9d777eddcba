#include "pingpong.h"

// Mutually recursive with pong (pong.cpp).
void ping(c10d::ProcessGroup *pg, std::vector<at::Tensor> &t, int n) {
  if (n > 0) {
    pg->allreduce(t)->wait();
    pong(pg, t, n - 1);
  }
}
