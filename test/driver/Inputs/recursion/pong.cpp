#include "pingpong.h"

void pong(c10d::ProcessGroup *pg, std::vector<at::Tensor> &t, int n) {
  if (n > 0) {
    pg->broadcast(t)->wait();
    ping(pg, t, n - 1);
  }
}
