// RUN: %check_ddp_tidy %s ddp-collective-in-rank-branch %t -- -- %mock_flags

// Whether a rank throws depends on its own files and data: a collective in a
// `catch` handler runs on the ranks that threw only, and one after the call
// in the `try` block is skipped by them. A handler that rethrows ends the
// job; a `try` block that issues the same collectives after the call as the
// handler does is balanced.

#include <c10d/ProcessGroup.hpp>

#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

using PG = c10::intrusive_ptr<c10d::ProcessGroup>;
using Tensors = std::vector<at::Tensor>;

Tensors loadShard(const std::string &path, int rank); // elsewhere
Tensors parseConfig(const std::string &text);         // elsewhere

// The example: the ranks whose shard is missing broadcast a
// fallback that the others never join.
void loadOrFallback(PG pg, const std::string &path, Tensors &fallback) {
  int rank = pg->getRank();
  Tensors shard;
  try {
    shard = loadShard(path, rank);
  } catch (const std::exception &e) {
    pg->broadcast(fallback)->wait();
  }
}
// CHECK-NOTES: :[[@LINE-3]]:9: warning: 'broadcast' in a 'catch' handler is reached only by ranks where 'loadShard(path, rank)' throws [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-6]]:13: note: whether this call throws depends on the rank
// CHECK-NOTES: :[[@LINE-7]]:13: note: 'loadShard(path, rank)' is given a rank-dependent argument: whether it throws can differ between ranks
// CHECK-NOTES: :[[@LINE-11]]:14: note: 'rank' is set from 'pg->getRank()' here
// CHECK-NOTES: :[[@LINE-7]]:9: note: catch the error where it happens, then agree on the outcome (an allreduce of a failure flag) so that every rank takes the same path

// A helper of this file that throws when this node lacks the file: the ranks
// that throw skip the allreduce after it.
Tensors readShard(const std::string &path) {
  std::ifstream in(path);
  if (!in.is_open())
    throw std::runtime_error("missing shard " + path);
  return Tensors{torch::tensor(1.0)};
}

void readThenSync(PG pg, const std::string &path, Tensors &stats) {
  try {
    Tensors shard = readShard(path);
    pg->allreduce(stats)->wait();
  } catch (const std::runtime_error &e) {
    std::cerr << e.what() << "\n";
  }
}
// CHECK-NOTES: :[[@LINE-5]]:9: warning: 'allreduce' is skipped by ranks where 'readShard(path)' throws [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-7]]:21: note: whether this call throws depends on data local to each rank
// CHECK-NOTES: :[[@LINE-8]]:21: note: 'readShard' can throw on some ranks only
// CHECK-NOTES: :[[@LINE-15]]:5: note: 'readShard' throws here on some ranks only
// CHECK-NOTES: :[[@LINE-17]]:8: note: 'in.is_open()' looks at this rank's file system
// CHECK-NOTES: :[[@LINE-10]]:9: note: catch the error where it happens, then agree on the outcome (an allreduce of a failure flag) so that every rank takes the same path

// A checkpoint only some nodes have: the handler re-initialises and
// broadcasts, the others broadcast nothing.
void resumeOrInit(PG pg, at::Tensor &weights, Tensors &init) {
  try {
    torch::load(weights, "/ckpt/latest.pt");
  } catch (...) {
    pg->broadcast(init)->wait();
  }
}
// CHECK-NOTES: :[[@LINE-3]]:9: warning: 'broadcast' in a 'catch' handler is reached only by ranks where 'torch::load(weights, "/ckpt/latest.pt")' throws [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-6]]:5: note: whether this call throws depends on data local to each rank
// CHECK-NOTES: :[[@LINE-7]]:5: note: 'torch::load(weights, "/ckpt/latest.pt")' throws when the file is missing or unreadable on this rank's file system
// CHECK-NOTES: :[[@LINE-6]]:9: note: catch the error where it happens, then agree on the outcome (an allreduce of a failure flag) so that every rank takes the same path

// Silent: the handler rethrows, which ends the job.
void loadOrFail(PG pg, const std::string &path, Tensors &fallback) {
  Tensors shard;
  try {
    shard = loadShard(path, pg->getRank());
  } catch (const std::exception &e) {
    std::cerr << "cannot load: " << e.what() << "\n";
    throw;
  }
  pg->broadcast(shard)->wait();
}

// Silent: every rank broadcasts once, from the block or from the handler.
void loadThenBroadcast(PG pg, const std::string &path, Tensors &fallback) {
  int rank = pg->getRank();
  try {
    Tensors shard = loadShard(path, rank);
    pg->broadcast(shard)->wait();
  } catch (const std::exception &e) {
    pg->broadcast(fallback)->wait();
  }
}

// Silent: the same text on every rank throws on every rank or on none.
void configOrDefault(PG pg, const std::string &text, Tensors &defaults) {
  Tensors config;
  try {
    config = parseConfig(text);
  } catch (const std::exception &e) {
    pg->broadcast(defaults)->wait();
  }
}

// Silent: a helper whose throw does not depend on the rank.
void requirePositive(int n) {
  if (n <= 0)
    throw std::invalid_argument("n must be positive");
}

void checkedSync(PG pg, int steps, Tensors &grads) {
  try {
    requirePositive(steps);
    pg->allreduce(grads)->wait();
  } catch (const std::invalid_argument &e) {
    std::cerr << e.what() << "\n";
  }
}
