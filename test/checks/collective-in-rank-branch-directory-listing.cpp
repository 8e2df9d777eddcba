// RUN: %check_ddp_tidy %s ddp-collective-in-rank-branch %t -- -- %mock_flags

// What a directory holds is each node's own: a job that resumes from the
// newest checkpoint it finds, where only rank 0 writes checkpoints, starts
// from a different step on the nodes that never saw them, and every
// collective after that is misaligned. Listings (directory_iterator,
// opendir/readdir, glob) are rank-local like exists() and stat(), unless the
// result is broadcast.

#include <c10d/ProcessGroup.hpp>

#include <algorithm>
#include <dirent.h>
#include <filesystem>
#include <glob.h>
#include <string>

using PG = c10::intrusive_ptr<c10d::ProcessGroup>;
using Tensors = std::vector<at::Tensor>;
constexpr int kSteps = 100;
void save(int step);

int newestCheckpoint(const std::string &dir) {
  int newest = -1;
  for (const auto &entry : std::filesystem::directory_iterator(dir))
    newest = std::max(newest, std::stoi(entry.path().stem().string()));
  return newest;
}

void resumeFromNewest(PG pg, Tensors &grads) {
  int start = newestCheckpoint("/checkpoints") + 1;
  for (int step = start; step < kSteps; ++step) {
    pg->allreduce(grads)->wait();
    if (pg->getRank() == 0)
      save(step);
  }
}
// CHECK-NOTES: :[[@LINE-5]]:9: warning: 'allreduce' is called a rank-dependent number of times: the loop condition 'step < kSteps' depends on data local to each rank [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-7]]:26: note: this loop condition depends on data local to each rank
// CHECK-NOTES: :[[@LINE-8]]:19: note: 'step' is set from 'start' here
// CHECK-NOTES: :[[@LINE-10]]:15: note: 'start' is set from 'newestCheckpoint("/checkpoints") + 1' here
// CHECK-NOTES: :[[@LINE-15]]:3: note: 'newestCheckpoint' returns a rank-dependent value here
// CHECK-NOTES: :[[@LINE-17]]:14: note: 'newest' is set from 'std::max(newest, std::stoi(entry.path().stem(...' here
// CHECK-NOTES: :[[@LINE-19]]:28: note: 'std::filesystem::directory_iterator(dir)' lists a directory of this rank's file system

// The same with opendir/readdir: the number of files found.
int countCheckpoints(const char *dir) {
  int found = 0;
  if (DIR *d = opendir(dir)) {
    while (readdir(d) != nullptr)
      ++found;
    closedir(d);
  }
  return found;
}

void skipWhenResumed(PG pg, Tensors &weights) {
  if (countCheckpoints("/checkpoints") > 0)
    return;
  pg->broadcast(weights)->wait();
}
// CHECK-NOTES: :[[@LINE-2]]:7: warning: 'broadcast' is skipped by ranks that leave early when 'countCheckpoints("/checkpoints") > 0' [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-5]]:7: note: this condition depends on data local to each rank
// CHECK-NOTES: :[[@LINE-10]]:3: note: 'countCheckpoints' returns a rank-dependent value here
// CHECK-NOTES: :[[@LINE-14]]:7: note: 'found' is assigned under a rank-dependent condition here
// CHECK-NOTES: :[[@LINE-16]]:12: note: 'readdir(d)' lists a directory of this rank's file system
// (Through the loop's test, the first branch whose join 'found' meets.)
// CHECK-NOTES: :[[@LINE-9]]:5: note: ranks where 'countCheckpoints("/checkpoints") > 0' leave here (return) and never reach 'broadcast'

// glob() writes what it found into its last argument.
void syncEachShard(PG pg, Tensors &t) {
  glob_t shards;
  glob("/data/shard-*", 0, nullptr, &shards);
  for (size_t i = 0; i < shards.gl_pathc; ++i)
    pg->allreduce(t)->wait();
  globfree(&shards);
}
// CHECK-NOTES: :[[@LINE-3]]:9: warning: 'allreduce' is called a rank-dependent number of times: the loop condition 'i < shards.gl_pathc' depends on data local to each rank [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-5]]:22: note: this loop condition depends on data local to each rank
// CHECK-NOTES: :[[@LINE-7]]:3: note: 'glob("/data/shard-*", 0, nullptr, &shards)' lists a directory of this rank's file system

// Silent: rank 0 looks, and broadcasts the step to resume from.
void resumeFromBroadcastStep(PG pg, Tensors &grads) {
  int newest = pg->getRank() == 0 ? newestCheckpoint("/checkpoints") : 0;
  at::Tensor found = torch::tensor(newest);
  Tensors box{found};
  pg->broadcast(box)->wait();
  int start = static_cast<int>(found.item<double>()) + 1;
  for (int step = start; step < kSteps; ++step)
    pg->allreduce(grads)->wait();
}

// Silent: listing a directory to log it, without a collective that depends
// on what was found.
void logCheckpoints(PG pg, Tensors &grads) {
  for (const auto &entry : std::filesystem::directory_iterator("/ckpt"))
    save(entry.path().string().size());
  pg->allreduce(grads)->wait();
}
