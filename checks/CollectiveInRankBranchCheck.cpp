//===--- CollectiveInRankBranchCheck.cpp - ddp-collective-in-rank-branch --===//

#include "CollectiveInRankBranchCheck.h"
#include "core/UnresolvedCalls.h"

namespace clang::tidy::ddp {

void CollectiveInRankBranchCheck::advise(const ::ddp::Finding &F, bool Fixed,
                                         ASTContext &Context) {
  if (F.Op == "backward")
    diag(::ddp::calledNameLoc(F.Site),
         "gradient synchronisation is armed in this file (a c10d::Reducer, "
         "a DDP-like wrapper or a gradient hook that communicates), so "
         "'backward' is a collective",
         DiagnosticIDs::Note);
}

} // namespace clang::tidy::ddp
