//===--- RankGatedBarrierCheck.h - ddp-rank-gated-barrier -----------------===//

#ifndef DDP_CHECKS_RANKGATEDBARRIERCHECK_H
#define DDP_CHECKS_RANKGATEDBARRIERCHECK_H

#include "RankDivergenceCheckBase.h"

namespace clang::tidy::ddp {

/// Finds barriers that only some ranks reach, typically
/// `if (rank == 0) { save(); pg->barrier()->wait(); }`, and offers to move the
/// barrier after the branch where that is safe.
///
/// For the user-facing documentation see:
/// docs/checks/rank-gated-barrier.rst
class RankGatedBarrierCheck : public RankDivergenceCheckBase {
public:
  using RankDivergenceCheckBase::RankDivergenceCheckBase;

protected:
  bool owns(const ::ddp::Finding &F) const override { return F.IsBarrier; }
  std::vector<FixItHint> fixes(const ::ddp::Finding &F,
                               ASTContext &Context) override;
  void advise(const ::ddp::Finding &F, bool Fixed,
              ASTContext &Context) override;
};

} // namespace clang::tidy::ddp

#endif // DDP_CHECKS_RANKGATEDBARRIERCHECK_H
