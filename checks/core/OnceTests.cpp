//===--- OnceTests.cpp - Tests a counted loop passes exactly once ---------===//

#include "core/OnceTests.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace ddp {
namespace {

const Expr *strip(const Expr *E) {
  return E ? E->IgnoreParenImpCasts() : nullptr;
}

const VarDecl *counterOf(const Expr *E) {
  const auto *Ref = dyn_cast_or_null<DeclRefExpr>(strip(E));
  return Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
}

bool isLiteral(const Expr *E, uint64_t Value) {
  const auto *Literal = dyn_cast_or_null<IntegerLiteral>(strip(E));
  return Literal && Literal->getValue() == Value;
}

/// `i = 0` or `int i = 0`.
bool startsAtZero(const Stmt *Init, const VarDecl *Counter) {
  if (const auto *Assign = dyn_cast_or_null<BinaryOperator>(Init))
    return Assign->getOpcode() == BO_Assign &&
           counterOf(Assign->getLHS()) == Counter &&
           isLiteral(Assign->getRHS(), 0);
  if (const auto *Decl = dyn_cast_or_null<DeclStmt>(Init))
    return Decl->isSingleDecl() && Decl->getSingleDecl() == Counter &&
           isLiteral(Counter->getInit(), 0);
  return false;
}

/// `++i`, `i++` or `i += 1`.
bool stepsByOne(const Expr *Inc, const VarDecl *Counter) {
  Inc = strip(Inc);
  if (const auto *Unary = dyn_cast_or_null<UnaryOperator>(Inc))
    return Unary->isIncrementOp() && counterOf(Unary->getSubExpr()) == Counter;
  if (const auto *Add = dyn_cast_or_null<CompoundAssignOperator>(Inc))
    return Add->getOpcode() == BO_AddAssign &&
           counterOf(Add->getLHS()) == Counter && isLiteral(Add->getRHS(), 1);
  return false;
}

/// The same variable, or the same member of the same object. Not
/// Expr::isSameComparisonOperand: LLVM 19's matches a DeclRefExpr without
/// its lvalue-to-rvalue cast only as a prvalue (a template parameter).
bool isSame(const Expr *A, const Expr *B) {
  A = strip(A);
  B = strip(B);
  if (!A || !B)
    return false;
  if (const auto *RefA = dyn_cast<DeclRefExpr>(A)) {
    const auto *RefB = dyn_cast<DeclRefExpr>(B);
    return RefB && RefA->getDecl() == RefB->getDecl();
  }
  if (const auto *MemberA = dyn_cast<MemberExpr>(A)) {
    const auto *MemberB = dyn_cast<MemberExpr>(B);
    return MemberB && MemberA->getMemberDecl() == MemberB->getMemberDecl() &&
           MemberA->isArrow() == MemberB->isArrow() &&
           (isa<CXXThisExpr>(strip(MemberA->getBase()))
                ? isa<CXXThisExpr>(strip(MemberB->getBase()))
                : isSame(MemberA->getBase(), MemberB->getBase()));
  }
  return false;
}

/// `i < k + n` or `i < n + k`.
bool runsPast(const Expr *Cond, const VarDecl *Counter, const Expr *Tested) {
  const auto *Less = dyn_cast_or_null<BinaryOperator>(strip(Cond));
  if (!Less || Less->getOpcode() != BO_LT ||
      counterOf(Less->getLHS()) != Counter)
    return false;
  const auto *Sum = dyn_cast<BinaryOperator>(strip(Less->getRHS()));
  return Sum && Sum->getOpcode() == BO_Add &&
         (isSame(Sum->getLHS(), Tested) || isSame(Sum->getRHS(), Tested));
}

/// Whether \p Body writes \p Counter or \p Tested, or takes the address of
/// either.
class Writes : public RecursiveASTVisitor<Writes> {
public:
  Writes(const VarDecl *Counter, const Expr *Tested)
      : Counter(Counter), Tested(Tested) {}
  bool Found = false;

  bool VisitBinaryOperator(BinaryOperator *Op) {
    if (Op->isAssignmentOp())
      check(Op->getLHS());
    return !Found;
  }
  bool VisitUnaryOperator(UnaryOperator *Op) {
    if (Op->isIncrementDecrementOp() || Op->getOpcode() == UO_AddrOf)
      check(Op->getSubExpr());
    return !Found;
  }

private:
  void check(const Expr *Target) {
    Found = Found || counterOf(Target) == Counter ||
            (Tested && isSame(Target, Tested));
  }
  const VarDecl *Counter;
  const Expr *Tested;
};

bool isLoop(const Stmt *S) {
  return isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
}

/// The innermost loop around \p S, if it is a `for` and \p S is in its
/// body: found through the parents, so that testing every `if` of a long
/// function does not walk its body once per `if`.
const ForStmt *enclosingFor(const Stmt *S, const ParentMap &Parents) {
  for (const Stmt *Child = S, *P = Parents.getParent(S); P;
       Child = P, P = Parents.getParent(P)) {
    if (!isLoop(P))
      continue;
    const auto *For = dyn_cast<ForStmt>(P);
    return For && For->getBody() == Child ? For : nullptr;
  }
  return nullptr;
}

/// `i < s` with \p IsWorldSize(s).
bool runsOverRanks(const Expr *Cond, const VarDecl *Counter,
                   llvm::function_ref<bool(const Expr *)> IsWorldSize) {
  const auto *Less = dyn_cast_or_null<BinaryOperator>(strip(Cond));
  return Less && Less->getOpcode() == BO_LT &&
         counterOf(Less->getLHS()) == Counter && IsWorldSize(Less->getRHS());
}

} // namespace

const ForStmt *takesTurns(const IfStmt *If, const ParentMap &Parents,
                          llvm::function_ref<bool(const Expr *)> IsRank,
                          llvm::function_ref<bool(const Expr *)> IsWorldSize) {
  const auto *Equal = dyn_cast_or_null<BinaryOperator>(strip(If->getCond()));
  if (!Equal || Equal->getOpcode() != BO_EQ || If->isConstexpr())
    return nullptr;
  for (auto [CounterSide, RankSide] :
       {std::pair(Equal->getLHS(), Equal->getRHS()),
        std::pair(Equal->getRHS(), Equal->getLHS())}) {
    const VarDecl *Counter = counterOf(CounterSide);
    if (!Counter || !Counter->hasLocalStorage() || !IsRank(RankSide))
      continue;
    const ForStmt *For = enclosingFor(If, Parents);
    if (!For || !startsAtZero(For->getInit(), Counter) ||
        !stepsByOne(For->getInc(), Counter) ||
        !runsOverRanks(For->getCond(), Counter, IsWorldSize))
      return nullptr;
    Writes Written(Counter, nullptr);
    Written.TraverseStmt(const_cast<Stmt *>(For->getBody()));
    return Written.Found ? nullptr : For;
  }
  return nullptr;
}

bool runsOncePerLoop(const IfStmt *If, const ParentMap &Parents,
                     ASTContext &AST) {
  const auto *Equal = dyn_cast_or_null<BinaryOperator>(strip(If->getCond()));
  if (!Equal || Equal->getOpcode() != BO_EQ || If->isConstexpr())
    return false;
  const VarDecl *Left = counterOf(Equal->getLHS());
  const VarDecl *Right = counterOf(Equal->getRHS());
  if (!(Left && Left->hasLocalStorage()) &&
      !(Right && Right->hasLocalStorage()))
    return false;
  const ForStmt *For = enclosingFor(If, Parents);
  if (!For)
    return false;
  for (auto [CounterSide, TestedSide] :
       {std::pair(Equal->getLHS(), Equal->getRHS()),
        std::pair(Equal->getRHS(), Equal->getLHS())}) {
    const VarDecl *Counter = counterOf(CounterSide);
    const Expr *Tested = strip(TestedSide);
    if (!Counter || !isa<DeclRefExpr, MemberExpr>(Tested) ||
        Tested->HasSideEffects(AST))
      continue;
    if (!startsAtZero(For->getInit(), Counter) ||
        !stepsByOne(For->getInc(), Counter) ||
        !runsPast(For->getCond(), Counter, Tested))
      continue;
    Writes Body(Counter, Tested);
    Body.TraverseStmt(const_cast<Stmt *>(For->getBody()));
    if (!Body.Found)
      return true;
  }
  return false;
}

} // namespace ddp
