#include "objects.h"

// Not a case: rank 0 builds and releases a device handle; neither the
// constructor nor the destructor (in objects.cpp) communicates.
void probeDevice(c10d::ProcessGroup *pg) {
  if (pg->getRank() == 0) {
    fw::Device device;
  }
}

// Not a case: a timer only rank 0 keeps, around rank 0's own work.
void timeStep(c10d::ProcessGroup *pg, std::vector<at::Tensor> &grads) {
  int rank = pg->getRank();
  pg->allreduce(grads)->wait();
  if (rank == 0) {
    fw::ScopedTimer timer("log");
    fw::Device device;
  }
}

// Not a case: rank 0 runs a monitor loop that never ends and never
// communicates; no side issues a collective.
void monitor(c10d::ProcessGroup *pg) {
  if (pg->getRank() == 0) {
    for (;;)
      fw::pollHealth();
  }
}

// The constructor defined in objects.cpp waits in a barrier: only rank 0
// builds the object.
void joinLate(c10d::ProcessGroup *pg) {
  if (pg->getRank() == 0) {
    fw::GroupJoin join(pg);
  }
}

// The destructor defined in objects.cpp all-reduces: only rank 0 has one.
void flushOnLeader(c10d::ProcessGroup *pg) {
  int rank = pg->getRank();
  if (rank == 0) {
    fw::MetricsFlush flush(pg);
  }
}

// The rank reaches the condition through a long chain of copies: the
// explanation keeps its first links and its source, and says how many
// links it leaves out between them.
void longChain(c10d::ProcessGroup *pg) {
  int r0 = pg->getRank();
  int r1 = r0, r2 = r1, r3 = r2, r4 = r3, r5 = r4, r6 = r5;
  int r7 = r6, r8 = r7, r9 = r8, r10 = r9, r11 = r10, r12 = r11;
  if (r12 == 0) {
    fw::GroupJoin join(pg);
  }
}

// The same across files: the chain that objects.cpp explains is shortened
// there, and once more here, counting the links left out in both.
void longChainAcrossFiles(c10d::ProcessGroup *pg) {
  int r = fw::rankOf(pg);
  int s = r, t = s, u = t;
  if (u == 0) {
    fw::GroupJoin join(pg);
  }
}
