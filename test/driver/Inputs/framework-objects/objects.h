#pragma once
#include <c10d/ProcessGroup.hpp>

// Objects of a training framework whose constructors and destructors are
// defined in objects.cpp.
namespace fw {

// A device handle: built and released without communicating.
struct Device {
  Device();
  ~Device();
  int ordinal = 0;
};

// A timer that logs on destruction, without communicating.
struct ScopedTimer {
  explicit ScopedTimer(const char *name);
  ~ScopedTimer();
  const char *name;
};

// Joins the group when built: its constructor waits in a barrier.
struct GroupJoin {
  explicit GroupJoin(c10d::ProcessGroup *pg);
  c10d::ProcessGroup *pg;
};

// Flushes the metrics of every rank when it goes out of scope.
struct MetricsFlush {
  explicit MetricsFlush(c10d::ProcessGroup *pg);
  ~MetricsFlush();
  c10d::ProcessGroup *pg;
  std::vector<at::Tensor> totals;
};

// This process's rank, copied many times over before it is returned.
int rankOf(c10d::ProcessGroup *pg);

// A monitor loop that never returns and never communicates.
void pollHealth();

} // namespace fw
