#pragma once
#include <c10d/ProcessGroup.hpp>

void reduce_once(c10d::ProcessGroup *pg, std::vector<at::Tensor> &t);

// A trainer interface whose implementation is in comm.cpp.
struct Trainer {
  virtual ~Trainer() = default;
  // Defined in comm.cpp: all-reduces.
  virtual void sync(c10d::ProcessGroup *pg, std::vector<at::Tensor> &t);
  // Pure: only the overrides have bodies.
  virtual void step(c10d::ProcessGroup *pg, std::vector<at::Tensor> &t) = 0;
};

struct GlooTrainer : Trainer {
  void step(c10d::ProcessGroup *pg, std::vector<at::Tensor> &t) override;
};

// Overrides GlooTrainer::step, and through it Trainer::step.
struct NcclTrainer : GlooTrainer {
  void step(c10d::ProcessGroup *pg, std::vector<at::Tensor> &t) override;
};
