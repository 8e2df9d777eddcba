// A small LibTorch trainer split over three files, as a user's project is:
// the loop (train.cpp), metrics that communicate (metrics.cpp), and
// checkpointing (checkpoint.cpp).
#pragma once

#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/torch.h>

using Group = c10::intrusive_ptr<c10d::ProcessGroup>;

// metrics.cpp
bool isLeader(const Group &pg);
double averageOverRanks(const Group &pg, double local);
void averageGradients(const Group &pg, torch::nn::Module &model);

// checkpoint.cpp
void writeWeights(torch::nn::Module &model, int step);
void saveCheckpoint(const Group &pg, torch::nn::Module &model, int step);
void syncAll(const Group &pg);
