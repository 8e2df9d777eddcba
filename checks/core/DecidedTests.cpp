//===--- DecidedTests.cpp - Tests a rank-dependent branch already decided -===//

#include "core/DecidedTests.h"
#include "core/RankUniformity.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/FoldingSet.h"

using namespace clang;

namespace ddp {

namespace {

/// \p E without parentheses, implicit casts and `!`s; \p Negated says
/// whether an odd number of `!`s was taken off.
const Expr *withoutNegations(const Expr *E, bool &Negated) {
  Negated = false;
  while (true) {
    E = E->IgnoreParenImpCasts();
    const auto *UO = dyn_cast<UnaryOperator>(E);
    if (!UO || UO->getOpcode() != UO_LNot)
      return E;
    Negated = !Negated;
    E = UO->getSubExpr();
  }
}

/// Collects in \p Vars the function's own variables \p E reads. False if
/// \p E reads anything else that can change (a field, a global that is not
/// const, memory through a pointer), calls, or writes.
bool readsOnlyLocals(const Expr *E,
                     llvm::SmallVectorImpl<const VarDecl *> &Vars) {
  E = E->IgnoreParenImpCasts();
  if (const auto *Subst = dyn_cast<SubstNonTypeTemplateParmExpr>(E))
    return readsOnlyLocals(Subst->getReplacement(), Vars);
  if (isa<IntegerLiteral, CXXBoolLiteralExpr, CharacterLiteral,
          CXXNullPtrLiteralExpr>(E))
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (isa<EnumConstantDecl>(DRE->getDecl()))
      return true;
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || VD->getType().isVolatileQualified())
      return false;
    // A constant (`IsPt2PtOp<Op>::value`).
    if (!VD->hasLocalStorage())
      return VD->getType().isConstQualified();
    if (!VD->getType()->isScalarType() ||
        DRE->refersToEnclosingVariableOrCapture())
      return false;
    if (!llvm::is_contained(Vars, VD))
      Vars.push_back(VD);
    return true;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    switch (UO->getOpcode()) {
    case UO_LNot:
    case UO_Not:
    case UO_Minus:
    case UO_Plus:
      return readsOnlyLocals(UO->getSubExpr(), Vars);
    default:
      return false;
    }
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return !BO->isAssignmentOp() && BO->getOpcode() != BO_Comma &&
           readsOnlyLocals(BO->getLHS(), Vars) &&
           readsOnlyLocals(BO->getRHS(), Vars);
  return false;
}

/// True if \p Var can change other than by an assignment to it by name: its
/// address is taken, a reference is bound to it, a lambda captures it.
class EscapeFinder : public RecursiveASTVisitor<EscapeFinder> {
public:
  EscapeFinder(const VarDecl *Var, Stmt *Body) : Var(Var), Parents(Body) {}

  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (DRE->getDecl() != Var)
      return true;
    if (DRE->refersToEnclosingVariableOrCapture()) {
      Escapes = true;
      return false;
    }
    const Stmt *Parent = Parents.getParentIgnoreParens(DRE);
    if (const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(Parent))
      if (Cast->getCastKind() == CK_LValueToRValue)
        return true;
    if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Parent))
      if (BO->isAssignmentOp() && BO->getLHS()->IgnoreParens() == DRE)
        return true;
    if (const auto *UO = dyn_cast_or_null<UnaryOperator>(Parent))
      if (UO->isIncrementDecrementOp())
        return true;
    Escapes = true;
    return false;
  }

  bool VisitLambdaExpr(LambdaExpr *Lambda) {
    for (const LambdaCapture &Capture : Lambda->captures())
      if (Capture.capturesVariable() && Capture.getCapturedVar() == Var) {
        Escapes = true;
        return false;
      }
    return true;
  }

  bool Escapes = false;

private:
  const VarDecl *Var;
  ParentMap Parents;
};

/// True if an element of \p Blocks writes \p Var (forEachAssigned), or
/// declares it: a declaration in a loop gives it a new value each time.
/// (The CFG lists every subexpression as an element.)
bool writtenIn(const VarDecl *Var, llvm::ArrayRef<const CFGBlock *> Blocks,
               AnalysisContext &Ctx) {
  bool Written = false;
  for (const CFGBlock *B : Blocks)
    for (const CFGElement &Elem : *B) {
      auto S = Elem.getAs<CFGStmt>();
      if (!S)
        continue;
      if (const auto *DS = dyn_cast<DeclStmt>(S->getStmt()))
        Written |= llvm::is_contained(DS->decls(), Var);
      else
        forEachAssigned(S->getStmt(), Ctx,
                        [&](const ValueDecl *D, bool) { Written |= D == Var; });
      if (Written)
        return true;
    }
  return false;
}

bool sameExpr(const Expr *A, const Expr *B, const ASTContext &AST) {
  llvm::FoldingSetNodeID IdA, IdB;
  A->Profile(IdA, AST, /*Canonical=*/true);
  B->Profile(IdB, AST, /*Canonical=*/true);
  return IdA == IdB;
}

} // namespace

std::optional<DecidedTest>
DecidedTest::make(const CFGBlock *Branch, unsigned SuccIndex,
                  llvm::ArrayRef<const CFGBlock *> Side, const FunctionDecl *FD,
                  AnalysisContext &Ctx) {
  if (!FD || !FD->getBody() || Branch->succ_size() != 2 || SuccIndex > 1)
    return std::nullopt;
  const Expr *Cond = RankUniformity::branchCondition(Branch);
  if (!Cond)
    return std::nullopt;
  bool Negated;
  const Expr *Core = withoutNegations(Cond, Negated);
  llvm::SmallVector<const VarDecl *, 2> Vars;
  if (!readsOnlyLocals(Core, Vars) || Vars.empty())
    return std::nullopt;
  // Successor 0 is taken when the condition holds.
  return DecidedTest(Core, (SuccIndex == 0) != Negated, std::move(Vars), Side,
                     FD, Ctx);
}

bool DecidedTest::stable() const {
  if (!Stable) {
    Stable = true;
    for (const VarDecl *Var : Vars) {
      if (writtenIn(Var, Side, *Ctx)) {
        Stable = false;
        break;
      }
      EscapeFinder Finder(Var, FD->getBody());
      Finder.TraverseStmt(FD->getBody());
      if (Finder.Escapes) {
        Stable = false;
        break;
      }
    }
  }
  return *Stable;
}

int DecidedTest::ruledOutSuccessor(const CFGBlock *B) const {
  if (B->succ_size() != 2)
    return -1;
  const Expr *Cond = RankUniformity::branchCondition(B);
  if (!Cond)
    return -1;
  bool Negated;
  const Expr *Other = withoutNegations(Cond, Negated);
  if (Other != Core && !sameExpr(Other, Core, FD->getASTContext()))
    return -1;
  if (!stable())
    return -1;
  // Cond holds here: its false successor (1) is ruled out, and the reverse.
  bool Holds = Value != Negated;
  return Holds ? 1 : 0;
}

} // namespace ddp
