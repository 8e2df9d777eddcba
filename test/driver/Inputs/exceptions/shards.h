#pragma once
#include <c10d/ProcessGroup.hpp>

#include <string>
#include <vector>

using PG = c10::intrusive_ptr<c10d::ProcessGroup>;
using Tensors = std::vector<at::Tensor>;

// Defined in shards.cpp: throws when this node lacks the rank's shard.
Tensors loadShard(const std::string &dir, int rank);
// Defined in shards.cpp: every rank the same.
void sync(PG &pg, Tensors &t);
