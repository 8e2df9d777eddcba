#include "sync.h"

void averageGradients(PG &pg, Net &net) {
  for (auto &p : net->parameters()) {
    std::vector<at::Tensor> g{p};
    pg->allreduce(g)->wait();
  }
}
