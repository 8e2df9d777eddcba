//===--- UnusedParametersCheck.cpp - ddp-unused-parameters ----------------===//

#include "UnusedParametersCheck.h"
#include "AnalysisOptionsIO.h"
#include "core/AnalysisContext.h"
#include "core/ParameterUse.h"
#include "core/UserCodeVisitor.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang::ast_matchers;

namespace clang::tidy::ddp {

UnusedParametersCheck::UnusedParametersCheck(StringRef Name,
                                             ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context), Analysis(readAnalysisOptions(*this, Options)) {}

void UnusedParametersCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  storeAnalysisOptions(Options, Opts, Analysis);
}

void UnusedParametersCheck::registerMatchers(MatchFinder *Finder) {
  // The check walks the user's functions itself; one match per TU.
  Finder->addMatcher(translationUnitDecl().bind("tu"), this);
}

namespace {
/// How a branch around a use reads in a note.
unsigned branchKind(const Stmt *S) {
  if (isa<ReturnStmt>(S))
    return 1;
  if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S))
    return 2;
  return 0;
}
} // namespace

void UnusedParametersCheck::check(const MatchFinder::MatchResult &Result) {
  ::ddp::AnalysisContext Context(*Result.Context, Analysis);
  ::ddp::UserFunctions Finder(Context);
  Finder.TraverseDecl(Result.Context->getTranslationUnitDecl());
  llvm::DenseSet<const FieldDecl *> Reported;
  for (const FunctionDecl *FD : Finder.Functions) {
    for (const ::ddp::StrictSync &Sync : ::ddp::findStrictSyncs(FD, Context)) {
      for (const ::ddp::PartialUse &Use : ::ddp::partialUses(Sync.Module)) {
        if (!Reported.insert(Use.Member).second)
          continue;
        std::string Module = Sync.Module->getNameAsString();
        if (Use.FirstUse)
          diag(Use.FirstUse->getBeginLoc(),
               "'%0' takes part in the forward pass of '%1' only on some "
               "paths: with 'find_unused_parameters' off, the gradient "
               "reduction waits for its gradients on the steps that skip it")
              << Use.Member->getName() << Module;
        else
          diag(Use.Registration->getBeginLoc(),
               "'%0' is registered in '%1' but its forward never uses it: with "
               "'find_unused_parameters' off, the gradient reduction waits for "
               "its gradients, which never come")
              << Use.Member->getName() << Module;
        if (Use.Branch)
          diag(Use.Branch->getBeginLoc(),
               "%select{'%1' is used only on this branch|this return skips "
               "'%1'|'%1' is used only if this loop runs}0",
               DiagnosticIDs::Note)
              << branchKind(Use.Branch) << Use.Member->getName();
        diag(Sync.FindUnused ? Sync.FindUnused->getBeginLoc()
                             : Sync.Site->getBeginLoc(),
             "'%0' is synchronised with 'find_unused_parameters' %select{set "
             "to false|off by default}1 %select{by this wrapper|by this "
             "c10d::Reducer}2",
             DiagnosticIDs::Note)
            << Module << (Sync.FindUnused == nullptr) << Sync.IsReducer;
        diag(Use.FirstUse ? Use.FirstUse->getBeginLoc()
                          : Use.Registration->getBeginLoc(),
             "use every parameter on every path (add the unused output "
             "multiplied by zero to the loss), or turn "
             "'find_unused_parameters' on, which costs a traversal of the "
             "autograd graph every step",
             DiagnosticIDs::Note);
      }
    }
  }
}

} // namespace clang::tidy::ddp
