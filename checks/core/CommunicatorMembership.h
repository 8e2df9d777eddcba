//===--- CommunicatorMembership.h - Conditions a communicator's members share -===//
//
// A collective on a communicator needs every member of that communicator,
// not every rank. A branch whose condition is the same on every member of a
// communicator C takes all of C's members the same way, so a collective on C
// under it is called by all of C's members or by none, whatever the ranks
// outside C do. Such conditions are membership itself and the colour C was
// split by:
//
//   if (comm != MPI_COMM_NULL)            // C itself against the null handle
//   if (info->rank != -1)                 // the rank in C against "no rank"
//   if (color == 0) ... sub ...           // MPI_Comm_split(w, color, k, &sub)
//
// Collectives on other communicators under the same condition are compared
// as usual. The side of a membership test that only non-members take holds
// no member at all: an early exit there leaves none of them waiting.
//
//===----------------------------------------------------------------------===//

#ifndef DDP_CORE_COMMUNICATORMEMBERSHIP_H
#define DDP_CORE_COMMUNICATORMEMBERSHIP_H

#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <utility>

namespace clang {
class ASTContext;
class CallExpr;
class Expr;
class FunctionDecl;
class QualType;
class Stmt;
} // namespace clang

namespace ddp {

class AnalysisContext;

/// True for MPI_Comm and ncclComm_t (through any typedef of them), and for
/// MPI_Win: a window's collectives (MPI_Win_fence, MPI_Win_free) need the
/// processes of the group it was created over, as a communicator's do.
bool isCommunicatorType(clang::QualType T);
/// True for MPI_Win (through any typedef of it).
bool isWindowType(clang::QualType T);
/// True for CUDA's and HIP's stream and event handles (cudaStream_t,
/// cudaEvent_t, CUstream, CUevent, hipStream_t, hipEvent_t): a call given one
/// queues work on this process's device, or marks a point in that queue; it
/// writes no data through the handle. A kernel launch's configuration
/// (`<<<grid, block, shared, stream>>>`) is such a call.
bool isStreamType(clang::QualType T);

/// The communicator a call runs on: the MPI_Comm or ncclComm_t argument (or
/// the address of one, as MPI_Comm_free takes it) of a catalogued call, or
/// the only communicator a helper is given. Null if there is none, or (for a
/// helper) more than one.
const clang::Expr *communicatorOf(const clang::CallExpr *Call,
                                  bool Catalogued);

/// True if \p Comm is MPI_COMM_SELF, the communicator of the calling
/// process alone.
bool isSelfCommunicator(const clang::Expr *Comm, clang::ASTContext &AST);

/// True if \p A and \p B name the same object: the same variable, or the
/// same field of the same object (`info->comm` and `info->comm`).
bool sameObject(const clang::Expr *A, const clang::Expr *B);

class CommunicatorMembership {
public:
  /// Reads, in \p FD's body, which variables hold the rank in which
  /// communicator (MPI_Comm_rank(C, &r), ncclCommUserRank(C, &r)) and which
  /// communicators were split by which colour.
  CommunicatorMembership(const clang::FunctionDecl *FD, AnalysisContext &Ctx);

  /// True if every member of the communicator \p Comm evaluates \p Cond (the
  /// condition of a branch) alike.
  bool sharedByMembers(const clang::Expr *Cond, const clang::Expr *Comm) const;

  /// The value of \p Cond that only processes outside \p Comm see, if
  /// \p Cond tests membership: true for `rank < 0`, `rank == -1` and
  /// `comm == MPI_COMM_NULL`, false for `rank != -1`, `rank >= 0` and
  /// `if (comm)`. No member of \p Comm ever takes that side.
  std::optional<bool> nonMemberOutcome(const clang::Expr *Cond,
                                       const clang::Expr *Comm) const;

  /// If \p Cond tests a communicator, whichever it is, against the null
  /// handle (`ctx.comm() != MPI_COMM_NULL`, `if (comm)` on an ncclComm_t):
  /// that communicator and the value of \p Cond only non-members see.
  std::optional<std::pair<const clang::Expr *, bool>>
  nullTest(const clang::Expr *Cond) const;

private:
  void collect(const clang::Stmt *S);
  /// \p Rank holds this process's rank in \p Comm, or a negative value when
  /// it is not a member.
  bool isRankIn(const clang::Expr *Rank, const clang::Expr *Comm) const;
  bool isNullCommunicator(const clang::Expr *E) const;

  AnalysisContext &Ctx;
  /// (rank, communicator): MPI_Comm_rank(communicator, &rank).
  llvm::SmallVector<std::pair<const clang::Expr *, const clang::Expr *>, 2>
      RanksIn;
  /// (colour, communicator): MPI_Comm_split(parent, colour, key,
  /// &communicator).
  llvm::SmallVector<std::pair<const clang::Expr *, const clang::Expr *>, 2>
      SplitBy;
};

} // namespace ddp

#endif // DDP_CORE_COMMUNICATORMEMBERSHIP_H
