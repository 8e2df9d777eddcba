//===--- OnceTests.h - Tests a counted loop passes exactly once -----------===//
//
// Benchmarks time a run after a warm-up in one loop, and start the clock,
// often after a barrier, in the iteration where the warm-up ends:
//
//   for (i = 0; i < skip + iters; i++) {
//     if (i == skip) { MPI_Barrier(comm); start = MPI_Wtime(); }
//     ...
//   }
//
// The counter takes each value of the range once, and the range runs past
// the value tested, so the test's then-branch runs exactly once per run of
// the loop (given iters > 0). Summaries mark such a test's decision (its key
// holds OnceMarker), and a loop whose iterations issue nothing else is its
// then-branch followed by the loop's exit.
//
//===----------------------------------------------------------------------===//

#ifndef DDP_CORE_ONCETESTS_H
#define DDP_CORE_ONCETESTS_H

#include "llvm/ADT/STLFunctionalExtras.h"

namespace clang {
class ASTContext;
class Expr;
class ForStmt;
class IfStmt;
class ParentMap;
class Stmt;
} // namespace clang

namespace ddp {

/// Whether \p If, in the function body \p Parents maps, tests `i == k` (a local
/// counter) in the body of `for (i = 0; i < k + n; ++i)` (or `n + k`, `i++`,
/// `i += 1`, `k == i`) whose body writes neither `i` nor `k`, and not inside
/// a loop nested in it.
bool runsOncePerLoop(const clang::IfStmt *If, const clang::ParentMap &Parents,
                     clang::ASTContext &AST);

/// Ranks taking turns: \p If tests `p == rank` in the body of `for (p = 0;
/// p < world_size; ++p)` whose body does not write `p`, and not inside a
/// loop nested in it (`for (p = 0; p < size; p++) { if (p == rank)
/// print(); MPI_Barrier(comm); }`). Every rank takes the then-branch in
/// exactly one iteration. Returns that loop, or null. \p Parents: the
/// function body's parent map. \p IsRank: whether an
/// expression is this process's rank; \p IsWorldSize: the number of ranks.
const clang::ForStmt *
takesTurns(const clang::IfStmt *If, const clang::ParentMap &Parents,
           llvm::function_ref<bool(const clang::Expr *)> IsRank,
           llvm::function_ref<bool(const clang::Expr *)> IsWorldSize);

} // namespace ddp

#endif // DDP_CORE_ONCETESTS_H
