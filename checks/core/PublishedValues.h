//===--- PublishedValues.h - What the root of a broadcast publishes -------===//
//
// The commonest MPI set-up: rank 0 reads the command line or a file and
// broadcasts what it read; the others receive it and set the same variables
// from what they received.
//
//   if (rank == 0) {                     // the root
//     n = parse(argv); info[0] = n;
//     MPI_Bcast(info, 1, MPI_INT, 0, MPI_COMM_WORLD);
//     list = build(argv, n);
//   } else {                             // every other rank
//     MPI_Bcast(info, 1, MPI_INT, 0, MPI_COMM_WORLD);
//     n = info[0];
//     list = rebuild(info, n);
//   }
//
// Both sides begin their communication with the same broadcast from the
// root. What the other side then sets from data (not from a constant), to a
// value that is the same on all of its ranks, is taken to be what the root
// holds: the root published it. A side that sets a constant (`is_root =
// false`) publishes nothing. A plain copy of a received element (`n =
// info[0]`) is left to the exact rule (RankUniformity's Transfer::copy): it
// is the root's value only if the root wrote it into the buffer before the
// broadcast, which that rule checks. What the root rebuilds differently (a
// list from names where the others rebuild it from indices) cannot be
// compared: that the root's differs from what it sent is a bug this rule
// does not see.
//
//===----------------------------------------------------------------------===//

#ifndef DDP_CORE_PUBLISHEDVALUES_H
#define DDP_CORE_PUBLISHEDVALUES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace clang {
class CFGBlock;
class Expr;
} // namespace clang

namespace ddp {

class AnalysisContext;

/// A branch that tells a broadcast's root from the other ranks.
struct PublishingBranch {
  /// The blocks only the other ranks reach before the join, and those both
  /// sides reach (after an early exit, the join is further on than where
  /// the sides meet).
  llvm::DenseSet<const clang::CFGBlock *> OtherSide, Shared;
  /// Where the sides meet: blocks with a predecessor on each side.
  llvm::SmallVector<const clang::CFGBlock *, 2> Merges;
  /// Each side has a return of its own (`if (ok < 0) return ok;` after the
  /// broadcast of ok, on both): which of them returns does not tell the
  /// root from the others.
  bool BothReturn = false;
};

/// Whether the branch that ends \p Branch, joining at \p Join, tests whether
/// this rank is a broadcast's root (`rank == R`, `rank != R`, `!rank`), and
/// the first collective of each side (its blocks taken in \p Order, reverse
/// post-order) is a broadcast from R. \p IsRank says whether an expression,
/// at the branch, is exactly this process's rank.
std::optional<PublishingBranch>
publishingBranch(const clang::CFGBlock *Branch, const clang::CFGBlock *Join,
                 llvm::ArrayRef<const clang::CFGBlock *> Order,
                 llvm::function_ref<bool(const clang::Expr *)> IsRank,
                 AnalysisContext &Ctx);

} // namespace ddp

#endif // DDP_CORE_PUBLISHEDVALUES_H
