// RUN: %check_ddp_tidy %s ddp-collective-in-rank-branch %t -- --config="{CheckOptions: {ddp-collective-in-rank-branch.Collectives: 'MyComm::sync;team::*_comm::reduce_all'}}" -- %mock_flags

// The Collectives option adds a user API to the catalogue. Without it,
// `if (rank == 0) comm.sync();` is silent (unconfiguredCollective in
// collective-in-rank-branch-negatives.cpp).

#include <c10d/ProcessGroup.hpp>

struct MyComm {
  void sync();
  void flush();
};
struct MyNcclComm : MyComm {};
struct OtherComm {
  void sync();
};

// The configured method under a rank condition.
void configuredCollective(c10d::ProcessGroup *pg, MyComm &comm) {
  int rank = pg->getRank();
  if (rank == 0)
    comm.sync();
}
// CHECK-MESSAGES: :[[@LINE-2]]:10: warning: 'sync' is reached only by ranks where 'rank == 0' [ddp-collective-in-rank-branch]

// A method pattern also matches the method on derived classes.
void configuredOnDerived(c10d::ProcessGroup *pg, MyNcclComm &comm) {
  if (pg->getRank() != 0)
    return;
  comm.sync();
}
// CHECK-MESSAGES: :[[@LINE-2]]:8: warning: 'sync' is skipped by ranks that leave early when 'pg->getRank() != 0' [ddp-collective-in-rank-branch]

// Silent: another method of the configured class.
void otherMethod(c10d::ProcessGroup *pg, MyComm &comm) {
  if (pg->getRank() == 0)
    comm.flush();
}

// Silent: a method of the same name on an unrelated class.
void sameNameOtherClass(c10d::ProcessGroup *pg, OtherComm &comm) {
  if (pg->getRank() == 0)
    comm.sync();
}

// A glob in the qualifier: 'team::*_comm::reduce_all' matches the method on
// every team communicator, through inline namespaces.
namespace team {
inline namespace v2 {
struct gpu_comm {
  void reduce_all();
};
struct cpu_comm {
  void reduce_all();
};
} // namespace v2
struct comm_stats {
  void reduce_all();
};
} // namespace team

void globQualifier(c10d::ProcessGroup *pg, team::gpu_comm &gpu,
                   team::cpu_comm &cpu) {
  if (pg->getRank() == 0)
    gpu.reduce_all();
  else
    cpu.reduce_all();
}

void globQualifierOneSide(c10d::ProcessGroup *pg, team::gpu_comm &gpu) {
  if (pg->getRank() == 0)
    gpu.reduce_all();
}
// CHECK-MESSAGES: :[[@LINE-2]]:9: warning: 'reduce_all' is reached only by ranks where 'pg->getRank() == 0' [ddp-collective-in-rank-branch]

// Silent: 'comm_stats' does not match '*_comm'.
void globQualifierOtherClass(c10d::ProcessGroup *pg, team::comm_stats &s) {
  if (pg->getRank() == 0)
    s.reduce_all();
}
