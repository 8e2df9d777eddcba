#include "sync.h"

// Rank 0 skips the averaging (in sync.cpp) on evaluation steps.
void evaluateOnRoot(PG pg, Net net, int steps) {
  int rank = pg->getRank();
  for (int step = 0; step < steps; ++step) {
    if (rank == 0 && step % 5 == 0) {
      evaluate(step);
      continue;
    }
    averageGradients(pg, net);
  }
}

// The same with the loop written here: decided before the link.
void evaluateOnRootInline(PG pg, Net net, int steps) {
  int rank = pg->getRank();
  for (int step = 0; step < steps; ++step) {
    if (rank == 0 && step % 5 == 0) {
      evaluate(step);
      continue;
    }
    for (auto &p : net->parameters()) {
      std::vector<at::Tensor> g{p};
      pg->allreduce(g)->wait();
    }
  }
}

// Not a case: every rank averages.
void evaluateWithoutSkipping(PG pg, Net net, int steps) {
  int rank = pg->getRank();
  for (int step = 0; step < steps; ++step) {
    if (rank == 0 && step % 5 == 0)
      evaluate(step);
    averageGradients(pg, net);
  }
}

// Not a case: rank 0 averages before it leaves.
void averageThenEvaluate(PG pg, Net net, int steps) {
  int rank = pg->getRank();
  for (int step = 0; step < steps; ++step) {
    if (rank == 0 && step % 5 == 0) {
      averageGradients(pg, net);
      evaluate(step);
      continue;
    }
    averageGradients(pg, net);
  }
}
