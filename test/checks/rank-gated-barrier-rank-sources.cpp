// RUN: %check_ddp_tidy %s ddp-rank-gated-barrier %t -- -- %mock_flags

// Where the rank comes from: the environment, a field set in a constructor, a
// parameter named like a rank, a struct member. Warnings with all their notes.

#include <c10d/ProcessGroup.hpp>
#include <cstdlib>

void save(const at::Tensor &t);

// torchrun's RANK variable, read with getenv.
void envRankGate(c10d::ProcessGroup *pg, const at::Tensor &w) {
  int rank = std::atoi(std::getenv("RANK"));
  if (rank == 0) {
    save(w);
    pg->barrier()->wait();
  }
}
// CHECK-NOTES: :[[@LINE-3]]:9: warning: 'barrier' is reached only by ranks where 'rank == 0' [ddp-rank-gated-barrier]
// CHECK-NOTES: :[[@LINE-6]]:7: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-8]]:14: note: 'rank' is set from 'std::atoi(std::getenv("RANK"))' here
// CHECK-NOTES: :[[@LINE-6]]:9: note: every rank must call 'barrier'; move it after the 'if'
// CHECK-FIXES:      {{^}}  int rank = std::atoi(std::getenv("RANK"));{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (rank == 0) {{{$}}
// CHECK-FIXES-NEXT: {{^}}    save(w);{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-FIXES-NEXT: {{^}}  pg->barrier()->wait();{{$}}

// A field set from getRank() in the constructor, tested in a method.
class Trainer {
public:
  explicit Trainer(c10d::ProcessGroup *pg) : pg_(pg), rank_(pg->getRank()) {}
  void checkpoint(const at::Tensor &w) {
    if (rank_ == 0) {
      save(w);
      pg_->barrier()->wait();
    }
  }

private:
  c10d::ProcessGroup *pg_;
  int rank_;
};
// CHECK-NOTES: :[[@LINE-8]]:12: warning: 'barrier' is reached only by ranks where 'rank_ == 0' [ddp-rank-gated-barrier]
// CHECK-NOTES: :[[@LINE-11]]:9: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-14]]:61: note: 'rank_' is set from 'pg->getRank()' here
// CHECK-NOTES: :[[@LINE-11]]:12: note: every rank must call 'barrier'; move it after the 'if'
// CHECK-FIXES:      {{^}}    if (rank_ == 0) {{{$}}
// CHECK-FIXES-NEXT: {{^}}      save(w);{{$}}
// CHECK-FIXES-NEXT: {{^}}    }{{$}}
// CHECK-FIXES-NEXT: {{^}}    pg_->barrier()->wait();{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}

// A parameter named 'is_master', set by a caller outside this file.
void saveIfMaster(c10d::ProcessGroup *pg, const at::Tensor &w, bool is_master) {
  if (is_master) {
    save(w);
    pg->barrier()->wait();
  }
}
// CHECK-NOTES: :[[@LINE-3]]:9: warning: 'barrier' is reached only by ranks where 'is_master' [ddp-rank-gated-barrier]
// CHECK-NOTES: :[[@LINE-6]]:7: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-8]]:69: note: 'is_master' is taken to hold the rank because of its name; its value is set outside the code analysed
// CHECK-NOTES: :[[@LINE-6]]:9: note: every rank must call 'barrier'; move it after the 'if'
// CHECK-FIXES:      {{^}}  if (is_master) {{{$}}
// CHECK-FIXES-NEXT: {{^}}    save(w);{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-FIXES-NEXT: {{^}}  pg->barrier()->wait();{{$}}

// The rank stored in a member of a plain struct.
struct DistInfo {
  int id;
  int world;
};
void structMemberRank(c10d::ProcessGroup *pg, const at::Tensor &w) {
  DistInfo info;
  info.id = pg->getRank();
  info.world = pg->getSize();
  if (info.id == 0) {
    save(w);
    pg->barrier()->wait();
  }
}
// CHECK-NOTES: :[[@LINE-3]]:9: warning: 'barrier' is reached only by ranks where 'info.id == 0' [ddp-rank-gated-barrier]
// CHECK-NOTES: :[[@LINE-6]]:7: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-9]]:13: note: 'id' is set from 'pg->getRank()' here
// CHECK-NOTES: :[[@LINE-6]]:9: note: every rank must call 'barrier'; move it after the 'if'
// CHECK-FIXES:      {{^}}  if (info.id == 0) {{{$}}
// CHECK-FIXES-NEXT: {{^}}    save(w);{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-FIXES-NEXT: {{^}}  pg->barrier()->wait();{{$}}

// Negative: WORLD_SIZE is the same on every rank.
void envWorldSizeGate(c10d::ProcessGroup *pg) {
  int world = std::atoi(std::getenv("WORLD_SIZE"));
  if (world > 1)
    pg->barrier()->wait();
}

// Negative: a field set from getSize() in the constructor.
class Syncer {
public:
  explicit Syncer(c10d::ProcessGroup *pg) : pg_(pg), world_size_(pg->getSize()) {}
  void maybeSync() {
    if (world_size_ > 1)
      pg_->barrier()->wait();
  }

private:
  c10d::ProcessGroup *pg_;
  int world_size_;
};

// Negative: a constant global named 'rank' with a constant value is not a rank.
const int rank = 0;
void constGlobalNamedRank(c10d::ProcessGroup *pg) {
  if (rank == 0)
    pg->barrier()->wait();
}

// Negative: a name that merely contains "rank" ('rank_count') is not a rank.
void paramNamedRankCount(c10d::ProcessGroup *pg, int rank_count) {
  if (rank_count > 1)
    pg->barrier()->wait();
}
