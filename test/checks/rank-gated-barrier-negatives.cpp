// RUN: %check_ddp_tidy %s ddp-rank-gated-barrier %t -- -- %mock_flags

// Code that every rank runs through the same barriers: no warning, and the
// file is not changed.

#include <c10d/ProcessGroup.hpp>

void save(const at::Tensor &t);
void logLine(const char *msg);
void trainStep();

// Rank 0 saves, then everyone meets at the barrier after the 'if' (the fixed form).
void saveOnRootThenBarrier(c10d::ProcessGroup *pg, const at::Tensor &w) {
  int rank = pg->getRank();
  if (rank == 0) {
    save(w);
  }
  pg->barrier()->wait();
}

// A barrier on both sides of the rank branch: balanced.
void barrierOnBothSides(c10d::ProcessGroup *pg, const at::Tensor &w) {
  int rank = pg->getRank();
  if (rank == 0) {
    save(w);
    pg->barrier()->wait();
  } else {
    pg->barrier()->wait();
  }
}

// The world size is the same on every rank.
void barrierIfSeveralRanks(c10d::ProcessGroup *pg) {
  int world_size = pg->getSize();
  if (world_size > 1)
    pg->barrier()->wait();
}

// 0 <= rank < world_size: the condition holds on every rank.
void rankBelowWorldSize(c10d::ProcessGroup *pg) {
  int rank = pg->getRank();
  int world_size = pg->getSize();
  if (rank < world_size)
    pg->barrier()->wait();
}

// rank >= 0 holds on every rank.
void rankNonNegative(c10d::ProcessGroup *pg) {
  int rank = pg->getRank();
  if (rank >= 0)
    pg->barrier()->wait();
}

// A loop with a constant bound: every rank waits three times.
void uniformLoopBound(c10d::ProcessGroup *pg) {
  for (int i = 0; i < 3; ++i)
    pg->barrier()->wait();
}

// One round per rank, bounded by the world size: every rank runs every round.
void roundRobinSave(c10d::ProcessGroup *pg, const at::Tensor &w) {
  int rank = pg->getRank();
  for (int turn = 0; turn < pg->getSize(); ++turn) {
    if (turn == rank)
      save(w);
    pg->barrier()->wait();
  }
}

// Not this check's business: a rank-gated allreduce (ddp-collective-in-rank-branch).
void allreduceOnRoot(c10d::ProcessGroup *pg, std::vector<at::Tensor> &grads) {
  int rank = pg->getRank();
  if (rank == 0)
    pg->allreduce(grads)->wait();
}

// Point-to-point by rank, then a barrier everybody reaches.
void sendRecvThenBarrier(c10d::ProcessGroup *pg,
                         std::vector<at::Tensor> &buf) {
  int rank = pg->getRank();
  if (rank == 0)
    pg->send(buf, 1, 0)->wait();
  else
    pg->recv(buf, 0, 0)->wait();
  pg->barrier()->wait();
}

// A local 'rank' with a visible constant value: the same on every rank.
void constantLocalRank(c10d::ProcessGroup *pg) {
  int rank = 0;
  if (rank == 0)
    pg->barrier()->wait();
}

// The whole job stops early when it runs on a single process.
void earlyReturnOnWorldSize(c10d::ProcessGroup *pg, const at::Tensor &w) {
  if (pg->getSize() == 1)
    return;
  save(w);
  pg->barrier()->wait();
}

// Every rank leaves the same way: a barrier before the rank-dependent return.
void barrierBeforeRankReturn(c10d::ProcessGroup *pg, const at::Tensor &w) {
  int rank = pg->getRank();
  pg->barrier()->wait();
  if (rank != 0)
    return;
  save(w);
}

// Both exits synchronise before they leave.
void barrierOnBothExits(c10d::ProcessGroup *pg, const at::Tensor &w) {
  int rank = pg->getRank();
  if (rank != 0) {
    pg->barrier()->wait();
    return;
  }
  save(w);
  pg->barrier()->wait();
}

// Rank 0's decision is broadcast before anyone acts on it.
void broadcastStopFlag(c10d::ProcessGroup *pg, const at::Tensor &loss) {
  int rank = pg->getRank();
  std::vector<at::Tensor> stop{rank == 0 ? loss.isnan() : at::zeros({1})};
  pg->broadcast(stop)->wait();
  if (stop[0].is_nonzero())
    pg->barrier()->wait();
}

// A rank-dependent loop without communication, then one barrier for all.
void rankLoopThenBarrier(c10d::ProcessGroup *pg) {
  int rank = pg->getRank();
  for (int i = 0; i < rank; ++i)
    trainStep();
  pg->monitoredBarrier();
}

// A switch on the rank whose every case reaches the barrier once.
void switchBarrierInEveryCase(c10d::ProcessGroup *pg, const at::Tensor &w) {
  switch (pg->getRank()) {
  case 0:
    save(w);
    pg->barrier()->wait();
    break;
  default:
    pg->barrier()->wait();
    break;
  }
}

// Rank 0 logs every 100 steps; the per-step barrier is outside the 'if'.
void periodicRootLogging(c10d::ProcessGroup *pg, int steps) {
  int rank = pg->getRank();
  for (int step = 0; step < steps; ++step) {
    trainStep();
    if (rank == 0 && step % 100 == 0)
      logLine("progress");
    pg->barrier()->wait();
  }
}

// An early return on a value every rank shares (the epoch counter).
void earlyReturnOnEpoch(c10d::ProcessGroup *pg, int epoch, int maxEpochs) {
  if (epoch >= maxEpochs)
    return;
  trainStep();
  pg->barrier()->wait();
}

// Ranks 'continue' past other ranks' items; the barrier after the loop is for all.
void shardedLoopThenBarrier(c10d::ProcessGroup *pg, int items) {
  int rank = pg->getRank();
  int world = pg->getSize();
  for (int i = 0; i < items; ++i) {
    if (i % world != rank)
      continue;
    trainStep();
  }
  pg->barrier()->wait();
}

// Negative: a static helper whose only caller passes is_master = true on every rank.
static void maybeSave(c10d::ProcessGroup *pg, const at::Tensor &w,
                      bool is_master) {
  if (is_master) {
    save(w);
    pg->barrier()->wait();
  }
}
void alwaysMaster(c10d::ProcessGroup *pg, const at::Tensor &w) {
  maybeSave(pg, w, true);
}

// Rank 0's throw is caught locally, so every rank reaches the barrier.
void caughtThrowOnRoot(c10d::ProcessGroup *pg, const at::Tensor &w) {
  int rank = pg->getRank();
  try {
    if (rank == 0)
      throw 1;
    save(w);
  } catch (int) {
    logLine("save skipped");
  }
  pg->barrier()->wait();
}
