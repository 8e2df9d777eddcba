//===--- EnvironmentSwitch.cpp - Environment variables read as switches ---===//

#include "core/EnvironmentSwitch.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/SmallVector.h"

using namespace clang;

namespace ddp {
namespace {

/// The nearest parent of \p S that is not a cast or parentheses.
const Stmt *consumer(const ParentMap &PM, const Stmt *S, const Stmt *&Child) {
  Child = S;
  const Stmt *P = PM.getParent(S);
  while (P && (isa<ImplicitCastExpr, ParenExpr, CXXBindTemporaryExpr,
                   MaterializeTemporaryExpr, ExprWithCleanups,
                   CXXFunctionalCastExpr, CStyleCastExpr>(P))) {
    Child = P;
    P = PM.getParent(P);
  }
  return P;
}

bool isLiteralText(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E))
    if (Construct->getNumArgs() >= 1)
      E = Construct->getArg(0)->IgnoreParenImpCasts();
  return isa<StringLiteral>(E);
}

bool isNull(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (isa<CXXNullPtrLiteralExpr, GNUNullExpr>(E))
    return true;
  if (const auto *Int = dyn_cast<IntegerLiteral>(E))
    return Int->getValue() == 0;
  return false;
}

/// Whether the other operand of a comparison is \p Ok.
template <typename Pred>
bool comparedWith(const Expr *LHS, const Expr *RHS, const Stmt *Child,
                  Pred Ok) {
  return Ok(LHS == Child ? RHS : LHS);
}

/// Whether the use \p Use of the value (a reference to it, or the call)
/// only tests it.
bool onlyTests(const ParentMap &PM, const Stmt *Use) {
  const Stmt *Child = nullptr;
  const Stmt *P = consumer(PM, Use, Child);
  // std::string(v): what the string is compared with decides.
  if (const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(P)) {
    if (Construct->getNumArgs() < 1)
      return false;
    P = consumer(PM, Construct, Child);
  }
  if (!P)
    return false;
  if (const auto *If = dyn_cast<IfStmt>(P))
    return If->getCond() == Child;
  if (const auto *While = dyn_cast<WhileStmt>(P))
    return While->getCond() == Child;
  if (const auto *Cond = dyn_cast<ConditionalOperator>(P))
    return Cond->getCond() == Child;
  if (const auto *Unary = dyn_cast<UnaryOperator>(P))
    return Unary->getOpcode() == UO_LNot;
  if (const auto *Binary = dyn_cast<BinaryOperator>(P)) {
    if (Binary->isLogicalOp())
      return true;
    if (Binary->isEqualityOp())
      return comparedWith(Binary->getLHS(), Binary->getRHS(), Child,
                          [](const Expr *E) {
                            return isNull(E) || isLiteralText(E);
                          });
    return false;
  }
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(P)) {
    if ((Op->getOperator() != OO_EqualEqual &&
         Op->getOperator() != OO_ExclaimEqual) ||
        Op->getNumArgs() != 2)
      return false;
    return comparedWith(Op->getArg(0), Op->getArg(1), Child, isLiteralText);
  }
  if (const auto *Call = dyn_cast<CallExpr>(P)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || !Callee->getIdentifier() || Call->getNumArgs() < 2)
      return false;
    llvm::StringRef Name = Callee->getName();
    if (Name != "strcmp" && Name != "strcasecmp" && Name != "strncmp" &&
        Name != "strncasecmp")
      return false;
    const Expr *Other = Call->getArg(0) == Child ? Call->getArg(1)
                                                  : Call->getArg(0);
    return isLiteralText(Other);
  }
  return false;
}

class References : public RecursiveASTVisitor<References> {
public:
  explicit References(const VarDecl *Var) : Var(Var) {}
  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    if (Ref->getDecl() == Var)
      Uses.push_back(Ref);
    return true;
  }
  const VarDecl *Var;
  llvm::SmallVector<const DeclRefExpr *, 4> Uses;
};

} // namespace

bool readsSwitch(const CallExpr *Getenv, const FunctionDecl *Function) {
  if (!Getenv || !Function || !Function->hasBody())
    return false;
  Stmt *Body = Function->getBody();
  ParentMap PM(Body);
  const Stmt *Child = nullptr;
  const Stmt *P = consumer(PM, Getenv, Child);
  const auto *Decl = dyn_cast_or_null<DeclStmt>(P);
  if (!Decl)
    return onlyTests(PM, Getenv);
  // `const char *v = getenv(...)`: every use of v only tests it.
  if (!Decl->isSingleDecl())
    return false;
  const auto *Var = dyn_cast<VarDecl>(Decl->getSingleDecl());
  if (!Var || !Var->isLocalVarDecl() || Var->getType()->isReferenceType())
    return false;
  References Refs(Var);
  Refs.TraverseStmt(Body);
  if (Refs.Uses.empty())
    return false;
  for (const DeclRefExpr *Use : Refs.Uses)
    if (!onlyTests(PM, Use))
      return false;
  return true;
}

} // namespace ddp
