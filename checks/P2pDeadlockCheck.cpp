//===--- P2pDeadlockCheck.cpp - ddp-p2p-deadlock --------------------------===//

#include "P2pDeadlockCheck.h"
#include "AnalysisOptionsIO.h"
#include "core/PointToPointOrder.h"
#include "core/TranslationUnitAnalysis.h"
#include "core/UserCodeVisitor.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include <optional>

using namespace clang::ast_matchers;

namespace clang::tidy::ddp {

P2pDeadlockCheck::P2pDeadlockCheck(StringRef Name, ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      // The calls it knows come from the catalogue, which the PointToPoint
      // option extends; what holds the rank, from the rank options. Both are
      // shared with the other ddp checks.
      Analysis(readAnalysisOptions(*this, Options)) {}

void P2pDeadlockCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  storeAnalysisOptions(Options, Opts, Analysis);
}

void P2pDeadlockCheck::registerMatchers(MatchFinder *Finder) {
  // The check walks the user's functions itself (library code skipped
  // wholesale); one match per TU.
  Finder->addMatcher(translationUnitDecl().bind("tu"), this);
}

static SourceLocation callLoc(const CallExpr *Call) {
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call))
    return Member->getExprLoc();
  return Call->getBeginLoc();
}

void P2pDeadlockCheck::check(const MatchFinder::MatchResult &Result) {
  ::ddp::AnalysisContext Context(*Result.Context, Analysis);
  ::ddp::UserFunctions Finder(Context);
  Finder.TraverseDecl(Result.Context->getTranslationUnitDecl());
  // Which values hold the rank: the rank-divergence checks' analysis, run
  // only once a role branch needs it (only the rank matters here, not data
  // local to each rank).
  ::ddp::AnalysisOptions RankOnly = Analysis;
  RankOnly.RankLocalData = false;
  std::unique_ptr<::ddp::TranslationUnitAnalysis> Ranks;
  for (const FunctionDecl *FD : Finder.Functions)
    report(FD, Context, [&](const Expr *E) {
      if (!Ranks) {
        Ranks = std::make_unique<::ddp::TranslationUnitAnalysis>(
            *Result.Context, RankOnly);
        Ranks->run();
      }
      const ::ddp::Origin *Why = Ranks->divergenceOf(FD, E);
      return Why && Why->ExactRank;
    });
}

void P2pDeadlockCheck::report(const FunctionDecl *FD,
                              ::ddp::AnalysisContext &Context,
                              llvm::function_ref<bool(const Expr *)> IsRank) {
  for (const ::ddp::ReceiveFirst &Pair :
       ::ddp::findReceiveFirst(FD, Context)) {
    diag(callLoc(Pair.Recv),
         "every rank waits in '%0' before its '%1': if the ranks that "
         "exchange here all run this code, none reaches its '%1' and they "
         "deadlock")
        << Pair.RecvName << Pair.SendName;
    diag(callLoc(Pair.Send), "the '%0' the peer waits for is only reached "
                             "after the '%1' completes",
         DiagnosticIDs::Note)
        << Pair.SendName << Pair.RecvName;
    diag(callLoc(Pair.Recv),
         "let one rank of each pair send first (for example 'if (rank < "
         "peer)'), post the receive without waiting for it before the send, "
         "or use a combined exchange (MPI_Sendrecv)",
         DiagnosticIDs::Note);
  }
  for (const ::ddp::RoleDeadlock &D :
       ::ddp::findRoleDeadlocks(FD, Context, IsRank)) {
    const auto &A = D.First, &B = D.Second;
    diag(callLoc(A.Wait),
         "rank %0 waits in '%1' to receive from rank %2, and rank %2 waits "
         "in '%3' to receive from rank %0: neither reaches a send, and they "
         "deadlock")
        << int(A.Rank) << A.WaitName << int(B.Rank) << B.WaitName;
    auto NoteSend = [&](const ::ddp::RoleDeadlock::Role &R) {
      if (R.Send)
        diag(callLoc(R.Send),
             "rank %0 reaches its '%1' only after that wait is over",
             DiagnosticIDs::Note)
            << int(R.Rank) << R.SendName;
    };
    NoteSend(A);
    diag(callLoc(B.Wait),
         "rank %0 waits here for rank %1%select{|, in the "
         "branch the ranks no other branch names take}2",
         DiagnosticIDs::Note)
        << int(B.Rank) << int(A.Rank) << (B.Test == nullptr);
    NoteSend(B);
    diag(callLoc(A.Wait),
         "let one of the two ranks send first, post the receive without "
         "waiting for it before the send (MPI_Irecv, and MPI_Wait after the "
         "send), or use a combined exchange (MPI_Sendrecv)",
         DiagnosticIDs::Note);
  }
}

} // namespace clang::tidy::ddp
