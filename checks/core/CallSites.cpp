//===--- CallSites.cpp - Functions the TU only ever calls directly --------===//

#include "core/CallSites.h"
#include "core/UserCodeVisitor.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace ddp {

namespace {
class CallSiteFinder : public UserCodeVisitor<CallSiteFinder> {
public:
  CallSiteFinder(const AnalysisContext &Ctx,
                 llvm::DenseSet<const FunctionDecl *> &Called,
                 llvm::DenseSet<const FunctionDecl *> &OtherwiseUsed)
      : UserCodeVisitor(Ctx), Called(Called), OtherwiseUsed(OtherwiseUsed) {}

  // A call is visited before its callee expression.
  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee)
      return true;
    Called.insert(Callee->getCanonicalDecl());
    if (const Expr *E = Call->getCallee())
      Callees.insert(E->IgnoreParenImpCasts());
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    use(Ref, Ref->getDecl());
    return true;
  }
  bool VisitMemberExpr(MemberExpr *Member) {
    use(Member, Member->getMemberDecl());
    return true;
  }

private:
  void use(const Expr *E, const ValueDecl *D) {
    if (const auto *FD = dyn_cast_or_null<FunctionDecl>(D))
      if (!Callees.contains(E))
        OtherwiseUsed.insert(FD->getCanonicalDecl());
  }

  llvm::DenseSet<const FunctionDecl *> &Called;
  llvm::DenseSet<const FunctionDecl *> &OtherwiseUsed;
  llvm::DenseSet<const Expr *> Callees;
};
} // namespace

CallSites::CallSites(const AnalysisContext &Ctx) {
  CallSiteFinder Finder(Ctx, Called, OtherwiseUsed);
  Finder.TraverseDecl(Ctx.AST.getTranslationUnitDecl());
}

bool CallSites::onlyCalledDirectly(const FunctionDecl *FD) const {
  FD = FD->getCanonicalDecl();
  return Called.contains(FD) && !OtherwiseUsed.contains(FD);
}

} // namespace ddp
