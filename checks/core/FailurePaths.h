//===--- FailurePaths.h - Paths that end the job with an error ------------===//
//
// A rank that fails ends the job: the launcher (or MPI_Abort itself) stops
// the other ranks, so a path that fails leaves nobody waiting and is not
// divergence. This decides, for one function's CFG:
//
//  - which blocks fail: they call abort(), exit(1), std::terminate,
//    MPI_Abort, an assertion's failure handler, or another function that
//    does not return and is not a clean exit, return a non-zero constant
//    from main (the process exits with an error), throw out of main or
//    of a noexcept function with no handler on the way (std::terminate),
//    return from a test on a failed GoogleTest assertion (ASSERT_EQ), or
//    throw out of the function from another framework's ASSERT_ macro;
//  - which branches are error tests: the status of a library call compared
//    with success, whose error side leaves the function with an error (it
//    returns the status or an error constant, throws, or fails);
//  - where the sides of a branch meet again once failing paths are set aside.
//
// The analysis of the sides of a rank-dependent branch leaves out a side
// that only fails; so do the regions that make values assigned under a
// branch rank-dependent.
//
//===----------------------------------------------------------------------===//

#ifndef DDP_CORE_FAILUREPATHS_H
#define DDP_CORE_FAILUREPATHS_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <cstdint>
#include <optional>
#include <vector>

namespace clang {
class ASTContext;
class CallExpr;
class CFG;
class CFGBlock;
class Expr;
class FunctionDecl;
} // namespace clang

namespace ddp {

class AnalysisContext;

/// True for a call that ends the process normally: exit(0), _exit(0),
/// _Exit(0), quick_exit(0), or a [[noreturn]] function of the user's that
/// calls one. Such an exit is an ordinary early exit, not a failure.
bool isCleanExit(const clang::CallExpr *Call, clang::ASTContext &AST);

/// The call in \p B that ends the job with an error, or null: a call of a
/// function that does not return and is not a clean exit, or of MPI_Abort.
const clang::CallExpr *failingCall(const clang::CFGBlock *B,
                                   clang::ASTContext &AST);

class FailurePaths {
public:
  FailurePaths(const clang::FunctionDecl *FD, const clang::CFG &Cfg,
               AnalysisContext &Ctx);

  /// \p B calls something that ends the job with an error.
  bool failsIn(const clang::CFGBlock *B) const {
    return Failing.contains(B);
  }

  /// If the branch that ends \p B is an error test (see the file comment),
  /// the index of its successor that handles the error.
  std::optional<unsigned> errorSide(const clang::CFGBlock *B) const;

  /// Successor \p Index of the branch \p B only fails: it is the error side
  /// of B's error test, or every path from it reaches a failing call.
  bool onlyFails(const clang::CFGBlock *B, unsigned Index) const;

  /// Where the sides of \p B that do not only fail meet again: the nearest
  /// common post-dominator of its successors once failing blocks and the
  /// error sides of error tests are set aside. Null if it cannot be told
  /// (a live side never reaches the exit, as in an endless loop); the caller
  /// then falls back to the ordinary post-dominator.
  const clang::CFGBlock *liveJoin(const clang::CFGBlock *B) const {
    return joinIn(Live, B);
  }

  /// As liveJoin, but setting aside only the paths that end the job (failing
  /// blocks, error sides that throw or fail): an error side that returns its
  /// status goes on in the caller, and is compared.
  const clang::CFGBlock *joinPastEnds(const clang::CFGBlock *B) const {
    return joinIn(PastEnds, B);
  }

  /// Blocks visited, for the analysis budget.
  uint64_t steps() const { return Steps; }

private:
  void findErrorTests(const clang::FunctionDecl *FD, AnalysisContext &Ctx);
  void computeMustFail();
  /// Immediate post-dominators (-1: none; the block cannot reach the exit
  /// without a dead block) and post-order numbers of the reverse CFG from
  /// the exit, by block ID, with some blocks taken as dead ends.
  struct PostDominators {
    std::vector<int> IPDom;
    std::vector<int> PostNumber;
  };
  void computeLivePostDominators();
  PostDominators
  postDominators(llvm::function_ref<bool(const clang::CFGBlock *)> Dead);
  const clang::CFGBlock *joinIn(const PostDominators &T,
                                const clang::CFGBlock *B) const;

  const clang::CFG &Cfg;
  /// Blocks with a failing call.
  llvm::DenseSet<const clang::CFGBlock *> Failing;
  /// Error tests and the index of their error side.
  llvm::DenseMap<const clang::CFGBlock *, unsigned> ErrorSides;
  /// The blocks of the error sides, up to where they leave the function.
  llvm::DenseSet<const clang::CFGBlock *> ErrorExits;
  /// By block ID: every path from the block reaches a failing call.
  std::vector<bool> MustFail;
  /// The error sides that throw or fail.
  llvm::DenseSet<const clang::CFGBlock *> EndingExits;
  /// Without the failing blocks and error exits; without the failing blocks
  /// and the error exits that end the job.
  PostDominators Live, PastEnds;
  /// Blocks by ID.
  std::vector<const clang::CFGBlock *> Blocks;
  uint64_t Steps = 0;
};

} // namespace ddp

#endif // DDP_CORE_FAILUREPATHS_H
