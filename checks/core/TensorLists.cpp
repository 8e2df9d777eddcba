//===--- TensorLists.cpp - Tensor lists whose length differs between ranks ===//

#include "core/TensorLists.h"
#include "core/AnalysisContext.h"
#include "core/Finding.h"
#include "core/FunctionAnalysis.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace ddp {
namespace {

llvm::StringRef methodName(const CXXMemberCallExpr *Call) {
  const CXXMethodDecl *Method = Call ? Call->getMethodDecl() : nullptr;
  return Method && Method->getDeclName().isIdentifier() ? Method->getName()
                                                        : llvm::StringRef();
}

/// Operations that set the length whatever it was.
bool setsLength(llvm::StringRef Name) {
  return Name == "resize" || Name == "clear" || Name == "assign";
}

const VarDecl *localVariable(const Expr *E) {
  const auto *Ref =
      dyn_cast_or_null<DeclRefExpr>(E ? E->IgnoreParenImpCasts() : nullptr);
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  return Var && Var->hasLocalStorage() ? Var : nullptr;
}

/// The collectives over a tensor list and the changes of local lists, in
/// one function body (not in the lambdas it defines).
struct ListUses {
  struct Collective {
    const CallExpr *Call;
    const Expr *List;
    const VarDecl *Var;
  };
  std::vector<Collective> Collectives;
  llvm::DenseMap<const VarDecl *, std::vector<const CXXMemberCallExpr *>>
      Changes;

  void collect(const Stmt *S, AnalysisContext &Ctx) {
    if (!S || isa<LambdaExpr>(S))
      return;
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(S))
      if (changesLength(methodName(Member)))
        if (const VarDecl *Var =
                localVariable(Member->getImplicitObjectArgument()))
          Changes[Var].push_back(Member);
    // Every list a collective takes: the inputs of an allgather must match
    // in length as much as the buffers of an allreduce.
    if (const auto *Call = dyn_cast<CallExpr>(S))
      if (const CatalogueEntry *Entry = Ctx.Catalogue.classify(Call))
        if (isCollectiveRole(Entry->Role))
          for (const Expr *Arg : Call->arguments())
            if (const VarDecl *Var = localVariable(Arg))
              if (isTensorList(Var->getType()))
                Collectives.push_back({Call, Arg, Var});
    for (const Stmt *Child : S->children())
      collect(Child, Ctx);
  }

  /// A std::vector of tensors, or of such vectors. (Not the split sizes of
  /// an all-to-all, which differ between ranks by design.)
  static bool isTensorList(QualType T, unsigned Depth = 0) {
    const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
        T.getNonReferenceType()->getAsCXXRecordDecl());
    if (!Spec || Spec->getName() != "vector" || Depth > 1 ||
        Spec->getTemplateArgs().size() == 0 ||
        Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
      return false;
    QualType Element = Spec->getTemplateArgs()[0].getAsType();
    if (const auto *RD = Element->getAsCXXRecordDecl())
      if (RD->getDeclName().isIdentifier() &&
          (RD->getName() == "Tensor" || RD->getName() == "TensorBase"))
        return true;
    return isTensorList(Element, Depth + 1);
  }
};

/// True if \p S is within \p Outer.
bool within(const Stmt *S, const Stmt *Outer, const SourceManager &SM) {
  return S && Outer &&
         SM.isPointWithin(S->getBeginLoc(), Outer->getBeginLoc(),
                          Outer->getEndLoc());
}

/// True if the `if` whose arm holds \p Change changes \p Var the same way
/// in its other arm: `if (rank == 0) v.push_back(a); else v.push_back(b);`
/// keeps the lengths equal.
bool balancedByOtherArm(const CXXMemberCallExpr *Change,
                        llvm::ArrayRef<const CXXMemberCallExpr *> Others,
                        ParentMap &Parents, const SourceManager &SM) {
  for (const Stmt *S = Parents.getParent(Change); S; S = Parents.getParent(S)) {
    const auto *If = dyn_cast<IfStmt>(S);
    if (!If || !If->getElse())
      continue;
    const Stmt *Mine = within(Change, If->getThen(), SM) ? If->getThen()
                                                         : If->getElse();
    const Stmt *Theirs = Mine == If->getThen() ? If->getElse() : If->getThen();
    for (const CXXMemberCallExpr *Other : Others)
      if (Other != Change && within(Other, Theirs, SM) &&
          methodName(Other) == methodName(Change))
        return true;
    return false;
  }
  return false;
}

/// True if \p S reads a gradient (`p.grad().defined()`).
bool readsGradient(const Stmt *S, unsigned Depth = 0) {
  if (!S || Depth > 12)
    return false;
  if (const auto *E = dyn_cast<Expr>(S))
    if (isGradient(E))
      return true;
  for (const Stmt *Child : S->children())
    if (readsGradient(Child, Depth + 1))
      return true;
  return false;
}

} // namespace

bool changesLength(llvm::StringRef Name) {
  static const llvm::StringRef Names[] = {
      "push_back", "emplace_back", "push_front", "emplace_front",
      "insert",    "emplace",      "erase",      "pop_back",
      "pop_front", "resize",       "clear",      "assign",
      "append"};
  return llvm::is_contained(Names, Name);
}

bool isGradient(const Expr *E) {
  for (unsigned Depth = 0; E && Depth < 4; ++Depth) {
    E = E->IgnoreParenImpCasts();
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(E)) {
      llvm::StringRef Name = methodName(Member);
      return Name == "grad" || Name == "mutable_grad";
    }
    // `auto &g = p.grad(); if (g.defined())`.
    const VarDecl *Var = localVariable(E);
    if (!Var || !Var->getInit())
      return false;
    E = Var->getInit();
  }
  return false;
}

void findUnevenLists(FunctionAnalysis &FA, AnalysisContext &Ctx,
                     std::vector<Finding> &Out) {
  const FunctionDecl *FD = FA.decl();
  if (!FD || !FD->getBody() || FA.skipped())
    return;
  ListUses Uses;
  Uses.collect(FD->getBody(), Ctx);
  if (Uses.Collectives.empty() || Uses.Changes.empty())
    return;
  const SourceManager &SM = Ctx.AST.getSourceManager();
  ParentMap Parents(FD->getBody());
  for (const ListUses::Collective &C : Uses.Collectives) {
    auto It = Uses.Changes.find(C.Var);
    if (It == Uses.Changes.end())
      continue;
    const Expr *CallCondition = FA.controllingCondition(C.Call);
    const CXXMemberCallExpr *Uneven = nullptr;
    const Expr *Condition = nullptr;
    for (const CXXMemberCallExpr *Change : It->second) {
      if (!SM.isBeforeInTranslationUnit(Change->getBeginLoc(),
                                        C.Call->getBeginLoc()))
        continue;
      const Expr *Cond = FA.controllingCondition(Change);
      if (!Cond) {
        // Set to one length on every rank: what came before no longer
        // counts.
        if (setsLength(methodName(Change))) {
          Uneven = nullptr;
          Condition = nullptr;
        }
        continue;
      }
      // Under the same condition as the collective: the ranks that change
      // the list are the ones that call it (the branch's own finding).
      if (Cond == CallCondition ||
          balancedByOtherArm(Change, It->second, Parents, SM))
        continue;
      if (!Uneven) {
        Uneven = Change;
        Condition = Cond;
      }
    }
    if (!Uneven)
      continue;
    // A call already reported (the ranks whose list is empty leave before
    // it): the list's lengths explain it further.
    Finding *F = nullptr;
    for (Finding &Existing : Out)
      if (Existing.Site == C.Call && !Existing.IsBarrier)
        F = &Existing;
    bool New = !F;
    Finding Fresh;
    if (New)
      F = &Fresh;
    F->List = C.List;
    F->ListText = Ctx.text(C.List);
    F->ListChange = Uneven;
    F->ListCondition = Condition;
    F->ListConditionText = Ctx.text(Condition);
    F->ListWhy = FA.controllingBranch(Uneven);
    F->ListOfGradients = readsGradient(Condition);
    for (const Expr *Arg : Uneven->arguments())
      F->ListOfGradients |= isGradient(Arg);
    if (!New)
      continue;
    const CatalogueEntry *Entry = Ctx.Catalogue.classify(C.Call);
    F->Function = FD;
    F->Site = C.Call;
    F->Op = Entry ? Entry->Display : std::string();
    F->IsBarrier = false;
    F->Kind = Finding::Shape::UnevenList;
    F->Branch = Uneven;
    F->Condition = Condition;
    F->ConditionText = F->ListConditionText;
    F->Why = F->ListWhy;
    Out.push_back(std::move(Fresh));
  }
}

} // namespace ddp
