#pragma once
#include <c10d/ProcessGroup.hpp>

// Saves the model on the calling rank, then waits for every rank.
void save_checkpoint(c10d::ProcessGroup *pg, const at::Tensor &w);
// Saves without synchronising.
void write_weights(const at::Tensor &w);
// Logs and synchronises: the same barrier as save_checkpoint.
void log_and_sync(c10d::ProcessGroup *pg);
