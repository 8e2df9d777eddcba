//===--- DecidedTests.cpp - Tests a rank-dependent branch already decided -===//

#include "core/DecidedTests.h"
#include "core/BrokenCode.h"
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

/// True if \p Call is a catalogued query that writes its answer to \p Var
/// through its out-argument (MPI_Comm_rank(comm, &rank)).
bool writesThroughOutArg(const CallExpr *Call, const VarDecl *Var,
                         AnalysisContext &Ctx) {
  const CatalogueEntry *Entry = Ctx.Catalogue.classify(Call);
  if (!Entry || Entry->Arg < 0 ||
      static_cast<unsigned>(Entry->Arg) >= Call->getNumArgs() ||
      (Entry->Role != CallRole::RankSource &&
       Entry->Role != CallRole::UniformSource))
    return false;
  const auto *Addr =
      dyn_cast<UnaryOperator>(Call->getArg(Entry->Arg)->IgnoreParenImpCasts());
  if (!Addr || Addr->getOpcode() != UO_AddrOf)
    return false;
  const auto *DRE = dyn_cast<DeclRefExpr>(Addr->getSubExpr()->IgnoreParens());
  return DRE && DRE->getDecl() == Var;
}

/// True if \p Var can change other than by an assignment to it by name: its
/// address is taken, a reference is bound to it, a lambda captures it.
class EscapeFinder : public RecursiveASTVisitor<EscapeFinder> {
public:
  EscapeFinder(const VarDecl *Var, Stmt *Body, AnalysisContext &Ctx)
      : Parents(Body), Var(Var), Ctx(&Ctx) {}

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
      if (BO->isAssignmentOp() && BO->getLHS()->IgnoreParens() == DRE) {
        Assigned = true;
        return true;
      }
    if (const auto *UO = dyn_cast_or_null<UnaryOperator>(Parent)) {
      if (UO->isIncrementDecrementOp()) {
        Assigned = true;
        return true;
      }
      // MPI_Comm_rank(comm, &rank): set by name, like an assignment.
      if (UO->getOpcode() == UO_AddrOf)
        if (const auto *Call =
                dyn_cast_or_null<CallExpr>(Parents.getParentIgnoreParenImpCasts(
                    const_cast<UnaryOperator *>(UO))))
          if (writesThroughOutArg(Call, Var, *Ctx)) {
            Setters.push_back(Call);
            return true;
          }
    }
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
  /// Whether an assignment or an increment writes the variable by name.
  bool Assigned = false;
  /// The catalogued calls that set the variable (MPI_Comm_rank(c, &r)).
  llvm::SmallVector<const CallExpr *, 1> Setters;
  ParentMap Parents;

private:
  const VarDecl *Var;
  AnalysisContext *Ctx;
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
      else if (const auto *Call = dyn_cast<CallExpr>(S->getStmt());
               Call && writesThroughOutArg(Call, Var, Ctx))
        Written = true;
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

/// `v == c` or `v != c`, either way round, of a local integer variable and
/// a constant.
struct Equality {
  const VarDecl *Var;
  llvm::APSInt Value;
  bool Equal;
};

std::optional<Equality> equalityWithConstant(const Expr *E,
                                             const ASTContext &AST) {
  const auto *BO = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
  if (!BO || (BO->getOpcode() != BO_EQ && BO->getOpcode() != BO_NE))
    return std::nullopt;
  for (auto [VarSide, ConstSide] : {std::pair(BO->getLHS(), BO->getRHS()),
                                    std::pair(BO->getRHS(), BO->getLHS())}) {
    const auto *DRE = dyn_cast<DeclRefExpr>(VarSide->IgnoreParenImpCasts());
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!VD || !VD->hasLocalStorage() || !VD->getType()->isIntegerType())
      continue;
    if (std::optional<llvm::APSInt> Value = evaluateInt(ConstSide, AST))
      return Equality{VD, *Value, BO->getOpcode() == BO_EQ};
  }
  return std::nullopt;
}

/// True if \p S never completes normally: it returns, throws, or ends the
/// process (exit, abort, MPI_Abort, a [[noreturn]] function).
bool neverCompletes(const Stmt *S) {
  if (const auto *CS = dyn_cast<CompoundStmt>(S))
    return !CS->body_empty() && neverCompletes(CS->body_back());
  if (isa<ReturnStmt>(S))
    return true;
  const auto *E = dyn_cast<Expr>(S);
  if (!E)
    return false;
  E = E->IgnoreParenImpCasts();
  if (isa<CXXThrowExpr>(E))
    return true;
  const auto *Call = dyn_cast<CallExpr>(E);
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  if (!Callee)
    return false;
  if (Callee->isNoReturn())
    return true;
  return Callee->getDeclName().isIdentifier() &&
         llvm::is_contained(
             {"exit", "_exit", "_Exit", "quick_exit", "abort", "MPI_Abort"},
             Callee->getName());
}

/// The only call that sets \p Var, a catalogued query of \p Role that
/// writes it through its out-argument, given the communicator as its first
/// argument (MPI_Comm_rank(comm, &rank), MPI_Comm_size(comm, &size)); null if
/// anything else writes it or it escapes.
const CallExpr *onlySetter(const VarDecl *Var, CallRole Role,
                           const FunctionDecl *FD, AnalysisContext &Ctx) {
  EscapeFinder Finder(Var, FD->getBody(), Ctx);
  Finder.TraverseStmt(FD->getBody());
  if (Finder.Escapes || Finder.Assigned || Finder.Setters.size() != 1)
    return nullptr;
  const CallExpr *Call = Finder.Setters.front();
  const CatalogueEntry *Entry = Ctx.Catalogue.classify(Call);
  if (!Entry || Entry->Role != Role || Entry->Arg != 1 ||
      Call->getNumArgs() != 2)
    return nullptr;
  // Only a setter that runs once, before anything after it: not under a
  // branch or in a loop of the function (a checking macro's condition or
  // `do { } while (0)` is fine).
  const Stmt *Child = Call;
  for (const Stmt *Parent = Finder.Parents.getParent(Child); Parent;
       Child = Parent, Parent = Finder.Parents.getParent(Parent)) {
    if (const auto *If = dyn_cast<IfStmt>(Parent))
      if (If->getCond() != Child)
        return nullptr;
    if (isa<ForStmt, WhileStmt, CXXForRangeStmt, SwitchStmt,
            ConditionalOperator, LambdaExpr>(Parent))
      return nullptr;
    if (const auto *BO = dyn_cast<BinaryOperator>(Parent))
      if (BO->isLogicalOp() && BO->getRHS() == Child)
        return nullptr;
  }
  return Call;
}

/// The first guard in \p FD that fixes the number of ranks in the
/// communicator \p Rank was read from, and where it ends:
///
///   MPI_Comm_size(comm, &size);
///   MPI_Comm_rank(comm, &rank);
///   if (size != 2) { ...; MPI_Finalize(); return 1; }
///
/// The guard must be a statement of the function's body itself and leave
/// the function (or the process) when it fails; past it, the size holds.
std::optional<SizeGuard> firstSizeGuard(const VarDecl *Rank,
                                        const FunctionDecl *FD,
                                        AnalysisContext &Ctx) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(FD->getBody());
  if (!Body)
    return std::nullopt;
  const CallExpr *RankSetter = onlySetter(Rank, CallRole::RankSource, FD, Ctx);
  if (!RankSetter)
    return std::nullopt;
  const SourceManager &SM = Ctx.AST.getSourceManager();
  for (const Stmt *S : Body->body()) {
    const auto *If = dyn_cast<IfStmt>(S);
    if (!If || If->getElse() || If->hasInitStorage() || If->hasVarStorage() ||
        !neverCompletes(If->getThen()))
      continue;
    std::optional<Equality> Guard =
        equalityWithConstant(If->getCond(), Ctx.AST);
    if (!Guard || Guard->Equal)
      continue;
    const CallExpr *SizeSetter =
        onlySetter(Guard->Var, CallRole::UniformSource, FD, Ctx);
    if (SizeSetter &&
        SM.isBeforeInTranslationUnit(SizeSetter->getEndLoc(),
                                     If->getBeginLoc()) &&
        sameExpr(SizeSetter->getArg(0), RankSetter->getArg(0), Ctx.AST))
      return SizeGuard{Guard->Value, If->getEndLoc()};
  }
  return std::nullopt;
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
      EscapeFinder Finder(Var, FD->getBody(), *Ctx);
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
  std::optional<bool> OtherHolds;
  if (Other == Core || sameExpr(Other, Core, FD->getASTContext()))
    OtherHolds = Value;
  else
    OtherHolds = decidedEquality(Other, B);
  if (!OtherHolds || !stable())
    return -1;
  // Cond holds here: its false successor (1) is ruled out, and the reverse.
  bool Holds = *OtherHolds != Negated;
  return Holds ? 1 : 0;
}

std::optional<bool> DecidedTest::decidedEquality(const Expr *Other,
                                                 const CFGBlock *B) const {
  std::optional<Equality> Known = equalityWithConstant(Core, Ctx->AST);
  std::optional<Equality> Asked = equalityWithConstant(Other, Ctx->AST);
  if (!Known || !Asked || Known->Var != Asked->Var)
    return std::nullopt;
  bool Same = llvm::APSInt::isSameValue(Known->Value, Asked->Value);
  // Whether `var == <Asked's constant>` holds on this side.
  std::optional<bool> AskedEqual;
  if (Value == Known->Equal) {
    AskedEqual = Same; // var == c0 here
  } else if (Same) {
    AskedEqual = false; // var != c0 here
  } else if (const Stmt *Test = B->getTerminatorStmt()) {
    // var != c0 and the communicator has two ranks: var is the other one.
    if (!Guard)
      Guard = firstSizeGuard(Known->Var, FD, *Ctx);
    auto IsRank = [](const llvm::APSInt &V) {
      return V.isNonNegative() && V.getActiveBits() <= 1; // 0 or 1
    };
    if (*Guard &&
        Ctx->AST.getSourceManager().isBeforeInTranslationUnit(
            (*Guard)->End, Test->getBeginLoc()) &&
        llvm::APSInt::isSameValue((*Guard)->Size, llvm::APSInt::get(2)) &&
        IsRank(Known->Value) && IsRank(Asked->Value))
      AskedEqual = true;
  }
  if (!AskedEqual)
    return std::nullopt;
  return *AskedEqual == Asked->Equal;
}

} // namespace ddp
