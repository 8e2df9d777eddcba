// RUN: %check_ddp_tidy %s ddp-collective-in-rank-branch %t -- -- %mock_flags

// Code that branches on the rank but cannot hang: every rank issues the same
// collectives in the same order. The check must stay silent on all of it.

#include <c10d/ProcessGroup.hpp>
#include <cstdio>
#include <stdexcept>

using Tensors = std::vector<at::Tensor>;
void logLine(const char *msg);
void work(int item);
at::Tensor localLoss(int rank);

// Rank 0 prints; the allreduce comes after the branch.
void printThenReduce(c10d::ProcessGroup *pg, Tensors &grads) {
  int rank = pg->getRank();
  if (rank == 0)
    std::printf("step done\n");
  pg->allreduce(grads);
}

// Rank 0 saves a checkpoint; every rank then broadcasts.
void saveThenBroadcast(c10d::ProcessGroup *pg, Tensors &params) {
  if (pg->getRank() == 0)
    torch::save(params[0], "/tmp/ckpt.pt");
  pg->broadcast(params);
}

// Point-to-point on the rank is asymmetric by design.
void sendRecv(c10d::ProcessGroup *pg, Tensors &buf) {
  int rank = pg->getRank();
  if (rank == 0)
    pg->send(buf, 1, 0)->wait();
  else
    pg->recv(buf, 0, 0)->wait();
}

// A branch on the world size is the same on every rank.
void worldSizeGuard(c10d::ProcessGroup *pg, Tensors &grads) {
  int world_size = pg->getSize();
  if (world_size > 1)
    pg->allreduce(grads);
}

// rank < world_size holds on every rank.
void rankBelowWorldSize(c10d::ProcessGroup *pg, Tensors &grads) {
  int rank = pg->getRank();
  int world_size = pg->getSize();
  if (rank < world_size)
    pg->allreduce(grads);
}

// rank < n holds on every rank when n is the world size, whatever its name.
void rankBelowSizeNamedN(c10d::ProcessGroup *pg, Tensors &grads) {
  int rank = pg->getRank();
  int n = pg->getSize();
  if (rank < n)
    pg->allreduce(grads);
}

// rank >= 0 holds on every rank.
void rankNonNegative(c10d::ProcessGroup *pg, Tensors &grads) {
  int rank = pg->getRank();
  if (rank >= 0)
    pg->allreduce(grads);
}

// A sanity check that no rank fails.
void rankNegativeThrows(c10d::ProcessGroup *pg, Tensors &grads) {
  int rank = pg->getRank();
  if (rank < 0)
    throw std::runtime_error("bad rank");
  pg->allreduce(grads);
}

// Both sides issue the same collective; one side also logs.
void sameSequenceBothSides(c10d::ProcessGroup *pg, Tensors &grads) {
  int rank = pg->getRank();
  if (rank == 0) {
    logLine("reducing");
    pg->allreduce(grads);
  } else {
    pg->allreduce(grads);
  }
}

// Rank-dependent tensor contents, then a broadcast every rank joins.
void rankDependentDataThenBroadcast(c10d::ProcessGroup *pg) {
  int rank = pg->getRank();
  Tensors params{rank == 0 ? at::ones({4}) : at::zeros({4})};
  pg->broadcast(params);
}

// The store is hosted by rank 0, but every rank constructs it.
void storeHostedByRoot(c10d::ProcessGroup *pg, int world) {
  int rank = pg->getRank();
  c10d::TCPStore store("127.0.0.1", 29500, world, rank == 0);
}

// Early stopping on a loss that every rank has allreduced first.
void earlyStopOnReducedLoss(c10d::ProcessGroup *pg, Tensors &grads,
                            int epochs) {
  int rank = pg->getRank();
  for (int e = 0; e < epochs; ++e) {
    Tensors v{localLoss(rank)};
    pg->allreduce(v)->wait();
    if (v[0].item<float>() < 0.1f)
      break;
    pg->allreduce(grads);
  }
}

// A loop with a bound that is the same on every rank.
void uniformLoop(c10d::ProcessGroup *pg, Tensors &grads, int epochs) {
  for (int e = 0; e < epochs; ++e)
    pg->allreduce(grads);
}

// A condition on a configuration value that every rank reads alike.
struct Config {
  bool sync_every_step;
  int accumulation;
};
void configCondition(c10d::ProcessGroup *pg, Tensors &grads,
                     const Config &cfg, int step) {
  if (cfg.sync_every_step || step % cfg.accumulation == 0)
    pg->allreduce(grads);
}

// A local named `rank` that holds a constant is not a rank.
void localNamedRank(c10d::ProcessGroup *pg, Tensors &grads) {
  int rank = 0;
  if (rank == 0)
    pg->allreduce(grads);
}

// A branch on the rank with no collective anywhere.
void rankBranchNoCollective(c10d::ProcessGroup *pg) {
  if (pg->getRank() == 0)
    logLine("I am rank 0");
  else
    logLine("I am a worker");
}

// Rank-dependent amounts of local work; the collective after both rejoin.
void unevenWorkThenReduce(c10d::ProcessGroup *pg, Tensors &grads) {
  int rank = pg->getRank();
  if (rank == 0) {
    for (int i = 0; i < 10; ++i)
      work(i);
  } else {
    work(rank);
  }
  pg->allreduce(grads);
}

// A rank-strided loop over local items, then a collective after it.
void rankStridedLoop(c10d::ProcessGroup *pg, Tensors &grads, int items) {
  int rank = pg->getRank();
  int world_size = pg->getSize();
  for (int i = rank; i < items; i += world_size)
    work(i);
  pg->allreduce(grads);
}

// The buffer differs by rank; the collective does not.
void bufferChosenByRank(c10d::ProcessGroup *pg, Tensors &a, Tensors &b) {
  int rank = pg->getRank();
  pg->broadcast(rank == 0 ? a : b);
}

// A switch on the rank where every case issues the same collective.
void switchSameCollective(c10d::ProcessGroup *pg, Tensors &grads) {
  switch (pg->getRank()) {
  case 0:
    logLine("root");
    pg->allreduce(grads);
    break;
  default:
    pg->allreduce(grads);
    break;
  }
}

// Every rank broadcasts once per source; only the source fills the buffer.
void broadcastFromEachSource(c10d::ProcessGroup *pg, Tensors &buf) {
  int rank = pg->getRank();
  int world_size = pg->getSize();
  for (int src = 0; src < world_size; ++src) {
    if (src == rank)
      buf[0] = at::ones({4});
    c10d::BroadcastOptions opts;
    opts.rootRank = src;
    pg->broadcast(buf, opts);
  }
}

// Barriers under a rank condition belong to ddp-rank-gated-barrier.
void rankGatedBarrier(c10d::ProcessGroup *pg) {
  if (pg->getRank() == 0) {
    logLine("saving");
    pg->barrier()->wait();
  }
}

// Same for monitoredBarrier, after an early return.
void monitoredBarrierAfterReturn(c10d::ProcessGroup *pg) {
  int rank = pg->getRank();
  if (rank != 0)
    return;
  pg->monitoredBarrier();
}

// A user type's method that is not a collective unless configured (see
// collective-in-rank-branch-option-collectives.cpp).
struct MyComm {
  void sync();
};
void unconfiguredCollective(c10d::ProcessGroup *pg, MyComm &comm) {
  if (pg->getRank() == 0)
    comm.sync();
}

// A rank-dependent condition that is the same on every rank after an
// allreduce of its input (a MAX of the local counts).
void loopOverReducedCount(c10d::ProcessGroup *pg, Tensors &grads) {
  Tensors count{torch::tensor(pg->getRank() + 1.0)};
  c10d::AllreduceOptions opts;
  opts.reduceOp = c10d::ReduceOp::MAX;
  pg->allreduce(count, opts)->wait();
  for (int i = 0; i < count[0].item<int>(); ++i)
    pg->allreduce(grads);
}

// A switch that falls through: every rank still reduces exactly once.
void switchFallthrough(c10d::ProcessGroup *pg, Tensors &grads) {
  switch (pg->getRank()) {
  case 0:
    logLine("root");
    [[fallthrough]];
  case 1:
    pg->allreduce(grads);
    break;
  default:
    pg->allreduce(grads);
  }
}

// Rank 0 reduces and continues; the others reduce too.
void reduceThenContinue(c10d::ProcessGroup *pg, Tensors &grads, int steps) {
  for (int s = 0; s < steps; ++s) {
    if (pg->getRank() == 0) {
      pg->allreduce(grads);
      continue;
    }
    pg->allreduce(grads);
  }
}

// A helper returns an allreduced loss: the same on every rank, so stopping on it is uniform.
float meanLoss(c10d::ProcessGroup *pg, float local) {
  std::vector<at::Tensor> v{torch::tensor(local)};
  pg->allreduce(v)->wait();
  return v[0].item<float>() / pg->getSize();
}
void stopOnMeanLoss(c10d::ProcessGroup *pg, Tensors &grads) {
  float local = pg->getRank() * 0.5f;
  if (meanLoss(pg, local) < 0.1f)
    return;
  pg->allreduce(grads);
}

// A LoRA config's 'rank' is not a process rank (its class holds no world size or group).
struct LoraConfig {
  int rank;
  float alpha;
};
void loraRankField(c10d::ProcessGroup *pg, Tensors &grads,
                   const LoraConfig &lora) {
  if (lora.rank > 8)
    pg->allreduce(grads);
}

// A throw on rank 0 caught in the same function: every rank goes on to the allreduce.
void throwCaughtLocally(c10d::ProcessGroup *pg, Tensors &grads) {
  try {
    if (pg->getRank() == 0)
      throw std::runtime_error("rank 0 only");
  } catch (const std::exception &) {
    logLine("recovered");
  }
  pg->allreduce(grads);
}

// A model run on rank-dependent input is still the same model: its
// parameter list (and so the number of allreduces) is the same everywhere.
struct Net {
  at::Tensor forward(const at::Tensor &x);
  std::vector<at::Tensor> parameters();
};
void forwardDoesNotChangeTheModel(c10d::ProcessGroup *pg, Net &net) {
  at::Tensor x = torch::tensor(pg->getRank());
  net.forward(x);
  for (at::Tensor &p : net.parameters()) {
    Tensors grad{p};
    pg->allreduce(grad);
  }
}
