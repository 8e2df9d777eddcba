// RUN: %check_ddp_tidy %s ddp-collective-in-rank-branch %t -- -- %mock_flags

// No path enumeration: 40 sequential rank-dependent branches (2^40 paths)
// cost 40 comparisons. All are balanced but one, which gets the only
// warning. A helper with 40 sequential data-dependent branches, called on
// both sides of a rank test, is summarised once and compares equal.

#include <c10d/ProcessGroup.hpp>

using Tensors = std::vector<at::Tensor>;

// Every rank issues one allreduce whichever side it takes.
#define BALANCED(K)                                                            \
  if (rank % (K) == 0) {                                                       \
    pg->allreduce(t);                                                          \
  } else {                                                                     \
    pg->allreduce(t);                                                          \
  }

void fortyBranches(c10d::ProcessGroup *pg, Tensors &t) {
  int rank = pg->getRank();
  BALANCED(2)
  BALANCED(3)
  BALANCED(4)
  BALANCED(5)
  BALANCED(6)
  BALANCED(7)
  BALANCED(8)
  BALANCED(9)
  BALANCED(10)
  BALANCED(11)
  BALANCED(12)
  BALANCED(13)
  BALANCED(14)
  BALANCED(15)
  BALANCED(16)
  BALANCED(17)
  BALANCED(18)
  BALANCED(19)
  BALANCED(20)
  BALANCED(21)
  if (rank % 7 == 3)
    pg->broadcast(t);
  BALANCED(22)
  BALANCED(23)
  BALANCED(24)
  BALANCED(25)
  BALANCED(26)
  BALANCED(27)
  BALANCED(28)
  BALANCED(29)
  BALANCED(30)
  BALANCED(31)
  BALANCED(32)
  BALANCED(33)
  BALANCED(34)
  BALANCED(35)
  BALANCED(36)
  BALANCED(37)
  BALANCED(38)
  BALANCED(39)
  BALANCED(40)
}
// CHECK-MESSAGES: :[[@LINE-21]]:9: warning: 'broadcast' is reached only by ranks where 'rank % 7 == 3' [ddp-collective-in-rank-branch]

// 2^40 paths through the helper, each issuing 40 collectives of two kinds.
#define EITHER(I)                                                              \
  if (flags[I])                                                                \
    pg->allreduce(t);                                                          \
  else                                                                         \
    pg->broadcast(t);

void fortyChoices(c10d::ProcessGroup *pg, Tensors &t, const bool *flags) {
  EITHER(0)
  EITHER(1)
  EITHER(2)
  EITHER(3)
  EITHER(4)
  EITHER(5)
  EITHER(6)
  EITHER(7)
  EITHER(8)
  EITHER(9)
  EITHER(10)
  EITHER(11)
  EITHER(12)
  EITHER(13)
  EITHER(14)
  EITHER(15)
  EITHER(16)
  EITHER(17)
  EITHER(18)
  EITHER(19)
  EITHER(20)
  EITHER(21)
  EITHER(22)
  EITHER(23)
  EITHER(24)
  EITHER(25)
  EITHER(26)
  EITHER(27)
  EITHER(28)
  EITHER(29)
  EITHER(30)
  EITHER(31)
  EITHER(32)
  EITHER(33)
  EITHER(34)
  EITHER(35)
  EITHER(36)
  EITHER(37)
  EITHER(38)
  EITHER(39)
}

void sameHelperOnBothSides(c10d::ProcessGroup *pg, Tensors &t,
                           const bool *flags) {
  if (pg->getRank() == 0) {
    fortyChoices(pg, t, flags);
  } else {
    fortyChoices(pg, t, flags);
  }
}
