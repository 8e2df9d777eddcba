#include "shards.h"

// The ranks whose shard is missing broadcast a fallback alone.
void loadOrFallback(PG pg, const std::string &dir, Tensors &fallback) {
  Tensors shard;
  try {
    shard = loadShard(dir, pg->getRank());
  } catch (...) {
    pg->broadcast(fallback)->wait();
  }
}

// The ranks whose shard is missing skip the allreduce in shards.cpp.
void loadThenSync(PG pg, const std::string &dir, Tensors &stats) {
  try {
    Tensors shard = loadShard(dir, pg->getRank());
    sync(pg, stats);
  } catch (...) {
  }
}

// Not a case: the handler rethrows.
void loadOrFail(PG pg, const std::string &dir, Tensors &fallback) {
  Tensors shard;
  try {
    shard = loadShard(dir, pg->getRank());
  } catch (...) {
    throw;
  }
  pg->broadcast(shard)->wait();
}
