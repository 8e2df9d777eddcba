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

namespace clang {
class ASTContext;
class IfStmt;
class Stmt;
} // namespace clang

namespace ddp {

/// Whether \p If, in the function body \p Body, tests `i == k` (a local
/// counter) in the body of `for (i = 0; i < k + n; ++i)` (or `n + k`, `i++`,
/// `i += 1`, `k == i`) whose body writes neither `i` nor `k`, and not inside
/// a loop nested in it.
bool runsOncePerLoop(const clang::IfStmt *If, const clang::Stmt *Body,
                     clang::ASTContext &AST);

} // namespace ddp

#endif // DDP_CORE_ONCETESTS_H
