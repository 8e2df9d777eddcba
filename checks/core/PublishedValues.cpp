//===--- PublishedValues.cpp - What the root of a broadcast publishes -----===//

#include "core/PublishedValues.h"
#include "core/AnalysisContext.h"
#include "core/CollectiveCatalogue.h"
#include "core/CommunicatorMembership.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/SmallVector.h"

using namespace clang;

namespace ddp {

namespace {

/// The branch's test: which successor the root takes, and the root's value.
struct RootTest {
  unsigned RootSuccessor;
  const Expr *Root; ///< Null for `!rank` and `if (rank)`: the root is 0.
};

std::optional<RootTest>
rootTest(const Expr *Cond,
         llvm::function_ref<bool(const clang::Expr *)> IsRank) {
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(Cond))
    if (UO->getOpcode() == UO_LNot && IsRank(UO->getSubExpr()))
      return RootTest{0, nullptr};
  if (IsRank(Cond))
    return RootTest{1, nullptr};
  const auto *BO = dyn_cast<BinaryOperator>(Cond);
  if (!BO || (BO->getOpcode() != BO_EQ && BO->getOpcode() != BO_NE))
    return std::nullopt;
  unsigned Successor = BO->getOpcode() == BO_EQ ? 0 : 1;
  if (IsRank(BO->getLHS()) && !IsRank(BO->getRHS()))
    return RootTest{Successor, BO->getRHS()};
  if (IsRank(BO->getRHS()) && !IsRank(BO->getLHS()))
    return RootTest{Successor, BO->getLHS()};
  return std::nullopt;
}

/// The blocks reachable from \p Start before \p Join.
llvm::DenseSet<const CFGBlock *> sideOf(const CFGBlock *Start,
                                        const CFGBlock *Join) {
  llvm::DenseSet<const CFGBlock *> Side;
  llvm::SmallVector<const CFGBlock *, 16> Work;
  if (Start && Start != Join)
    Work.push_back(Start);
  while (!Work.empty()) {
    const CFGBlock *B = Work.pop_back_val();
    if (!Side.insert(B).second)
      continue;
    for (const CFGBlock *Succ : B->succs())
      if (Succ && Succ != Join)
        Work.push_back(Succ);
  }
  return Side;
}

/// The root argument of a broadcast whose catalogue name is \p Op.
std::optional<unsigned> rootArgument(llvm::StringRef Op) {
  if (Op == "MPI_Bcast" || Op == "MPI_Ibcast" || Op == "MPI_Bcast_init" ||
      Op == "ncclBcast")
    return 3;
  if (Op == "ncclBroadcast")
    return 4;
  return std::nullopt;
}

/// The first collective call the side \p Side issues, walking its blocks in
/// the order \p Order gives.
const CallExpr *firstCollective(llvm::ArrayRef<const CFGBlock *> Order,
                                const llvm::DenseSet<const CFGBlock *> &Side,
                                const CatalogueEntry *&Entry,
                                AnalysisContext &Ctx) {
  for (const CFGBlock *B : Order) {
    if (!Side.contains(B))
      continue;
    for (const CFGElement &Elem : *B) {
      auto S = Elem.getAs<CFGStmt>();
      const auto *Call = S ? dyn_cast<CallExpr>(S->getStmt()) : nullptr;
      if (!Call || Call->containsErrors())
        continue;
      Entry = Ctx.Catalogue.classify(Call);
      if (Entry && isCollectiveRole(Entry->Role))
        return Call;
    }
  }
  return nullptr;
}

/// Whether \p Arg names the root \p Root (null: rank 0).
bool sameRoot(const Expr *Arg, const Expr *Root, const ASTContext &AST) {
  Expr::EvalResult A, R;
  bool ArgConstant = !Arg->isValueDependent() && Arg->EvaluateAsInt(A, AST);
  if (!Root)
    return ArgConstant && A.Val.getInt() == 0;
  bool RootConstant = !Root->isValueDependent() && Root->EvaluateAsInt(R, AST);
  if (ArgConstant && RootConstant)
    return llvm::APSInt::isSameValue(A.Val.getInt(), R.Val.getInt());
  return !ArgConstant && !RootConstant && sameObject(Arg, Root);
}

} // namespace

std::optional<PublishingBranch>
publishingBranch(const CFGBlock *Branch, const CFGBlock *Join,
                 llvm::ArrayRef<const CFGBlock *> Order,
                 llvm::function_ref<bool(const clang::Expr *)> IsRank,
                 AnalysisContext &Ctx) {
  const Stmt *Terminator = Branch->getTerminatorCondition();
  const auto *Cond = dyn_cast_or_null<Expr>(Terminator);
  if (!Cond || Cond->containsErrors() || Branch->succ_size() != 2)
    return std::nullopt;
  std::optional<RootTest> Test = rootTest(Cond, IsRank);
  if (!Test)
    return std::nullopt;
  llvm::DenseSet<const CFGBlock *> Sides[2];
  for (unsigned I = 0; I < 2; ++I)
    Sides[I] = sideOf(*(Branch->succ_begin() + I), Join);
  PublishingBranch Result;
  for (const CFGBlock *B : Sides[0])
    if (Sides[1].contains(B))
      Result.Shared.insert(B);
  // Each side's own blocks, without those both reach.
  llvm::DenseSet<const CFGBlock *> Own[2];
  bool Returns[2] = {false, false};
  for (unsigned I = 0; I < 2; ++I) {
    for (const CFGBlock *B : Sides[I])
      if (!Result.Shared.contains(B))
        Own[I].insert(B);
    const CatalogueEntry *Entry = nullptr;
    const CallExpr *First = firstCollective(Order, Own[I], Entry, Ctx);
    if (!First || !publishesRootValue(Entry->Display))
      return std::nullopt;
    if (std::optional<unsigned> Arg = rootArgument(Entry->Display))
      if (*Arg >= First->getNumArgs() ||
          !sameRoot(First->getArg(*Arg), Test->Root, Ctx.AST))
        return std::nullopt;
    Returns[I] = llvm::any_of(Own[I], [](const CFGBlock *B) {
      return llvm::any_of(*B, [](const CFGElement &Elem) {
        auto S = Elem.getAs<CFGStmt>();
        return S && isa<ReturnStmt>(S->getStmt());
      });
    });
  }
  Result.BothReturn = Returns[0] && Returns[1];
  const llvm::DenseSet<const CFGBlock *> &RootSide = Own[Test->RootSuccessor];
  const llvm::DenseSet<const CFGBlock *> &OtherSide =
      Own[1 - Test->RootSuccessor];
  for (const CFGBlock *B : Result.Shared) {
    auto From = [&](const llvm::DenseSet<const CFGBlock *> &Side) {
      return llvm::any_of(B->preds(), [&](const CFGBlock *Pred) {
        return Pred && Side.contains(Pred);
      });
    };
    if (From(OtherSide) && From(RootSide))
      Result.Merges.push_back(B);
  }
  Result.OtherSide = OtherSide;
  return Result;
}

} // namespace ddp
