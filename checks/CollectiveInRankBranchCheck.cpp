//===--- CollectiveInRankBranchCheck.cpp - ddp-collective-in-rank-branch --===//

#include "CollectiveInRankBranchCheck.h"

namespace clang::tidy::ddp {

void CollectiveInRankBranchCheck::advise(const ::ddp::Finding &F, bool Fixed,
                                         ASTContext &Context) {
  if (F.Op == "backward")
    diag(F.Site->getExprLoc(),
         "gradient synchronisation is armed in this file (a c10d::Reducer, "
         "a DDP-like wrapper or a gradient hook that communicates), so "
         "'backward' is a collective",
         DiagnosticIDs::Note);
}

} // namespace clang::tidy::ddp
