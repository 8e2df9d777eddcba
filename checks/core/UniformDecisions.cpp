//===--- UniformDecisions.cpp - Choices every rank makes alike ------------===//

#include "core/UniformDecisions.h"
#include "core/AnalysisContext.h"
#include "core/BrokenCode.h"
#include "core/OnceTests.h"
#include "core/RankUniformity.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include <fmt/format.h>

using namespace clang;

namespace ddp {
namespace {

/// Keys are compared as text; long conditions are kept whole.
constexpr size_t MaxKeyText = 400;

const Expr *strip(const Expr *E) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(E))
      E = Cleanups->getSubExpr();
    else if (const auto *Temp = dyn_cast<MaterializeTemporaryExpr>(E))
      E = Temp->getSubExpr();
    else
      break;
  }
  return E;
}

/// The object of `x.size()` (or `x.empty()` with \p Name "empty").
const Expr *objectOfCall(const Expr *E, llvm::StringRef Name) {
  const auto *Call = dyn_cast_or_null<CXXMemberCallExpr>(strip(E));
  if (!Call || Call->getNumArgs() != 0)
    return nullptr;
  const CXXMethodDecl *Method = Call->getMethodDecl();
  if (!Method || !Method->getDeclName().isIdentifier() ||
      Method->getName() != Name)
    return nullptr;
  return Call->getImplicitObjectArgument();
}

bool isZero(const Expr *E, ASTContext &AST) {
  std::optional<llvm::APSInt> Value = evaluateInt(E, AST);
  return Value && *Value == 0;
}

/// The container whose emptiness \p E tests (`v.empty()`, `v.size() == 0`,
/// `v.size() > 0`, `v.size()`), and whether the test holds when it is empty.
const Expr *emptinessTest(const Expr *E, ASTContext &AST,
                          bool &TrueWhenEmpty) {
  if (const Expr *Object = objectOfCall(E, "empty")) {
    TrueWhenEmpty = true;
    return Object;
  }
  if (const Expr *Object = objectOfCall(E, "size")) {
    TrueWhenEmpty = false;
    return Object;
  }
  const auto *BO = dyn_cast<BinaryOperator>(strip(E));
  if (!BO)
    return nullptr;
  const Expr *Size = BO->getLHS();
  BinaryOperatorKind Op = BO->getOpcode();
  if (!isZero(BO->getRHS(), AST)) {
    if (!isZero(BO->getLHS(), AST))
      return nullptr;
    Size = BO->getRHS();
    Op = BinaryOperator::reverseComparisonOp(Op);
  }
  const Expr *Object = objectOfCall(Size, "size");
  if (!Object)
    return nullptr;
  switch (Op) {
  case BO_EQ:
  case BO_LE:
    TrueWhenEmpty = true;
    return Object;
  case BO_NE:
  case BO_GT:
    TrueWhenEmpty = false;
    return Object;
  default:
    return nullptr;
  }
}

bool isLoop(const Stmt *S) {
  return isa_and_nonnull<WhileStmt, ForStmt, DoStmt, CXXForRangeStmt>(S);
}

/// What the successor \p Succ of a switch stands for: "case 2", "default".
std::string caseLabel(const CFGBlock *Succ, AnalysisContext &Ctx) {
  if (!Succ)
    return "another case";
  if (const auto *Case = dyn_cast_or_null<CaseStmt>(Succ->getLabel()))
    return fmt::format("'{}'", Ctx.text(Case->getLHS()));
  if (isa_and_nonnull<DefaultStmt>(Succ->getLabel()))
    return "matched by no case";
  return "matched by no case";
}

} // namespace

std::optional<DecisionName> DecisionTable::name(const CFGBlock *B,
                                                const FunctionDecl *FD,
                                                const ParentMap &Parents,
                                                AnalysisContext &Ctx) {
  const Stmt *Terminator = B->getTerminatorStmt();
  if (!Terminator || !FD || isa<CXXTryStmt>(Terminator))
    return std::nullopt;
  DecisionName Name;
  DecisionInfo Info;
  std::string Test;
  if (const auto *Switch = dyn_cast<SwitchStmt>(Terminator)) {
    if (!Switch->getCond())
      return std::nullopt;
    Info.Shown = Switch->getCond();
    Test = "switch:" + Ctx.text(Info.Shown, MaxKeyText);
    for (const CFGBlock *Succ : B->succs())
      Info.Values.push_back(Succ ? "case " + caseLabel(Succ, Ctx)
                                 : std::string("another case"));
  } else {
    if (B->succ_size() != 2)
      return std::nullopt;
    bool Negated = false;
    const Expr *Cond = nullptr;
    if (const auto *ForRange = dyn_cast<CXXForRangeStmt>(Terminator)) {
      // The body runs when the range is not empty.
      Info.Shown = ForRange->getRangeInit();
      Test = "nonempty:" + Ctx.text(Info.Shown, MaxKeyText);
    } else {
      Cond = RankUniformity::branchCondition(B);
      if (!Cond)
        return std::nullopt;
      // `!x` is the decision `x` with its outcomes swapped.
      for (Cond = strip(Cond); const auto *Not = dyn_cast<UnaryOperator>(Cond);
           Cond = strip(Not->getSubExpr())) {
        if (Not->getOpcode() != UO_LNot)
          break;
        Negated = !Negated;
      }
      bool TrueWhenEmpty = false;
      if (const Expr *Container = emptinessTest(Cond, Ctx.AST, TrueWhenEmpty)) {
        Info.Shown = Container;
        Test = "nonempty:" + Ctx.text(Container, MaxKeyText);
        Negated ^= TrueWhenEmpty;
      } else {
        Info.Shown = Cond;
        Test = "if:" + Ctx.text(Cond, MaxKeyText);
        // Taken in exactly one iteration of the loop around it.
        if (const auto *If = dyn_cast<IfStmt>(Terminator);
            If && !Negated && strip(If->getCond()) == Cond &&
            runsOncePerLoop(If, Parents, Ctx.AST))
          Test = OnceMarker.drop_front().str() + Test;
      }
    }
    bool Emptiness = llvm::StringRef(Test).starts_with("nonempty:");
    Info.Values = Emptiness ? std::vector<std::string>{"not empty", "empty"}
                            : std::vector<std::string>{"true", "false"};
    Name.Reversed = Negated;
    // The loop's own test (not one operand of a `&&` in it): its body is
    // successor 0.
    if (isLoop(Terminator))
      Name.LoopBody = (Negated ? 1 : 0) + 1;
  }
  if (Test.empty() || !Info.Shown)
    return std::nullopt;
  Info.Text = Ctx.text(Info.Shown);
  Name.Key = FD->getQualifiedNameAsString() + "#" + Test;
  Infos.try_emplace(Name.Key, std::move(Info));
  return Name;
}

std::string explainOutcome(llvm::StringRef Text, llvm::StringRef Value) {
  return fmt::format("'{}' is the same on every rank; when it is {}, the "
                     "ranks issue different collectives",
                     Text.str(), Value.str());
}

namespace {

/// Fixes one decision to one outcome throughout a summary.
class Restriction {
public:
  Restriction(SummaryContext &SC, llvm::StringRef Key, unsigned Alternative,
              uint64_t &Steps)
      : SC(SC), Key(Key), Alternative(Alternative), Steps(Steps) {}

  const SummaryNode *apply(const SummaryNode *N) {
    if (!N || (N->getKind() != SummaryNode::Kind::Seq &&
               N->getKind() != SummaryNode::Kind::Choice))
      return N;
    auto It = Memo.find(N);
    if (It != Memo.end())
      return It->second;
    ++Steps;
    llvm::ArrayRef<const SummaryNode *> Kids = N->children();
    const SummaryNode *Result = nullptr;
    if (N->getDecision() == Key && Alternative < Kids.size()) {
      Result = apply(Kids[Alternative]);
      // A loop that runs: its body (which goes back to the head), and once
      // the last iteration is done, what follows the loop.
      unsigned Body = N->getLoopBody();
      if (Body == Alternative + 1 && Kids.size() == 2)
        Result = SC.seq(Result, apply(Kids[1 - Alternative]));
    } else {
      llvm::SmallVector<const SummaryNode *, 8> New;
      for (const SummaryNode *Kid : Kids)
        New.push_back(apply(Kid));
      if (N->getKind() == SummaryNode::Kind::Seq)
        Result = SC.seq(New);
      else if (N->getDecision().empty())
        Result = SC.choice(New);
      else
        Result = SC.decision(N->getDecision(), New, N->getLoopBody());
    }
    Memo[N] = Result;
    return Result;
  }

private:
  SummaryContext &SC;
  llvm::StringRef Key;
  unsigned Alternative;
  uint64_t &Steps;
  llvm::DenseMap<const SummaryNode *, const SummaryNode *> Memo;
};

/// The decisions in \p N, with their number of alternatives.
void collectDecisions(const SummaryNode *N,
                      llvm::DenseSet<const SummaryNode *> &Seen,
                      llvm::MapVector<llvm::StringRef, unsigned> &Out,
                      uint64_t &Steps) {
  if (!N || N->children().empty() || !Seen.insert(N).second)
    return;
  ++Steps;
  if (!N->getDecision().empty()) {
    unsigned &Arity = Out[N->getDecision()];
    Arity = std::max<unsigned>(Arity, N->children().size());
  }
  for (const SummaryNode *Kid : N->children())
    collectDecisions(Kid, Seen, Out, Steps);
}

} // namespace

std::optional<DecisionSplit>
splitOnDecision(SummaryContext &SC, llvm::ArrayRef<const SummaryNode *> Sides,
                llvm::function_ref<bool(uint64_t)> Spend) {
  if (Sides.size() < 2 || llvm::all_equal(Sides))
    return std::nullopt;
  uint64_t Steps = 0;
  // Decisions that at least two sides contain; in the order side 0 has them.
  llvm::MapVector<llvm::StringRef, unsigned> Shared;
  llvm::StringMap<unsigned> SidesWith;
  std::vector<llvm::MapVector<llvm::StringRef, unsigned>> PerSide(Sides.size());
  for (unsigned I = 0; I < Sides.size(); ++I) {
    llvm::DenseSet<const SummaryNode *> Seen;
    collectDecisions(Sides[I], Seen, PerSide[I], Steps);
    for (const auto &[Key, Arity] : PerSide[I])
      ++SidesWith[Key];
  }
  for (const auto &Side : PerSide)
    for (const auto &[Key, Arity] : Side)
      if (SidesWith[Key] > 1) {
        unsigned &A = Shared[Key];
        A = std::max(A, Arity);
      }
  if (!Spend(Steps))
    return std::nullopt;
  for (const auto &[Key, Arity] : Shared)
    for (unsigned Alt = 0; Alt < Arity; ++Alt) {
      uint64_t Taken = 0;
      Restriction R(SC, Key, Alt, Taken);
      DecisionSplit Split;
      Split.Key = Key.str();
      Split.Alternative = Alt;
      for (const SummaryNode *Side : Sides)
        Split.Sides.push_back(SC.plain(R.apply(Side)));
      if (!Spend(Taken))
        return std::nullopt;
      if (!llvm::all_equal(Split.Sides))
        return Split;
    }
  return std::nullopt;
}

} // namespace ddp
