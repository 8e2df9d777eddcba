//===--- ForwardOutsideNoSyncCheck.cpp - ddp-forward-outside-no-sync ------===//

#include "ForwardOutsideNoSyncCheck.h"
#include "AnalysisOptionsIO.h"
#include "core/AnalysisContext.h"
#include "core/ForwardBackwardOrder.h"
#include "core/GradientSync.h"
#include "core/UserCodeVisitor.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::ddp {

ForwardOutsideNoSyncCheck::ForwardOutsideNoSyncCheck(StringRef Name,
                                                     ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context), Analysis(readAnalysisOptions(*this, Options)),
      GradientAccumulation(Options.get("GradientAccumulation", true)) {}

void ForwardOutsideNoSyncCheck::storeOptions(
    ClangTidyOptions::OptionMap &Opts) {
  storeAnalysisOptions(Options, Opts, Analysis);
  Options.store(Opts, "GradientAccumulation", GradientAccumulation);
}

void ForwardOutsideNoSyncCheck::registerMatchers(MatchFinder *Finder) {
  // The check walks the user's functions itself; one match per TU.
  Finder->addMatcher(translationUnitDecl().bind("tu"), this);
}

namespace {
SourceLocation callLoc(const CallExpr *Call) {
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call))
    return Member->getExprLoc();
  // `model(x)`: at the module, not at the parenthesis.
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call))
    if (Op->getOperator() == OO_Call && Op->getNumArgs() > 0)
      return Op->getArg(0)->getBeginLoc();
  return Call->getBeginLoc();
}

std::string declName(const ValueDecl *D) {
  return D->getDeclName().isIdentifier() ? D->getName().str()
                                         : D->getNameAsString();
}
} // namespace

void ForwardOutsideNoSyncCheck::check(const MatchFinder::MatchResult &Result) {
  ::ddp::AnalysisContext Context(*Result.Context, Analysis);
  ::ddp::GradientSyncModel Sync(Analysis);
  ::ddp::UserFunctions Finder(Context);
  Finder.TraverseDecl(Result.Context->getTranslationUnitDecl());
  ::ddp::ReducedModules Reduced;
  for (const FunctionDecl *FD : Finder.Functions)
    ::ddp::collectReducedModules(FD, Context, Reduced);
  for (const FunctionDecl *FD : Finder.Functions) {
    ::ddp::ForwardBackwardResult R =
        ::ddp::analyseForwardBackward(FD, Context, Sync, Reduced);
    for (const ::ddp::ExtraForward &F : R.ExtraForwards)
      report(F);
    if (GradientAccumulation)
      for (const ::ddp::SyncedAccumulation &A : R.Accumulations)
        report(A);
  }
}

void ForwardOutsideNoSyncCheck::report(const ::ddp::ExtraForward &F) {
  std::string Module = declName(F.Module);
  if (F.First == F.Second)
    diag(callLoc(F.Second),
         "'%0' runs forward in every iteration of this loop, but its "
         "gradients are synchronised by one 'backward' after the loop: "
         "synchronisation expects one forward pass per backward")
        << Module;
  else
    diag(callLoc(F.Second),
         "second forward pass of '%0' before its gradients are synchronised: "
         "synchronisation expects one forward pass per backward")
        << Module;
  if (F.First != F.Second)
    diag(callLoc(F.First), "first forward pass here", DiagnosticIDs::Note);
  diag(callLoc(F.Backward),
       "'backward' synchronises the gradients of '%0' here",
       DiagnosticIDs::Note)
      << Module;
  if (F.Prepare)
    diag(callLoc(F.Prepare),
         "the c10d::Reducer over the parameters of '%0' is armed here",
         DiagnosticIDs::Note)
        << Module;
  diag(callLoc(F.Second),
       "run the extra forward passes under the no-sync guard ('no_sync()'), "
       "or through the module without the wrapper, or sum the losses of one "
       "forward pass",
       DiagnosticIDs::Note);
}

void ForwardOutsideNoSyncCheck::report(const ::ddp::SyncedAccumulation &A) {
  diag(callLoc(A.Backward),
       "gradients are synchronised at every micro-step of this accumulation "
       "loop, but the optimizer uses them only %select{every few "
       "iterations|after the loop}0: the other reductions are wasted "
       "bandwidth")
      << A.StepAfterLoop;
  diag(callLoc(A.Step), "the optimizer steps here", DiagnosticIDs::Note);
  diag(callLoc(A.Backward),
       "run the forward and backward of all but the last micro-step under the "
       "no-sync guard ('no_sync()')",
       DiagnosticIDs::Note);
}

} // namespace clang::tidy::ddp
