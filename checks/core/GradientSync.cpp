//===--- GradientSync.cpp - Which modules synchronise their gradients -----===//

#include "core/GradientSync.h"
#include "core/ClassHierarchy.h"
#include "core/OptionList.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace ddp {

bool GradientSyncModel::Pattern::matches(llvm::StringRef Name) const {
  return Glob ? Glob->match(Name) : Name == *Text;
}

std::vector<GradientSyncModel::Pattern>
GradientSyncModel::compile(llvm::StringRef List) {
  std::vector<Pattern> Out;
  for (llvm::StringRef Item : splitList(List)) {
    Pattern P;
    P.Text = std::make_shared<const std::string>(Item.str());
    if (Item.find_first_of("*?[") != llvm::StringRef::npos) {
      llvm::Expected<llvm::GlobPattern> Glob =
          llvm::GlobPattern::create(*P.Text);
      if (!Glob) {
        llvm::consumeError(Glob.takeError());
        continue;
      }
      P.Glob = std::move(*Glob);
    }
    Out.push_back(std::move(P));
  }
  return Out;
}

bool GradientSyncModel::anyMatches(const std::vector<Pattern> &Patterns,
                                   const NamedDecl *D) {
  if (!D || !D->getDeclName().isIdentifier())
    return false;
  std::string Qualified;
  for (const Pattern &P : Patterns) {
    if (llvm::StringRef(*P.Text).contains("::")) {
      if (Qualified.empty())
        Qualified = D->getQualifiedNameAsString();
      if (P.matches(Qualified))
        return true;
    } else if (P.matches(D->getName())) {
      return true;
    }
  }
  return false;
}

GradientSyncModel::GradientSyncModel(const AnalysisOptions &Opts)
    : Wrappers(compile(Opts.SyncWrappers)), Guards(compile(Opts.NoSyncGuards)),
      Methods(compile(Opts.NoSyncMethods)), Flags(compile(Opts.SyncFlags)) {}

bool GradientSyncModel::isWrapper(const CXXRecordDecl *RD) const {
  return isOrDerivesFrom(
      RD, [&](const CXXRecordDecl *C) { return anyMatches(Wrappers, C); });
}

bool GradientSyncModel::isWrapperType(QualType T) const {
  // std::shared_ptr<Impl>, torch::nn::ModuleHolder<Impl> too.
  return holdsClass(T, [&](const CXXRecordDecl *RD) { return isWrapper(RD); });
}

bool GradientSyncModel::isNoSyncGuardType(QualType T) const {
  if (T.isNull())
    return false;
  const CXXRecordDecl *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  return RD && anyMatches(Guards, RD);
}

bool GradientSyncModel::isNoSyncMethod(const FunctionDecl *FD) const {
  return FD && anyMatches(Methods, FD);
}

bool GradientSyncModel::isSyncFlag(const ValueDecl *D) const {
  return D && anyMatches(Flags, D);
}

const ValueDecl *GradientSyncModel::heldModule(const Expr *E) {
  for (unsigned Steps = 0; E && Steps < 8; ++Steps) {
    E = E->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return DRE->getDecl();
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (isa<FieldDecl>(ME->getMemberDecl()))
        return ME->getMemberDecl();
      return nullptr;
    }
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
      if ((Op->getOperator() == OO_Arrow || Op->getOperator() == OO_Star) &&
          Op->getNumArgs() >= 1) {
        E = Op->getArg(0);
        continue;
      }
      return nullptr;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->getOpcode() != UO_Deref && UO->getOpcode() != UO_AddrOf)
        return nullptr;
      E = UO->getSubExpr();
      continue;
    }
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(E)) {
      const FunctionDecl *FD = Member->getDirectCallee();
      if (!FD || !FD->getDeclName().isIdentifier() ||
          (FD->getName() != "get" && FD->getName() != "ptr"))
        return nullptr;
      E = Member->getImplicitObjectArgument();
      continue;
    }
    return nullptr;
  }
  return nullptr;
}

const Expr *GradientSyncModel::parametersOwner(const Expr *Params) {
  llvm::SmallVector<const Stmt *, 8> Work{Params};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(S)) {
      const FunctionDecl *Callee = Member->getDirectCallee();
      if (Callee && Callee->getDeclName().isIdentifier() &&
          Callee->getName() == "parameters")
        return Member->getImplicitObjectArgument()->IgnoreParenImpCasts();
    }
    // auto params = model->parameters(); Reducer reducer(params, ...).
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        if (VD->hasLocalStorage() && VD->getInit())
          Work.push_back(VD->getInit());
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
  return nullptr;
}

const ValueDecl *GradientSyncModel::forwardTarget(const CallExpr *Call) {
  // m->forward(x), m.forward(x).
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call)) {
    const FunctionDecl *FD = Member->getDirectCallee();
    if (FD && FD->getDeclName().isIdentifier() && FD->getName() == "forward")
      return heldModule(Member->getImplicitObjectArgument());
    return nullptr;
  }
  // m(x) on a module holder: ModuleHolder::operator().
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call))
    if (Op->getOperator() == OO_Call && Op->getNumArgs() >= 1)
      return heldModule(Op->getArg(0));
  return nullptr;
}

} // namespace ddp
