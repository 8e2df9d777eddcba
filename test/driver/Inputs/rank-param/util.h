#pragma once
#include <c10d/ProcessGroup.hpp>

// Defined in step.cpp: synchronises when `which` is zero.
void step(c10d::ProcessGroup *pg, int which, std::vector<at::Tensor> &grads);
// Defined in step.cpp: never looks at `which` for its collectives.
void balanced_step(c10d::ProcessGroup *pg, int which,
                   std::vector<at::Tensor> &grads);
// Defined in query.cpp.
int leader_id(c10d::ProcessGroup *pg);
int group_size(c10d::ProcessGroup *pg);
