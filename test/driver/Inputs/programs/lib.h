#pragma once
#include <c10d/ProcessGroup.hpp>

using Tensors = std::vector<at::Tensor>;

// lib.cpp, shared by the two programs (prog_a.cpp and prog_b.cpp).
int clampTo(int value, int limit);
void copyInto(int value, int &out);
void syncIfFirst(c10d::ProcessGroup *pg, Tensors &grads, int who);
void syncIfLeader(c10d::ProcessGroup *pg, Tensors &grads, int who);
int envInt(const char *key, int fallback);
void saveAndBarrier(c10d::ProcessGroup *pg, const Tensors &state);
