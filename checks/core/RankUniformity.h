//===--- RankUniformity.h - Which values and branches depend on the rank --===//
//
// A forward data-flow analysis on the Clang CFG, modelled on LLVM's
// UniformityAnalysis with ranks in place of GPU threads. A value is uniform
// (equal on every rank) or divergent (rank-dependent). Divergence enters at
// the rank sources, flows through assignments, arithmetic, calls, members and
// captures, and through control: a value assigned under a rank-dependent
// branch is divergent afterwards. Collectives reset it: the buffer of an
// allreduce or broadcast holds the same value on every rank.
//
//===----------------------------------------------------------------------===//

#ifndef DDP_CORE_RANKUNIFORMITY_H
#define DDP_CORE_RANKUNIFORMITY_H

#include "core/AnalysisContext.h"
#include "core/Dependence.h"
#include "core/DivergenceState.h"
#include "core/FreshAllocations.h"
#include "core/PublishedValues.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <vector>

namespace clang {
class CFG;
class CFGBlock;
class CXXMemberCallExpr;
class Expr;
class FunctionDecl;
class ParmVarDecl;
class ValueDecl;
class VarDecl;
class Stmt;
} // namespace clang

namespace ddp {

class FailurePaths;

/// A rank-dependent (or conditionally rank-dependent) branch that controls a
/// block: the block is in the region between the branch and its join.
struct ControllingBranch {
  const clang::CFGBlock *Branch;
  Dep Why;
  bool operator==(const ControllingBranch &O) const {
    return Branch == O.Branch && Why == O.Why;
  }
};

/// For each block under rank-dependent branches, those branches.
using ControlDivergence =
    llvm::DenseMap<const clang::CFGBlock *,
                   llvm::SmallVector<ControllingBranch, 2>>;

/// For each join (the immediate post-dominator of a rank-dependent branch),
/// the branches whose sides meet there.
using JoinPoints =
    llvm::DenseMap<const clang::CFGBlock *,
                   llvm::SmallVector<ControllingBranch, 1>>;

class RankUniformity {
public:
  /// \p Failures says which blocks end the job with an error: they do not
  /// join at the exit.
  RankUniformity(const clang::FunctionDecl *FD, clang::CFG &Cfg,
                 const FailurePaths &Failures, AnalysisContext &Ctx);

  /// Runs the data flow to a fixed point. Blocks in \p Control are under a
  /// rank-dependent branch: what they assign is divergent from the branch's
  /// join on (\p Joins), unless a collective made it the same on every rank
  /// on every way into the join. Inside the region the ranks present all
  /// took the same side, so the values there keep their own divergence.
  /// Returns the number of block transfers it took.
  uint64_t run(const ControlDivergence &Control, const JoinPoints &Joins);

  /// How the branch that ends \p B depends on the rank (empty if not).
  Dep branchDivergence(const clang::CFGBlock *B) const {
    return Branches.lookup(B);
  }
  /// The branches that depend on the rank, or on the function's inputs.
  const llvm::DenseMap<const clang::CFGBlock *, Dep> &
  divergentBranches() const {
    return Branches;
  }

  /// How \p E, evaluated at the end of \p B, depends on the rank.
  Dep divergenceAt(const clang::CFGBlock *B, const clang::Expr *E) const;

  /// After run(): how the function's result and what it writes through its
  /// parameters depend on its inputs.
  const DepSummary &summary() const { return Summary; }
  /// After run(): the calls of functions with bodies, with the dependence
  /// of each argument.
  const llvm::MapVector<const clang::Expr *, CallRecord> &calls() const {
    return Calls;
  }
  /// After run(): fields, globals and captured variables written with
  /// values that depend on the inputs.
  const llvm::MapVector<const clang::ValueDecl *, Dep> &escapes() const {
    return Escapes;
  }

  /// What the transfer functions record while they run.
  struct Recording {
    Dep Return;
    llvm::MapVector<const clang::Expr *, CallRecord> *Calls;
    llvm::MapVector<const clang::ValueDecl *, Dep> *Escapes;
    /// Publishing branches both of whose sides return: a return under one
    /// does not tell its ranks from the others (see PublishedValues.h).
    const llvm::DenseSet<const clang::CFGBlock *> *MirroredReturns = nullptr;
    /// Which of the function's values are new blocks.
    FreshAllocations *Fresh = nullptr;
    /// The fields and globals the function writes (see publishOutliving).
    llvm::SmallSetVector<const clang::ValueDecl *, 8> *Outliving = nullptr;
    /// The function returns a value in one place only: what it returns
    /// there is all it returns.
    bool SingleReturn = false;
  };

  /// The expression the branch that ends \p B tests, or null.
  static const clang::Expr *branchCondition(const clang::CFGBlock *B);

  /// The memory its block states hold, in bytes.
  size_t memoryBytes() const;

  /// Blocks in reverse post-order from the entry.
  const std::vector<const clang::CFGBlock *> &order() const { return RPO; }

private:
  void collectAliases(const clang::VarDecl *Container, const clang::Stmt *S);
  /// `opts.setOutput(buf, n)`: a collective given \p opts fills `buf`.
  void collectOutputBinding(const clang::CXXMemberCallExpr *Call);
  /// What the blocks under each rank-dependent branch assign, with the first
  /// statement that does, leaving out variables declared there (they do not
  /// outlive the branch).
  void collectAssigned(const ControlDivergence &Control);

  struct Assignment {
    const clang::ValueDecl *Target;
    const clang::Stmt *Anchor;
    /// Every assignment in the region writes an element of a sequence
    /// container: its length is the same on every rank after the join.
    bool ElementsOnly = false;
  };
  /// Whether \p Param is synchronised on every path that returns one status,
  /// and every other path returns another: the caller learns of the paths
  /// that did not synchronise it.
  bool syncedOnSuccess(const clang::ParmVarDecl *Param) const;
  /// Finds the loops whose every iteration has a collective write a
  /// variable (a buffer sent in chunks), for ChunkedExits.
  void collectChunkedLoops();

  /// At the join \p Join: what the regions of \p Branches assigned is
  /// divergent, unless the root of a broadcast published it.
  void applyJoins(DivergenceState &State, const clang::CFGBlock *Join,
                  llvm::ArrayRef<ControllingBranch> Branches);
  /// The branch's sides, if it tells a broadcast's root from the other
  /// ranks (see PublishedValues.h).
  const PublishingBranch *publishing(const clang::CFGBlock *Branch,
                                     const clang::CFGBlock *Join);
  /// What \p A's target holds at \p At, the join of a publishing branch or
  /// where its sides meet: what the other ranks set it to from data, if that
  /// is the same on all of them.
  std::optional<Dep> publishedValue(const Assignment &A,
                                    const clang::CFGBlock *At,
                                    const clang::CFGBlock *Branch,
                                    const PublishingBranch &P);
  /// Whether \p Blocks, the other side of \p Branch, write \p Target with
  /// something other than a constant (`is_root = 0` is not received data).
  bool writtenFromData(const clang::ValueDecl *Target,
                       const clang::CFGBlock *Branch,
                       const llvm::DenseSet<const clang::CFGBlock *> &Blocks);

  const clang::FunctionDecl *FD;
  AnalysisContext &Ctx;
  const FailurePaths &Failures;
  const clang::CFGBlock *Exit = nullptr;
  unsigned ExitId = 0;
  std::vector<const clang::CFGBlock *> RPO;
  std::vector<DivergenceState> Out;
  std::vector<bool> Visited;
  /// Containers built from named tensors (`std::vector<at::Tensor> ts{t}`),
  /// and options objects given an output buffer (`opts.setOutput(buf, n)`):
  /// a collective on the container or the options synchronises those too.
  llvm::DenseMap<const clang::ValueDecl *,
                 llvm::SmallVector<const clang::ValueDecl *, 2>>
      Aliases;
  /// The block that declares each local variable.
  llvm::DenseMap<const clang::VarDecl *, const clang::CFGBlock *> DeclBlocks;
  llvm::DenseMap<const clang::CFGBlock *, Dep> Branches;
  /// A loop that sends buffers in chunks: its test, and the variables a
  /// collective writes on every iteration. Keyed by the block the test
  /// leaves to, where those are synchronised if the test is uniform.
  struct ChunkedLoop {
    const clang::CFGBlock *Test;
    llvm::SmallVector<const clang::VarDecl *, 2> Buffers;
  };
  llvm::DenseMap<const clang::CFGBlock *, ChunkedLoop> ChunkedExits;
  DepSummary Summary;
  llvm::MapVector<const clang::Expr *, CallRecord> Calls;
  llvm::MapVector<const clang::ValueDecl *, Dep> Escapes;
  /// The fields and globals written in this run, in the order first seen.
  llvm::SmallSetVector<const clang::ValueDecl *, 8> Outliving;
  /// What each declaration falls back to when a state does not hold it,
  /// for this run.
  mutable llvm::DenseMap<const clang::ValueDecl *, Dep> Fallbacks;
  /// Per rank-dependent branch, whether it tells a broadcast's root from the
  /// other ranks, for this run.
  llvm::DenseMap<const clang::CFGBlock *, std::optional<PublishingBranch>>
      Publishing;
  /// writtenFromData's answers, by branch and variable, for this run.
  llvm::DenseMap<std::pair<const clang::CFGBlock *, const clang::ValueDecl *>,
                 bool>
      FromDataCache;
  /// The publishing branches both of whose sides return.
  llvm::DenseSet<const clang::CFGBlock *> MirroredReturns;
  /// Return statements with a value in the CFG.
  unsigned ValueReturns = 0;
  FreshAllocations Fresh;
  /// The publishing branches whose sides meet at each block before their
  /// join.
  llvm::DenseMap<const clang::CFGBlock *,
                 llvm::SmallVector<const clang::CFGBlock *, 1>>
      MergesAt;
  /// The pairs in MergesAt.
  size_t MergeCount = 0;
  /// Per rank-dependent branch, what its region assigns.
  llvm::DenseMap<const clang::CFGBlock *, std::vector<Assignment>> Assigned;
};

/// Calls \p Fn with each variable or field that \p S, one element of a
/// block, writes (an assignment, `++`/`--`, a container update, a
/// communicator split, the out-parameters of a function with a body), and
/// whether it only writes an element of it (a sequence container's, whose
/// length stays).
void forEachAssigned(
    const clang::Stmt *S, AnalysisContext &Ctx,
    llvm::function_ref<void(const clang::ValueDecl *, bool)> Fn);

/// True if \p Value is a container as a whole, as a copy, a return or an
/// argument takes it (a variable, a field, a move of one, or the result of
/// a function with a summary), not an element of one or a library call's
/// result.
bool isWholeContainer(const clang::Expr *Value, AnalysisContext &Ctx);

} // namespace ddp

#endif // DDP_CORE_RANKUNIFORMITY_H
