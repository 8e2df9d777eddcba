#include "shards.h"

#include <fstream>
#include <stdexcept>

Tensors loadShard(const std::string &dir, int rank) {
  std::ifstream in(dir + "/shard" + std::to_string(rank));
  if (!in.is_open())
    throw std::runtime_error("missing shard");
  return Tensors{torch::tensor(1.0)};
}

void sync(PG &pg, Tensors &t) { pg->allreduce(t)->wait(); }
