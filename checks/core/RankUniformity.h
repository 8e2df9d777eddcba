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
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <vector>

namespace clang {
class CFG;
class CFGBlock;
class Expr;
class FunctionDecl;
class ValueDecl;
class VarDecl;
class Stmt;
} // namespace clang

namespace ddp {

/// Rank dependence of the variables at one program point. A declaration
/// mapped to null is known to be uniform there; one that is absent falls back
/// to what the translation unit knows of it.
using DivergenceState = llvm::DenseMap<const clang::ValueDecl *, const Origin *>;

/// A rank-dependent branch that controls a block: the block is in the region
/// between the branch and its join.
struct ControllingBranch {
  const clang::CFGBlock *Branch;
  const Origin *Why;
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
  RankUniformity(const clang::FunctionDecl *FD, clang::CFG &Cfg,
                 AnalysisContext &Ctx);

  /// Runs the data flow to a fixed point. Blocks in \p Control are under a
  /// rank-dependent branch: what they assign is divergent from the branch's
  /// join on (\p Joins), unless a collective made it the same on every rank
  /// on every way into the join. Inside the region the ranks present all
  /// took the same side, so the values there keep their own divergence.
  /// Returns the number of block transfers it took.
  uint64_t run(const ControlDivergence &Control, const JoinPoints &Joins);

  /// Why the branch that ends \p B depends on the rank, or null.
  const Origin *branchDivergence(const clang::CFGBlock *B) const {
    return Branches.lookup(B);
  }
  const llvm::DenseMap<const clang::CFGBlock *, const Origin *> &
  divergentBranches() const {
    return Branches;
  }

  /// Why \p E, evaluated at the end of \p B, depends on the rank, or null.
  const Origin *divergenceAt(const clang::CFGBlock *B,
                             const clang::Expr *E) const;

  /// The expression the branch that ends \p B tests, or null.
  static const clang::Expr *branchCondition(const clang::CFGBlock *B);

  /// Blocks in reverse post-order from the entry.
  const std::vector<const clang::CFGBlock *> &order() const { return RPO; }

private:
  void collectAliases(const clang::VarDecl *Container, const clang::Stmt *S);
  /// What the blocks under each rank-dependent branch assign, with the first
  /// statement that does, leaving out variables declared there (they do not
  /// outlive the branch).
  void collectAssigned(const ControlDivergence &Control);

  struct Assignment {
    const clang::ValueDecl *Target;
    const clang::Stmt *Anchor;
  };
  /// At a join: what the regions of \p Branches assigned is divergent.
  void applyJoins(DivergenceState &State,
                  llvm::ArrayRef<ControllingBranch> Branches) const;

  const clang::FunctionDecl *FD;
  AnalysisContext &Ctx;
  std::vector<const clang::CFGBlock *> RPO;
  std::vector<DivergenceState> Out;
  std::vector<bool> Visited;
  /// Containers built from named tensors (`std::vector<at::Tensor> ts{t}`):
  /// a collective on the container synchronises the tensors too.
  llvm::DenseMap<const clang::ValueDecl *,
                 llvm::SmallVector<const clang::ValueDecl *, 2>>
      Aliases;
  /// The block that declares each local variable.
  llvm::DenseMap<const clang::VarDecl *, const clang::CFGBlock *> DeclBlocks;
  llvm::DenseMap<const clang::CFGBlock *, const Origin *> Branches;
  /// Per rank-dependent branch, what its region assigns.
  llvm::DenseMap<const clang::CFGBlock *, std::vector<Assignment>> Assigned;
};

} // namespace ddp

#endif // DDP_CORE_RANKUNIFORMITY_H
