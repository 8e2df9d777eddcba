//===--- PointToPointOrder.h - Exchanges where ranks receive first --------===//
//
// A blocking receive followed by the send the peer waits for deadlocks when
// both ranks of the exchange wait first: none of them reaches its send.
// Correct exchanges let one role send first (`if (rank < partner) { send;
// recv; } else { recv; send; }`), post the receive without waiting for it
// before the send, or use a combined call (MPI_Sendrecv).
//
// Two shapes are found, both by a linear pass over the AST of a function:
//  - every rank runs the same code and receives before it sends: a blocking
//    receive and a later send, straight-line in one block, that no role
//    split reserves for some ranks;
//  - the arms of a role branch (`if (rank == 0) ... else if (rank == 1)`)
//    matched against each other by peer: rank 0's first blocking operation
//    is a receive from rank 1, and rank 1's a receive from rank 0.
//
// A receive blocks in MPI_Recv and MPI_Probe, in the wait of a posted
// receive (MPI_Irecv, then MPI_Wait or MPI_Waitall on its request), and in
// c10d's `recv(...)` once its Work is waited for (`->wait()`, in the same
// statement or later).
//
//===----------------------------------------------------------------------===//

#ifndef DDP_CORE_POINTTOPOINTORDER_H
#define DDP_CORE_POINTTOPOINTORDER_H

#include "core/AnalysisContext.h"
#include <cstdint>
#include <vector>

namespace clang {
class CallExpr;
class Expr;
class FunctionDecl;
} // namespace clang

namespace ddp {

struct ReceiveFirst {
  /// Where the rank blocks in a receive (the receive, or the wait of a
  /// posted one), and the send after it that the peer waits for.
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

/// Two arms of a role branch whose ranks each wait, before sending
/// anything, to receive from the other.
struct RoleDeadlock {
  struct Role {
    /// The rank that runs the arm.
    int64_t Rank = 0;
    /// The test that selects the arm (`rank == 1`, or a case's value), or
    /// null for an `else` or `default` that the rank reaches.
    const clang::Expr *Test = nullptr;
    /// Where the rank blocks, waiting for the other.
    const clang::CallExpr *Wait = nullptr;
    std::string WaitName;
    /// The first send after it, if any: only reached once the wait is over.
    const clang::CallExpr *Send = nullptr;
    std::string SendName;
  };
  Role First, Second;
};

/// Role branches in \p FD, `if`/`else if` chains and `switch`es on a value
/// \p IsRank takes for this process's rank, whose arms test it against
/// constants, in which two ranks each wait to receive from the other before
/// either sends. Peers are constants or expressions of the rank (`rank + 1`,
/// `1 - rank`, a local initialised with one) evaluated for the arm's rank; a
/// receive from any source matches nothing.
std::vector<RoleDeadlock>
findRoleDeadlocks(const clang::FunctionDecl *FD, AnalysisContext &Ctx,
                  llvm::function_ref<bool(const clang::Expr *)> IsRank);

} // namespace ddp

#endif // DDP_CORE_POINTTOPOINTORDER_H
