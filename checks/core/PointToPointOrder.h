//===--- PointToPointOrder.h - Exchanges where every rank receives first ---===//
//
// A blocking receive followed by the send the peer waits for deadlocks when
// every rank of the exchange runs the same code: all of them wait in the
// receive, none reaches its send. Correct exchanges let one role send first
// (`if (rank < partner) { send; recv; } else { recv; send; }`), post the
// receive without waiting for it, or use a combined call (MPI_Sendrecv).
//
// The search is on the AST, linear in the size of the function: pairs of a
// blocking receive and a later send in the same block, straight-line.
//
//===----------------------------------------------------------------------===//

#ifndef DDP_CORE_POINTTOPOINTORDER_H
#define DDP_CORE_POINTTOPOINTORDER_H

#include "core/AnalysisContext.h"
#include <vector>

namespace clang {
class CallExpr;
class FunctionDecl;
} // namespace clang

namespace ddp {

struct ReceiveFirst {
  /// The blocking receive, and the send after it that the peer waits for.
  const clang::CallExpr *Recv = nullptr;
  const clang::CallExpr *Send = nullptr;
  std::string RecvName, SendName;
};

/// Receive-then-send pairs in \p FD that no rank of the exchange escapes:
/// none in an arm of a branch whose other arm sends, under a test for one
/// particular rank (`rank == 0`, `rank % 2 == 1`), or in a function that
/// also sends first somewhere.
std::vector<ReceiveFirst> findReceiveFirst(const clang::FunctionDecl *FD,
                                           AnalysisContext &Ctx);

} // namespace ddp

#endif // DDP_CORE_POINTTOPOINTORDER_H
