//===--- FailurePaths.cpp - Paths that end the job with an error ----------===//

#include "core/FailurePaths.h"
#include "core/AnalysisContext.h"
#include "core/BrokenCode.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace ddp {

/// True if \p S calls a clean exit: the body of a [[noreturn]] wrapper.
static bool callsCleanExit(const Stmt *S, ASTContext &AST, unsigned Depth) {
  if (!S || Depth > 2)
    return false;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (isCleanExit(Call, AST))
      return true;
  for (const Stmt *Child : S->children())
    if (callsCleanExit(Child, AST, Depth))
      return true;
  return false;
}

bool isCleanExit(const CallExpr *Call, ASTContext &AST) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee)
    return false;
  // A [[noreturn]] function of the user's that ends in exit(0).
  if (const FunctionDecl *Def = Callee->getDefinition())
    if (Def->isNoReturn() &&
        !AST.getSourceManager().isInSystemHeader(Def->getLocation()) &&
        callsCleanExit(Def->getBody(), AST, 1))
      return true;
  if (!Callee->getDeclName().isIdentifier() || Call->getNumArgs() < 1)
    return false;
  llvm::StringRef Name = Callee->getName();
  if (Name != "exit" && Name != "_exit" && Name != "_Exit" &&
      Name != "quick_exit")
    return false;
  std::optional<llvm::APSInt> Code = evaluateInt(Call->getArg(0), AST);
  return Code && *Code == 0;
}

/// MPI_Abort ends every process of the job; the compiler does not know it
/// does not return.
static bool isJobAbort(const FunctionDecl *Callee) {
  if (!Callee->getDeclName().isIdentifier())
    return false;
  llvm::StringRef Name = Callee->getName();
  return Name == "MPI_Abort" || Name == "PMPI_Abort";
}

const CallExpr *failingCall(const CFGBlock *B, ASTContext &AST) {
  for (const CFGElement &Elem : *B)
    if (auto S = Elem.getAs<CFGStmt>())
      if (const auto *Call = dyn_cast<CallExpr>(S->getStmt()))
        if (const FunctionDecl *Callee = Call->getDirectCallee()) {
          if (isJobAbort(Callee))
            return Call;
          if (B->hasNoReturnElement() && Callee->isNoReturn() &&
              !isCleanExit(Call, AST))
            return Call;
        }
  return nullptr;
}

/// \p B returns a non-zero constant from main: the process exits with an
/// error, as exit(1) does, and the launcher (mpirun, torchrun) ends the job.
static bool failsFromMain(const CFGBlock *B, const FunctionDecl *FD,
                          ASTContext &AST) {
  if (!FD || !FD->isMain())
    return false;
  for (const CFGElement &Elem : *B)
    if (auto S = Elem.getAs<CFGStmt>())
      if (const auto *Return = dyn_cast<ReturnStmt>(S->getStmt())) {
        const Expr *Value = Return->getRetValue();
        std::optional<llvm::APSInt> Code =
            Value ? evaluateInt(Value, AST) : std::nullopt;
        return Code && *Code != 0;
      }
  return false;
}

/// True if \p B waits in a collective (`MPI_Finalize(); return 1;`, a
/// barrier before `exit(1)`) before it ends the process: the rank waits
/// there for ranks that are elsewhere, so the exit never comes, and the job
/// hangs instead of ending.
static bool waitsBeforeExit(const CFGBlock *B, AnalysisContext &Ctx) {
  for (const CFGElement &Elem : *B)
    if (auto S = Elem.getAs<CFGStmt>())
      if (const auto *Call = dyn_cast<CallExpr>(S->getStmt())) {
        const FunctionDecl *Callee = Call->getDirectCallee();
        if (!Callee || isJobAbort(Callee) || Callee->isNoReturn())
          return false;
        const CatalogueEntry *Entry = Ctx.Catalogue.classify(Callee);
        if (Entry && isCollectiveRole(Entry->Role))
          return true;
      }
  return false;
}

/// True if \p B throws an exception that nothing catches on its way out of
/// \p FD, and leaving \p FD with one ends the process: \p FD is `main`
/// (std::terminate, as no caller can catch it) or cannot throw (a noexcept
/// function, a destructor). A throw inside a try block goes to its handlers
/// instead of the exit.
static bool throwsOutOfEnd(const CFGBlock *B, const FunctionDecl *FD,
                           const CFG &Cfg) {
  if (!FD || B->succ_size() != 1 || *B->succ_begin() != &Cfg.getExit())
    return false;
  const auto *Proto = FD->getType()->getAs<FunctionProtoType>();
  if (!FD->isMain() && !(Proto && Proto->isNothrow()))
    return false;
  return llvm::any_of(*B, [](const CFGElement &Elem) {
    auto S = Elem.getAs<CFGStmt>();
    return S && isa<CXXThrowExpr>(S->getStmt());
  });
}

/// True if \p B is the fatal failure of a GoogleTest assertion
/// (`ASSERT_TRUE`, `ASSERT_EQ`, `FAIL()`): it returns
/// `testing::internal::AssertHelper(kFatalFailure, ...) = Message()`. The
/// test has failed, and its program reports the failure whatever the other
/// ranks do next. `GTEST_SKIP()` returns the same way with kSkip: a test
/// that one rank skips is not a failure.
static bool failsTestAssertion(const CFGBlock *B) {
  for (const CFGElement &Elem : *B)
    if (auto S = Elem.getAs<CFGStmt>())
      if (const auto *Return = dyn_cast<ReturnStmt>(S->getStmt())) {
        const Expr *Value = Return->getRetValue();
        const auto *Assign =
            Value ? dyn_cast<CXXOperatorCallExpr>(Value->IgnoreImplicit())
                  : nullptr;
        if (!Assign || Assign->getOperator() != OO_Equal ||
            Assign->getNumArgs() != 2)
          return false;
        const auto *Helper =
            dyn_cast<CXXConstructExpr>(Assign->getArg(0)->IgnoreImplicit());
        if (!Helper || Helper->getNumArgs() == 0 ||
            Helper->getConstructor()->getParent()->getQualifiedNameAsString() !=
                "testing::internal::AssertHelper")
          return false;
        const auto *Kind =
            dyn_cast<DeclRefExpr>(Helper->getArg(0)->IgnoreParenImpCasts());
        return Kind && Kind->getDecl()->getDeclName().isIdentifier() &&
               Kind->getDecl()->getName() == "kFatalFailure";
      }
  return false;
}

/// True if \p B throws, with no handler in \p Cfg on the way out, from the
/// expansion of a fatal assertion macro (`ASSERT_TRUE`, `ASSERT_EQ`, as
/// GoogleTest names them) of a test framework that reports the failure and
/// throws: the test has failed, whatever the other ranks do next.
static bool throwsFromAssertionMacro(const CFGBlock *B, const CFG &Cfg,
                                     ASTContext &AST) {
  if (B->succ_size() != 1 || *B->succ_begin() != &Cfg.getExit())
    return false;
  const SourceManager &SM = AST.getSourceManager();
  for (const CFGElement &Elem : *B) {
    auto S = Elem.getAs<CFGStmt>();
    const auto *Throw = S ? dyn_cast<CXXThrowExpr>(S->getStmt()) : nullptr;
    if (!Throw)
      continue;
    for (SourceLocation Loc = Throw->getThrowLoc(); Loc.isMacroID();
         Loc = SM.getImmediateMacroCallerLoc(Loc))
      if (Lexer::getImmediateMacroName(Loc, SM, AST.getLangOpts())
              .starts_with("ASSERT_"))
        return true;
  }
  return false;
}

namespace {

/// A test of a status: the status and which outcome of the test is the
/// error.
struct StatusTest {
  const Expr *Status = nullptr;
  bool ErrorOnTrue = true;
  /// The test compares with a named success value (MPI_SUCCESS,
  /// ncclSuccess), not a bare 0.
  bool NamedSuccess = false;
  /// The test compares with -1, the error sentinel of C and POSIX calls
  /// (`if (len == -1)`).
  bool MinusOne = false;
};

const Expr *strip(const Expr *E) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(E))
      E = Cleanups->getSubExpr();
    else if (const auto *Constant = dyn_cast<ConstantExpr>(E))
      E = Constant->getSubExpr();
    else
      return E;
  }
  return E;
}

bool isZero(const Expr *E, ASTContext &AST) {
  if (E->HasSideEffects(AST))
    return false;
  std::optional<llvm::APSInt> Value = evaluateInt(E, AST);
  return Value && *Value == 0;
}

/// The success value is written as a name: an enumerator, or a macro whose
/// whole expansion is the constant (`#define MPI_SUCCESS 0`).
bool isNamedConstant(const Expr *E, ASTContext &AST) {
  E = strip(E);
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    return isa<EnumConstantDecl, VarDecl>(Ref->getDecl());
  SourceLocation Loc = E->getBeginLoc();
  if (!Loc.isMacroID())
    return false;
  CharSourceRange Range =
      AST.getSourceManager().getImmediateExpansionRange(Loc);
  return Range.getBegin() == Range.getEnd();
}

bool isMinusOne(const Expr *E, ASTContext &AST) {
  E = strip(E);
  if (E->isValueDependent() || E->containsErrors())
    return false;
  Expr::EvalResult Result;
  return E->EvaluateAsInt(Result, AST) && Result.Val.getInt() == -1;
}

std::optional<StatusTest> parseTest(const Expr *Cond, ASTContext &AST) {
  Cond = strip(Cond);
  if (const auto *Not = dyn_cast<UnaryOperator>(Cond))
    if (Not->getOpcode() == UO_LNot) {
      auto Inner = parseTest(Not->getSubExpr(), AST);
      if (Inner)
        Inner->ErrorOnTrue = !Inner->ErrorOnTrue;
      return Inner;
    }
  if (const auto *BO = dyn_cast<BinaryOperator>(Cond)) {
    if (!BO->isComparisonOp())
      return std::nullopt;
    BinaryOperatorKind Op = BO->getOpcode();
    // `len == -1`, `-1 != fd`: the error sentinel.
    if (BO->isEqualityOp() &&
        isMinusOne(BO->getLHS(), AST) != isMinusOne(BO->getRHS(), AST)) {
      StatusTest T;
      T.Status =
          strip(isMinusOne(BO->getRHS(), AST) ? BO->getLHS() : BO->getRHS());
      T.ErrorOnTrue = Op == BO_EQ;
      T.MinusOne = true;
      return T;
    }
    const Expr *Status = BO->getLHS(), *Zero = BO->getRHS();
    if (isZero(Status, AST)) {
      std::swap(Status, Zero);
      Op = BinaryOperator::reverseComparisonOp(Op);
    }
    if (!isZero(Zero, AST) || isZero(Status, AST))
      return std::nullopt;
    StatusTest T;
    T.Status = strip(Status);
    T.NamedSuccess = isNamedConstant(Zero, AST);
    switch (Op) {
    case BO_NE:
    case BO_LT:
    case BO_GT:
      T.ErrorOnTrue = true;
      return T;
    case BO_EQ:
    case BO_GE:
    case BO_LE:
      T.ErrorOnTrue = false;
      return T;
    default:
      return std::nullopt;
    }
  }
  // `if (status)`: non-zero is the error.
  StatusTest T;
  T.Status = Cond;
  return T;
}

/// The call whose result \p Status is: the call itself, or for a local
/// variable, the call that last set it before the test in \p B (looking back
/// through predecessors while there is exactly one).
const CallExpr *statusCall(const Expr *Status, const CFGBlock *B) {
  if (const auto *Call = dyn_cast<CallExpr>(Status))
    return Call;
  const auto *Ref = dyn_cast<DeclRefExpr>(Status);
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var || !Var->hasLocalStorage() || isa<ParmVarDecl>(Var))
    return nullptr;
  for (unsigned Depth = 0; B && Depth < 8; ++Depth) {
    for (auto It = B->rbegin(), End = B->rend(); It != End; ++It) {
      auto S = It->getAs<CFGStmt>();
      if (!S)
        continue;
      const Stmt *St = S->getStmt();
      if (const auto *DS = dyn_cast<DeclStmt>(St)) {
        if (llvm::is_contained(DS->decls(), Var))
          return dyn_cast_or_null<CallExpr>(
              Var->getInit() ? strip(Var->getInit()) : nullptr);
        continue;
      }
      if (const auto *BO = dyn_cast<BinaryOperator>(St))
        if (BO->isAssignmentOp()) {
          const auto *LHS = dyn_cast<DeclRefExpr>(strip(BO->getLHS()));
          if (LHS && LHS->getDecl() == Var)
            return BO->getOpcode() == BO_Assign
                       ? dyn_cast<CallExpr>(strip(BO->getRHS()))
                       : nullptr;
        }
      if (const auto *UO = dyn_cast<UnaryOperator>(St)) {
        const auto *Sub = dyn_cast<DeclRefExpr>(strip(UO->getSubExpr()));
        if (Sub && Sub->getDecl() == Var &&
            (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf))
          return nullptr;
      }
    }
    B = B->pred_size() == 1 ? static_cast<const CFGBlock *>(*B->pred_begin())
                            : nullptr;
  }
  return nullptr;
}

/// What kind of status \p Call returns, if any: the integer or enumeration
/// (not bool) result of a free function, or of a call through a function
/// pointer, other than those the catalogue knows to return a value (the
/// rank, the world size, a clock).
enum class Status { None, OfUser, OfLibrary };
Status statusOf(const CallExpr *Call, AnalysisContext &Ctx) {
  if (isa<CXXMemberCallExpr, CXXOperatorCallExpr>(Call))
    return Status::None;
  QualType T = Call->getType().getCanonicalType();
  if (!T->isIntegralOrEnumerationType() || T->isBooleanType())
    return Status::None;
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee)
    return Status::OfLibrary; // Through a pointer: whatever it calls.
  const CatalogueEntry *Entry = Ctx.Catalogue.classify(Callee);
  if (Entry && (Entry->Role == CallRole::LocalData ||
                ((Entry->Role == CallRole::RankSource ||
                  Entry->Role == CallRole::UniformSource) &&
                 Entry->Arg < 0)))
    return Status::None;
  // A library's function (a system header's, a library namespace's, a
  // catalogued one) reports how the call went; a function of the user's may
  // compute anything, unless its result is told to be a status otherwise.
  return (Entry || Ctx.isLibraryDecl(Callee)) && !Ctx.isAnalysable(Callee)
             ? Status::OfLibrary
             : Status::OfUser;
}

/// How a block leaves the function, if it does: not at all, with an error
/// (a throw, an error constant), handing on the status it tested, or in
/// another way (a void return, a success value).
enum class Leaves { No, WithError, HandsOn, Otherwise };

/// Whether \p B leaves the function with an error: it throws, or returns
/// \p Status itself, or a constant that means failure in the function's
/// return type (non-zero; false for bool; a null pointer).
Leaves howLeaves(const CFGBlock *B, const Expr *Status, QualType ReturnType,
                 ASTContext &AST) {
  for (const CFGElement &Elem : *B) {
    auto S = Elem.getAs<CFGStmt>();
    if (!S)
      continue;
    if (isa<CXXThrowExpr>(S->getStmt()))
      return Leaves::WithError;
    const auto *Return = dyn_cast<ReturnStmt>(S->getStmt());
    if (!Return)
      continue;
    const Expr *Value =
        Return->getRetValue() ? strip(Return->getRetValue()) : nullptr;
    if (!Value)
      return Leaves::Otherwise; // A void function carries on without it.
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Value))
      if (const auto *StatusRef = dyn_cast<DeclRefExpr>(Status))
        if (Ref->getDecl() == StatusRef->getDecl())
          return Leaves::HandsOn;
    QualType T = ReturnType.getCanonicalType();
    if (T->isPointerType())
      return Value->isNullPointerConstant(AST,
                                          Expr::NPC_ValueDependentIsNotNull)
                 ? Leaves::WithError
                 : Leaves::Otherwise;
    std::optional<llvm::APSInt> Constant;
    if (!T->isIntegralOrEnumerationType() ||
        !(Constant = evaluateInt(Value, AST)))
      return Leaves::Otherwise;
    bool Zero = *Constant == 0;
    return (T->isBooleanType() ? Zero : !Zero) ? Leaves::WithError
                                               : Leaves::Otherwise;
  }
  return Leaves::No;
}

} // namespace

FailurePaths::FailurePaths(const FunctionDecl *FD, const CFG &Cfg,
                           AnalysisContext &Ctx)
    : Cfg(Cfg) {
  for (const CFGBlock *B : Cfg)
    if (((failingCall(B, Ctx.AST) || failsFromMain(B, FD, Ctx.AST)) &&
         !waitsBeforeExit(B, Ctx)) ||
        throwsOutOfEnd(B, FD, Cfg) || failsTestAssertion(B) ||
        throwsFromAssertionMacro(B, Cfg, Ctx.AST))
      Failing.insert(B);
  Steps += Cfg.getNumBlockIDs();
  findErrorTests(FD, Ctx);
  computeMustFail();
  computeLivePostDominators();
}

void FailurePaths::findErrorTests(const FunctionDecl *FD,
                                  AnalysisContext &Ctx) {
  QualType ReturnType = FD ? FD->getReturnType() : QualType();
  if (const auto *Method = dyn_cast_or_null<CXXMethodDecl>(FD))
    if (Method->getParent()->isLambda())
      ReturnType = Method->getReturnType();
  for (const CFGBlock *B : Cfg) {
    if (B->succ_size() != 2 || !B->getTerminatorStmt())
      continue;
    const auto *Cond =
        dyn_cast_or_null<Expr>(B->getTerminatorCondition(/*StripParens=*/true));
    // One operand of a && or || at a time: the block tests its own operand.
    if (const auto *Logical = dyn_cast_or_null<BinaryOperator>(Cond))
      if (Logical->isLogicalOp() && !isa<BinaryOperator>(B->getTerminatorStmt()))
        Cond = Logical->getRHS();
    if (!Cond)
      continue;
    std::optional<StatusTest> Test = parseTest(Cond, Ctx.AST);
    if (!Test)
      continue;
    const CallExpr *Call = statusCall(Test->Status, B);
    Status Kind = Call ? statusOf(Call, Ctx) : Status::None;
    if (Kind == Status::None)
      continue;
    unsigned Index = Test->ErrorOnTrue ? 0 : 1;
    const CFGBlock *Side = *(B->succ_begin() + Index);
    if (!Side)
      continue;
    // The error side leaves the function straight away (after reporting the
    // error): follow it while it has one way on and no other way in.
    bool Enum = Call->getType().getCanonicalType()->isEnumeralType();
    llvm::SmallVector<const CFGBlock *, 4> Chain;
    Leaves How = Leaves::No;
    for (const CFGBlock *X = Side; X && Chain.size() < 16;) {
      Chain.push_back(X);
      if (Failing.contains(X)) {
        How = Leaves::WithError;
        break;
      }
      How = howLeaves(X, Test->Status, ReturnType, Ctx.AST);
      if (How != Leaves::No)
        break;
      const CFGBlock *Next =
          X->succ_size() == 1 ? static_cast<const CFGBlock *>(*X->succ_begin())
                              : nullptr;
      if (!Next || Next == &Cfg.getExit() || Next->pred_size() != 1)
        break;
      X = Next;
    }
    if (How != Leaves::WithError && How != Leaves::HandsOn)
      continue;
    // A status is told by its type (an enumeration: ncclResult_t, an
    // application's own result codes) or by the success value it is compared
    // with (MPI_SUCCESS, an enumerator), whoever returned it. A bare
    // `if (n) return n;` on an int tests any number: it counts only for a
    // library's call, and only when the side hands the status on, throws or
    // fails.
    bool Told = Enum || Test->NamedSuccess;
    bool Returns = How == Leaves::WithError && !Failing.contains(Chain.back()) &&
                   llvm::none_of(*Chain.back(), [](const CFGElement &Elem) {
                     auto S = Elem.getAs<CFGStmt>();
                     return S && isa<CXXThrowExpr>(S->getStmt());
                   });
    // -1 from any call is its error sentinel, when the side throws or fails.
    bool Sentinel = Test->MinusOne && Kind != Status::None;
    if (!Told && ((Kind != Status::OfLibrary && !Sentinel) || Returns))
      continue;
    ErrorSides[B] = Index;
    ErrorExits.insert(Chain.begin(), Chain.end());
    // Thrown or failed, not returned: the job ends there.
    if (How == Leaves::WithError && !Returns)
      EndingExits.insert(Chain.begin(), Chain.end());
  }
}

std::optional<unsigned> FailurePaths::errorSide(const CFGBlock *B) const {
  auto It = ErrorSides.find(B);
  if (It == ErrorSides.end())
    return std::nullopt;
  return It->second;
}

void FailurePaths::computeMustFail() {
  // Least fixed point: a block must fail if it fails itself, or if it has a
  // way on and every way on must fail. A loop that can go round forever does
  // not, as in summaries.
  MustFail.assign(Cfg.getNumBlockIDs(), false);
  bool Changed = true;
  for (unsigned Pass = 0; Changed && Pass < 64; ++Pass) {
    Changed = false;
    // Blocks are numbered roughly from the exit back: successors first.
    for (const CFGBlock *B : Cfg) {
      ++Steps;
      if (MustFail[B->getBlockID()])
        continue;
      bool Fails = Failing.contains(B);
      if (!Fails) {
        bool Any = false, All = true;
        for (const CFGBlock *Succ : B->succs()) {
          if (!Succ)
            continue;
          Any = true;
          All &= MustFail[Succ->getBlockID()];
        }
        Fails = Any && All;
      }
      if (Fails) {
        MustFail[B->getBlockID()] = true;
        Changed = true;
      }
    }
  }
}

void FailurePaths::computeLivePostDominators() {
  unsigned N = Cfg.getNumBlockIDs();
  Blocks.assign(N, nullptr);
  for (const CFGBlock *B : Cfg)
    Blocks[B->getBlockID()] = B;
  Live = postDominators([&](const CFGBlock *B) {
    return Failing.contains(B) || ErrorExits.contains(B);
  });
  // The same tree unless some error side returns its status (most
  // functions have no error side at all).
  PastEnds = EndingExits.size() == ErrorExits.size()
                 ? Live
                 : postDominators([&](const CFGBlock *B) {
                     return Failing.contains(B) || EndingExits.contains(B);
                   });
}

FailurePaths::PostDominators
FailurePaths::postDominators(llvm::function_ref<bool(const CFGBlock *)> Dead) {
  unsigned N = Cfg.getNumBlockIDs();
  PostDominators T;
  T.IPDom.assign(N, -1);
  T.PostNumber.assign(N, -1);
  // Post-order of the reverse graph from the exit, never entering a dead
  // block.
  const CFGBlock *Exit = &Cfg.getExit();
  std::vector<const CFGBlock *> PostOrder;
  std::vector<bool> Seen(N, false);
  std::vector<std::pair<const CFGBlock *, CFGBlock::const_pred_iterator>> Stack;
  Seen[Exit->getBlockID()] = true;
  Stack.push_back({Exit, Exit->pred_begin()});
  while (!Stack.empty()) {
    auto &[Block, It] = Stack.back();
    if (It == Block->pred_end()) {
      T.PostNumber[Block->getBlockID()] = PostOrder.size();
      PostOrder.push_back(Block);
      Stack.pop_back();
      continue;
    }
    const CFGBlock *Pred = *It;
    ++It;
    if (Pred && !Seen[Pred->getBlockID()] && !Dead(Pred)) {
      Seen[Pred->getBlockID()] = true;
      Stack.push_back({Pred, Pred->pred_begin()});
    }
  }
  Steps += PostOrder.size();
  // Cooper, Harvey and Kennedy's iteration, on the reverse graph.
  auto Intersect = [&](int A, int B) {
    while (A != B) {
      while (T.PostNumber[A] < T.PostNumber[B])
        A = T.IPDom[A];
      while (T.PostNumber[B] < T.PostNumber[A])
        B = T.IPDom[B];
    }
    return A;
  };
  T.IPDom[Exit->getBlockID()] = Exit->getBlockID();
  bool Changed = true;
  for (unsigned Pass = 0; Changed && Pass < 64; ++Pass) {
    Changed = false;
    for (auto It = PostOrder.rbegin(); It != PostOrder.rend(); ++It) {
      const CFGBlock *B = *It;
      if (B == Exit)
        continue;
      ++Steps;
      int New = -1;
      for (const CFGBlock *Succ : B->succs()) {
        if (!Succ || T.PostNumber[Succ->getBlockID()] < 0 ||
            T.IPDom[Succ->getBlockID()] < 0)
          continue;
        int S = Succ->getBlockID();
        New = New < 0 ? S : Intersect(S, New);
      }
      if (New >= 0 && T.IPDom[B->getBlockID()] != New) {
        T.IPDom[B->getBlockID()] = New;
        Changed = true;
      }
    }
  }
  return T;
}

bool FailurePaths::onlyFails(const CFGBlock *B, unsigned Index) const {
  if (Index >= B->succ_size())
    return false;
  const CFGBlock *Succ = *(B->succ_begin() + Index);
  if (!Succ)
    return false;
  auto It = ErrorSides.find(B);
  if (It != ErrorSides.end() && It->second == Index)
    return true;
  return MustFail[Succ->getBlockID()];
}

const CFGBlock *FailurePaths::joinIn(const PostDominators &T,
                                     const CFGBlock *B) const {
  int Join = T.IPDom[B->getBlockID()];
  if (Join < 0)
    return nullptr;
  // Every side that does not only fail must reach the exit: otherwise (an
  // endless loop) there is no join to speak of.
  unsigned Index = 0;
  for (const CFGBlock *Succ : B->succs()) {
    if (Succ && !onlyFails(B, Index) && T.IPDom[Succ->getBlockID()] < 0 &&
        Succ != &Cfg.getExit())
      return nullptr;
    ++Index;
  }
  return Blocks[Join];
}

} // namespace ddp
