#include "objects.h"

namespace fw {

static int openDevice() { return 0; }

Device::Device() { ordinal = openDevice(); }
Device::~Device() { ordinal = -1; }

ScopedTimer::ScopedTimer(const char *name) : name(name) {}
ScopedTimer::~ScopedTimer() { name = nullptr; }

GroupJoin::GroupJoin(c10d::ProcessGroup *pg) : pg(pg) {
  pg->barrier()->wait();
}

MetricsFlush::MetricsFlush(c10d::ProcessGroup *pg) : pg(pg) {}
MetricsFlush::~MetricsFlush() { pg->allreduce(totals)->wait(); }

void pollHealth() {}

int rankOf(c10d::ProcessGroup *pg) {
  int a = pg->getRank();
  int b = a, c = b, d = c, e = d, f = e, g = f, h = g, i = h, j = i, k = j;
  return k;
}

} // namespace fw
