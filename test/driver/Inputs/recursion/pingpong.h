#pragma once
#include <c10d/ProcessGroup.hpp>

void ping(c10d::ProcessGroup *pg, std::vector<at::Tensor> &t, int n);
void pong(c10d::ProcessGroup *pg, std::vector<at::Tensor> &t, int n);
