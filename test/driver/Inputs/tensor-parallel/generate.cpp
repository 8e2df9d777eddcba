#include "layer.h"

#include <iostream>

// Generation on the last rank only: the layer's allreduce waits for the
// others.
void generateOnLastRank(PG pg, RowParallelLinear layer, at::Tensor prompt) {
  if (pg->getRank() == pg->getSize() - 1)
    layer(prompt);
}

// Not a case: every rank runs the layer, the last one prints.
void generateEverywhere(PG pg, RowParallelLinear layer, at::Tensor prompt) {
  at::Tensor out = layer(prompt);
  if (pg->getRank() == pg->getSize() - 1)
    std::cout << "generated\n";
}
