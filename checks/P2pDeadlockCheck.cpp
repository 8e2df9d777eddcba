//===--- P2pDeadlockCheck.cpp - ddp-p2p-deadlock --------------------------===//

#include "P2pDeadlockCheck.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "core/PointToPointOrder.h"
#include "core/UserCodeVisitor.h"
#include <optional>

using namespace clang::ast_matchers;

namespace clang::tidy::ddp {

P2pDeadlockCheck::P2pDeadlockCheck(StringRef Name, ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context) {
  // The calls it knows come from the catalogue, which the PointToPoint
  // option extends (shared with the other ddp checks).
  Analysis.PointToPoint = Options.getLocalOrGlobal("PointToPoint", "").str();
  ::ddp::AnalysisOptions Defaults;
  Analysis.LibraryNamespaces =
      Options.getLocalOrGlobal("LibraryNamespaces", Defaults.LibraryNamespaces)
          .str();
}

void P2pDeadlockCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "PointToPoint", Analysis.PointToPoint);
  Options.store(Opts, "LibraryNamespaces", Analysis.LibraryNamespaces);
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
  for (const FunctionDecl *FD : Finder.Functions)
    report(FD, Context);
}

void P2pDeadlockCheck::report(const FunctionDecl *FD,
                              ::ddp::AnalysisContext &Context) {
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
}

} // namespace clang::tidy::ddp
