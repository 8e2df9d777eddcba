// RUN: %check_ddp_tidy %s ddp-collective-in-rank-branch %t -- -- %mock_flags

// Field sensitivity: an options struct that holds the rank is not
// rank-dependent as a whole. Aggregate-initialised, built by a constructor,
// copied, returned and passed, its `rank` field depends on the rank and its
// other fields keep their own facts. Each false positive has its twin.

#include <c10d/ProcessGroup.hpp>
#include <cstdlib>

using Tensors = std::vector<at::Tensor>;
void save(const Tensors &t);

struct TrainArgs {
  int rank;
  int batch_size;
  const char *path;
  int steps;
};

TrainArgs parseArgs(char **argv) {
  TrainArgs args{std::atoi(std::getenv("RANK")), 32, argv[1],
                 std::atoi(argv[2])};
  return args;
}

void train(c10d::ProcessGroup *pg, const TrainArgs &args, Tensors &grads) {
  for (int step = 0; step < args.steps; ++step) {
    pg->allreduce(grads)->wait();
    if (args.batch_size > 16)
      pg->allreduce(grads)->wait();
  }
  if (args.rank == 0) {
    save(grads);
    pg->broadcast(grads)->wait();
  }
}
// CHECK-MESSAGES: :[[@LINE-3]]:9: warning: 'broadcast' is reached only by ranks where 'args.rank == 0' [ddp-collective-in-rank-branch]

void runParsed(c10d::ProcessGroup *pg, char **argv, Tensors &grads) {
  TrainArgs args = parseArgs(argv);
  TrainArgs copy = args;
  train(pg, copy, grads);
}

// Designated initialisers, as C code writes them.
struct RunConfig {
  int world;
  int local_rank;
  int epochs;
};

void runEpochs(c10d::ProcessGroup *pg, Tensors &grads) {
  RunConfig config = {.world = pg->getSize(),
                      .local_rank = std::atoi(std::getenv("LOCAL_RANK")),
                      .epochs = 10};
  for (int e = 0; e < config.epochs; ++e)
    pg->allreduce(grads)->wait();
  for (int e = 0; e < config.local_rank; ++e)
    pg->allreduce(grads)->wait();
}
// CHECK-MESSAGES: :[[@LINE-2]]:9: warning: 'allreduce' is called a rank-dependent number of times: the loop condition 'e < config.local_rank' depends on the rank [ddp-collective-in-rank-branch]

// A class whose constructor stores its arguments.
class Options {
public:
  Options(int r, int s) : rank_(r), steps_(s) {}
  int rank_;
  int steps_;
};

void runOptions(c10d::ProcessGroup *pg, Tensors &grads, int steps) {
  Options opts(pg->getRank(), steps);
  for (int s = 0; s < opts.steps_; ++s)
    pg->allreduce(grads)->wait();
  if (opts.rank_ > 0)
    pg->allreduce(grads)->wait();
}
// CHECK-MESSAGES: :[[@LINE-2]]:9: warning: 'allreduce' is reached only by ranks where 'opts.rank_ > 0' [ddp-collective-in-rank-branch]

// Twin: a field given a rank-dependent value is rank-dependent wherever it
// is read, in any object of its class.
struct Shard {
  int first;
  int count;
};

Shard myShard(c10d::ProcessGroup *pg, int total) {
  int world = pg->getSize();
  return Shard{pg->getRank() * (total / world), total / world};
}

void reduceShard(c10d::ProcessGroup *pg, Tensors &grads, int total) {
  Shard s = myShard(pg, total);
  for (int i = 0; i < s.count; ++i)
    pg->allreduce(grads)->wait();
  for (int i = s.first; i < total; ++i)
    pg->allreduce(grads)->wait();
}
// CHECK-MESSAGES: :[[@LINE-2]]:9: warning: 'allreduce' is called a rank-dependent number of times: the loop condition 'i < total' depends on the rank [ddp-collective-in-rank-branch]
