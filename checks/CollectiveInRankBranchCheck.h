//===--- CollectiveInRankBranchCheck.h - ddp-collective-in-rank-branch ----===//

#ifndef DDP_CHECKS_COLLECTIVEINRANKBRANCHCHECK_H
#define DDP_CHECKS_COLLECTIVEINRANKBRANCHCHECK_H

#include "RankDivergenceCheckBase.h"

namespace clang::tidy::ddp {

/// Finds collectives (and synchronising backward passes) that only some ranks
/// execute: inside a rank-dependent branch, after a rank-dependent early exit,
/// or in a loop whose trip count depends on the rank. Barriers are left to
/// ddp-rank-gated-barrier.
///
/// For the user-facing documentation see:
/// docs/checks/collective-in-rank-branch.rst
class CollectiveInRankBranchCheck : public RankDivergenceCheckBase {
public:
  using RankDivergenceCheckBase::RankDivergenceCheckBase;

protected:
  bool owns(const ::ddp::Finding &F) const override { return !F.IsBarrier; }
  void advise(const ::ddp::Finding &F, bool Fixed,
              ASTContext &Context) override;
};

} // namespace clang::tidy::ddp

#endif // DDP_CHECKS_COLLECTIVEINRANKBRANCHCHECK_H
