#pragma once
#include <c10d/ProcessGroup.hpp>
#include <torch/nn.h>

#include <memory>

using PG = c10::intrusive_ptr<c10d::ProcessGroup>;
using Net = std::shared_ptr<torch::nn::Module>;

// Defined in sync.cpp: allreduces each parameter in turn.
void averageGradients(PG &pg, Net &net);
void evaluate(int step);
