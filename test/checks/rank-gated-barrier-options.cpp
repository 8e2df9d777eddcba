// RUN: %check_ddp_tidy %s ddp-rank-gated-barrier %t -- \
// RUN:   --config="{CheckOptions: {ddp-rank-gated-barrier.Barriers: 'MyComm::sync;my_barrier'}}" \
// RUN:   -- %mock_flags

// User barriers declared with the option ddp-rank-gated-barrier.Barriers. The
// harness passes --config={} first; the later --config must win, or the
// warnings below would be missing.

#include <c10d/ProcessGroup.hpp>

void save(const at::Tensor &t);
void my_barrier();

class MyComm {
public:
  explicit MyComm(c10d::ProcessGroup *pg);
  int rank() const;
  void sync();
  void log(const char *msg);
};

// A derived communicator: the method pattern covers it too.
class MyNcclComm : public MyComm {
public:
  using MyComm::MyComm;
};

// The configured method, reached only by rank 0.
void userSyncOnRoot(MyComm &comm, c10d::ProcessGroup *pg, const at::Tensor &w) {
  int rank = pg->getRank();
  if (rank == 0) {
    save(w);
    comm.sync();
  }
}
// CHECK-MESSAGES: :[[@LINE-3]]:10: warning: 'sync' is reached only by ranks where 'rank == 0' [ddp-rank-gated-barrier]
// CHECK-FIXES:      {{^}}  if (rank == 0) {{{$}}
// CHECK-FIXES-NEXT: {{^}}    save(w);{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-FIXES-NEXT: {{^}}  comm.sync();{{$}}

// The configured method called on a derived class.
void derivedSyncOnRoot(MyNcclComm *comm, c10d::ProcessGroup *pg) {
  if (pg->getRank() != 0)
    return;
  comm->sync();
}
// CHECK-MESSAGES: :[[@LINE-2]]:9: warning: 'sync' is skipped by ranks that leave early when 'pg->getRank() != 0' [ddp-rank-gated-barrier]

// A configured free function in a rank-bounded loop.
void freeBarrierInRankLoop(c10d::ProcessGroup *pg) {
  for (int i = pg->getRank(); i > 0; --i)
    my_barrier();
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'my_barrier' is called a rank-dependent number of times: the loop condition 'i > 0' depends on the rank [ddp-rank-gated-barrier]

// Negative: the configured barrier, reached by every rank.
void userSyncForAll(MyComm &comm, c10d::ProcessGroup *pg, const at::Tensor &w) {
  if (pg->getRank() == 0)
    save(w);
  comm.sync();
}

// Negative: another method of the same class is not a barrier.
void userLogOnRoot(MyComm &comm, c10d::ProcessGroup *pg) {
  if (pg->getRank() == 0)
    comm.log("rank 0 only");
}

// Negative: the configured barrier on both sides of the rank branch.
void userSyncBothSides(MyComm &comm, c10d::ProcessGroup *pg,
                       const at::Tensor &w) {
  if (pg->getRank() == 0) {
    save(w);
    comm.sync();
  } else {
    comm.sync();
  }
}
