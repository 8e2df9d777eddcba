// RUN: %check_ddp_tidy %s ddp-collective-in-rank-branch %t -- -- %mock_flags

// A collective on a communicator under a test of membership of that
// communicator is called by all of its members: the members all take the
// same side. Collectives on other communicators under the same test are
// still compared.

#include <mpi.h>
#include <nccl.h>

// Benchmark settings in the style of the Intel MPI Benchmarks: the rank in
// the benchmark's communicator is -1 on the ranks outside it.
struct bench_info {
  MPI_Comm communicator;
  int rank;
  int num_procs;
};

void timeAllreduce(struct bench_info *info, float *buf, int n) {
  if (info->rank != -1) {
    MPI_Barrier(info->communicator);
    MPI_Allreduce(buf, buf, n, MPI_FLOAT, MPI_SUM, info->communicator);
  }
}

// Reported: the world is not the benchmark's communicator.
void timeAllreduceThenWorld(struct bench_info *info, float *buf, int n) {
  if (info->rank != -1) {
    MPI_Allreduce(buf, buf, n, MPI_FLOAT, MPI_SUM, info->communicator);
    MPI_Bcast(buf, n, MPI_FLOAT, 0, MPI_COMM_WORLD);
  }
}
// CHECK-MESSAGES: :[[@LINE-3]]:5: warning: 'MPI_Bcast' is reached only by ranks where 'info->rank != -1' [ddp-collective-in-rank-branch]

// Reported: the communicator of another object.
void reduceOnOther(struct bench_info *info, struct bench_info *other,
                   float *buf, int n) {
  if (info->rank != -1)
    MPI_Allreduce(buf, buf, n, MPI_FLOAT, MPI_SUM, other->communicator);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Allreduce' is reached only by ranks where 'info->rank != -1' [ddp-collective-in-rank-branch]

// Members leave no one behind when non-members return early.
void leaveUnlessMember(struct bench_info *info, float *buf, int n) {
  if (info->rank == -1)
    return;
  MPI_Allreduce(buf, buf, n, MPI_FLOAT, MPI_SUM, info->communicator);
}

// Reported: the same early return before a world collective.
void leaveUnlessMemberThenWorld(struct bench_info *info, float *buf, int n) {
  if (info->rank == -1)
    return;
  MPI_Allreduce(buf, buf, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-2]]:3: warning: 'MPI_Allreduce' is skipped by ranks that leave early when 'info->rank == -1' [ddp-collective-in-rank-branch]

// A helper handed the communicator.
void syncOn(MPI_Comm comm) { MPI_Barrier(comm); }
void broadcastOn(MPI_Comm comm, float *buf, int n) {
  MPI_Bcast(buf, n, MPI_FLOAT, 0, comm);
}

void syncMembers(struct bench_info *info, float *buf, int n) {
  if (info->rank != -1) {
    syncOn(info->communicator);
    broadcastOn(info->communicator, buf, n);
  }
}

// Reported: the helper handed the world.
void syncWorldFromMembers(struct bench_info *info, float *buf, int n) {
  if (info->rank != -1)
    broadcastOn(MPI_COMM_WORLD, buf, n);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Bcast' in 'broadcastOn' is reached only by ranks where 'info->rank != -1' [ddp-collective-in-rank-branch]

// The rank in a communicator the function asked for, -1 outside it.
void reduceOnSub(MPI_Comm sub, float *buf, int n) {
  int subRank = -1;
  if (sub != MPI_COMM_NULL)
    MPI_Comm_rank(sub, &subRank);
  if (subRank != -1)
    MPI_Allreduce(buf, buf, n, MPI_FLOAT, MPI_SUM, sub);
}

// Reported: the world under the same test.
void broadcastFromSubMembers(MPI_Comm sub, float *buf, int n) {
  int subRank = -1;
  if (sub != MPI_COMM_NULL)
    MPI_Comm_rank(sub, &subRank);
  if (subRank != -1)
    MPI_Bcast(buf, n, MPI_FLOAT, 0, MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Bcast' is reached only by ranks where 'subRank != -1' [ddp-collective-in-rank-branch]

// Reported: the rank in the world is not the rank in sub.
void reduceOnSubByWorldRank(MPI_Comm sub, float *buf, int n) {
  int worldRank = -1;
  if (sub != MPI_COMM_NULL)
    MPI_Comm_rank(MPI_COMM_WORLD, &worldRank);
  if (worldRank != -1)
    MPI_Allreduce(buf, buf, n, MPI_FLOAT, MPI_SUM, sub);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Allreduce' is reached only by ranks where 'worldRank != -1' [ddp-collective-in-rank-branch]

// Split by a colour that leaves some ranks out: only members hold a
// communicator.
void reduceOnWriters(float *buf, int n, int writers) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm sub;
  int colour = rank < writers ? 0 : MPI_UNDEFINED;
  MPI_Comm_split(MPI_COMM_WORLD, colour, rank, &sub);
  if (sub != MPI_COMM_NULL)
    MPI_Allreduce(buf, buf, n, MPI_FLOAT, MPI_SUM, sub);
  if (colour != MPI_UNDEFINED)
    MPI_Allreduce(buf, buf, n, MPI_FLOAT, MPI_SUM, sub);
  if (colour == 0)
    MPI_Barrier(sub);
}

// Reported: the world under the same tests.
void reduceWorldOnWriters(float *buf, int n, int writers) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm sub;
  int colour = rank < writers ? 0 : MPI_UNDEFINED;
  MPI_Comm_split(MPI_COMM_WORLD, colour, rank, &sub);
  if (sub != MPI_COMM_NULL) {
    MPI_Allreduce(buf, buf, n, MPI_FLOAT, MPI_SUM, sub);
    MPI_Bcast(buf, n, MPI_FLOAT, 0, MPI_COMM_WORLD);
  }
  if (colour == 0)
    MPI_Allreduce(buf, buf, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-5]]:5: warning: 'MPI_Bcast' is reached only by ranks where 'sub != MPI_COMM_NULL' [ddp-collective-in-rank-branch]
// CHECK-MESSAGES: :[[@LINE-3]]:5: warning: 'MPI_Allreduce' is reached only by ranks where 'colour == 0' [ddp-collective-in-rank-branch]

// An NCCL communicator split off with no colour on some ranks is null
// there.
void reduceOnNcclSub(ncclComm_t world, float *buf, size_t n,
                     cudaStream_t stream) {
  int rank;
  ncclCommUserRank(world, &rank);
  ncclComm_t sub = nullptr;
  ncclCommSplit(world, rank % 2 == 0 ? 0 : NCCL_SPLIT_NOCOLOR, rank, &sub,
                nullptr);
  if (sub != nullptr)
    ncclAllReduce(buf, buf, n, ncclFloat, ncclSum, sub, stream);
  if (sub)
    ncclBroadcast(buf, buf, n, ncclFloat, 0, world, stream);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'ncclBroadcast' is reached only by ranks where 'sub' [ddp-collective-in-rank-branch]

// Freeing a communicator is collective over its members, who all hold it.
void freeIfMember(float *buf, int n, int writers) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm sub;
  MPI_Comm_split(MPI_COMM_WORLD, rank < writers ? 0 : MPI_UNDEFINED, rank,
                 &sub);
  MPI_Allreduce(buf, buf, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  if (sub != MPI_COMM_NULL)
    MPI_Comm_free(&sub);
}

// Reported: a communicator every rank holds, freed on rank 0 only.
void freeOnRoot(MPI_Comm copy) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    MPI_Comm_free(&copy);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Comm_free' is reached only by ranks where 'rank == 0' [ddp-collective-in-rank-branch]

// The role arms of a pair benchmark, with an early exit for the processes
// outside the benchmark's communicator (rank -1): no member takes the exit,
// so every member reaches the allreduce (Intel MPI Benchmarks' one-sided
// benchmarks).
struct pair_info {
  MPI_Comm communicator;
  int rank;
  int pair0;
  int pair1;
};

void pairedTransfer(struct pair_info *info, float *buf, int n) {
  int peer = -1;
  if (info->rank == info->pair0) {
    peer = info->pair1;
  } else if (info->rank == info->pair1) {
    peer = info->pair0;
  } else if (info->rank < 0) {
    return;
  }
  MPI_Allreduce(buf, buf, n, MPI_FLOAT, MPI_SUM, info->communicator);
}

// Reported: an exit taken by members too (rank 0 of the communicator).
void pairedTransferMemberExit(struct pair_info *info, float *buf, int n) {
  int peer = -1;
  if (info->rank == info->pair0) {
    peer = info->pair1;
  } else if (info->rank == 0) {
    return;
  }
  MPI_Allreduce(buf, buf, n, MPI_FLOAT, MPI_SUM, info->communicator);
}
// CHECK-MESSAGES: :[[@LINE-2]]:3: warning: 'MPI_Allreduce' is skipped by ranks that leave early when {{.*}} [ddp-collective-in-rank-branch]

// Reported: the non-members leave, but the world needs them too.
void pairedTransferThenWorld(struct pair_info *info, float *buf, int n) {
  if (info->rank == info->pair0) {
    buf[0] = 1;
  } else if (info->rank < 0) {
    return;
  }
  MPI_Allreduce(buf, buf, n, MPI_FLOAT, MPI_SUM, info->communicator);
  MPI_Allreduce(buf, buf, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-3]]:3: warning: 'MPI_Allreduce' is skipped by ranks that leave early when {{.*}} [ddp-collective-in-rank-branch]

// A window's fence needs the processes of the communicator it was created
// over: under the membership test of that communicator, all of them.
struct window_info {
  MPI_Comm communicator;
  MPI_Win win;
  int rank;
};

void fenceOnMembers(struct window_info *info, float *buf, int n) {
  if (info->rank != -1) {
    MPI_Win_create(buf, n, 1, 0, info->communicator, &info->win);
    MPI_Win_fence(0, info->win);
  }
}

// Reported: the world's members outside the window's communicator skip it.
void fenceOnWorldRankZero(struct window_info *info, float *buf, int n,
                          MPI_Win world) {
  if (info->rank == 0)
    MPI_Win_fence(0, world);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Win_fence' is reached only by ranks where 'info->rank == 0' [ddp-collective-in-rank-branch]

// A process set in Horovod's style: the set's communicator (MPI_COMM_NULL
// outside the set), one split by the rank across sets, a getter that
// returns either, and a controller that runs its collectives on the set's.
// The null test is on a communicator the code under it reaches only through
// the controller.
struct SetContext {
  MPI_Comm comm;
  MPI_Comm crossComm;
  MPI_Comm getComm(bool cross) const { return cross ? crossComm : comm; }
};
struct SetController {
  SetContext *ctx;
  int *sizes;
  void initialize() { doInitialization(); }
  virtual void doInitialization() {
    MPI_Allgather(MPI_IN_PLACE, 1, MPI_INT, sizes, 1, MPI_INT, ctx->comm);
  }
};

void makeSet(SetContext *ctx, int members) {
  int world;
  MPI_Comm_rank(MPI_COMM_WORLD, &world);
  MPI_Group worldGroup, setGroup;
  MPI_Comm_group(MPI_COMM_WORLD, &worldGroup);
  int first[2] = {0, 1};
  MPI_Group_incl(worldGroup, members, first, &setGroup);
  MPI_Comm_create_group(MPI_COMM_WORLD, setGroup, 0, &ctx->comm);
  MPI_Comm_split(MPI_COMM_WORLD, world % 2, world, &ctx->crossComm);
}

void joinSet(SetContext *ctx, SetController *controller) {
  makeSet(ctx, 2);
  if (ctx->getComm(false) != MPI_COMM_NULL)
    controller->initialize();
}

// Non-members leave early: the same.
void joinSetOrLeave(SetContext *ctx, SetController *controller) {
  makeSet(ctx, 2);
  if (ctx->getComm(false) == MPI_COMM_NULL)
    return;
  controller->initialize();
}

// Reported: the members also broadcast in the world.
void joinSetThenWorld(SetContext *ctx, SetController *controller) {
  makeSet(ctx, 2);
  if (ctx->getComm(false) != MPI_COMM_NULL) {
    controller->initialize();
    MPI_Bcast(controller->sizes, 1, MPI_INT, 0, MPI_COMM_WORLD);
  }
}
// CHECK-MESSAGES: :[[@LINE-4]]:17: warning: 'MPI_Allgather' in 'initialize' is reached only by ranks where 'ctx->getComm(false) != MPI_COMM_NULL' [ddp-collective-in-rank-branch]

// Reported: a helper handed the world.
void joinSetWorldHelper(SetContext *ctx, float *buf, int n) {
  makeSet(ctx, 2);
  if (ctx->getComm(false) != MPI_COMM_NULL)
    broadcastOn(MPI_COMM_WORLD, buf, n);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Bcast' in 'broadcastOn' is reached only by ranks where 'ctx->getComm(false) != MPI_COMM_NULL' [ddp-collective-in-rank-branch]

// Reported: the world leaves its non-members behind after their exit.
void leaveSetThenWorld(SetContext *ctx, SetController *controller) {
  makeSet(ctx, 2);
  if (ctx->getComm(false) == MPI_COMM_NULL)
    return;
  controller->initialize();
  MPI_Bcast(controller->sizes, 1, MPI_INT, 0, MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-3]]:15: warning: 'MPI_Allgather' in 'initialize' is skipped by ranks that leave early when 'ctx->getComm(false) == MPI_COMM_NULL' [ddp-collective-in-rank-branch]
