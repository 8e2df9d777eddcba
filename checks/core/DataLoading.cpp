//===--- DataLoading.cpp - What LibTorch's data API does with the rank ----===//

#include "core/DataLoading.h"
#include "core/AnalysisContext.h"
#include "core/BrokenCode.h"
#include "core/ClassHierarchy.h"
#include "core/Finding.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/STLFunctionalExtras.h"

using namespace clang;

namespace ddp::data {
namespace {

bool isNamed(const CXXRecordDecl *RD, llvm::StringRef Qualified) {
  return RD && RD->getDeclName().isIdentifier() &&
         RD->getQualifiedNameAsString() == Qualified;
}

bool derivesFromNamed(const CXXRecordDecl *RD, llvm::StringRef Qualified) {
  return isOrDerivesFrom(
      RD, [&](const CXXRecordDecl *Base) { return isNamed(Base, Qualified); });
}

const CXXRecordDecl *recordOf(QualType T) {
  T = T.getNonReferenceType();
  if (const auto *RD = T->getAsCXXRecordDecl())
    return RD;
  return nullptr;
}

/// True if \p E, or an expression inside it, calls a method of a loader.
bool takesFromLoader(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(S))
    if (isDataLoader(Member->getRecordDecl()))
      return true;
  for (const Stmt *Child : S->children())
    if (takesFromLoader(Child))
      return true;
  return false;
}

} // namespace

bool isDataLoader(const CXXRecordDecl *RD) {
  return derivesFromNamed(RD, "torch::data::DataLoaderBase");
}

bool isDataLoaderType(QualType T) {
  T = T.getNonReferenceType();
  if (T->isPointerType())
    T = T->getPointeeType();
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD)
    return false;
  if (isDataLoader(RD))
    return true;
  // std::unique_ptr<StatelessDataLoader<...>> and std::shared_ptr<...>.
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD))
    if (Spec->isInStdNamespace() && Spec->getTemplateArgs().size() > 0 &&
        Spec->getTemplateArgs()[0].getKind() == TemplateArgument::Type)
      return isDataLoaderType(Spec->getTemplateArgs()[0].getAsType());
  return false;
}

bool isDistributedSampler(const CXXRecordDecl *RD) {
  return derivesFromNamed(RD, "torch::data::samplers::DistributedSampler");
}

bool isSampler(const CXXRecordDecl *RD) {
  return derivesFromNamed(RD, "torch::data::samplers::Sampler");
}

bool isChunkDataset(const CXXRecordDecl *RD) {
  return isNamed(RD, "torch::data::datasets::ChunkDataset");
}

bool isMakeDataLoader(const FunctionDecl *FD) {
  return FD && FD->getDeclName().isIdentifier() &&
         FD->getName() == "make_data_loader" &&
         FD->getQualifiedNameAsString() == "torch::data::make_data_loader";
}

const CXXConstructExpr *constructionOf(const Expr *E) {
  for (unsigned Steps = 0; E && Steps < 16; ++Steps) {
    E = E->IgnoreParenImpCasts();
    if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(E)) {
      E = Cleanups->getSubExpr();
      continue;
    }
    if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(E)) {
      E = MTE->getSubExpr();
      continue;
    }
    if (const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(E)) {
      E = Bind->getSubExpr();
      continue;
    }
    if (const auto *Cast = dyn_cast<CastExpr>(E)) {
      E = Cast->getSubExpr();
      continue;
    }
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      if (!isStdMove(Call))
        return nullptr;
      E = Call->getArg(0);
      continue;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (!VD || !VD->hasLocalStorage() || isa<ParmVarDecl>(VD) ||
          !VD->getInit())
        return nullptr;
      E = VD->getInit();
      continue;
    }
    const auto *Construct = dyn_cast<CXXConstructExpr>(E);
    if (!Construct)
      return nullptr;
    // A copy or a move: look at what was copied.
    if (Construct->getConstructor()->isCopyOrMoveConstructor() &&
        Construct->getNumArgs() >= 1) {
      E = Construct->getArg(0);
      continue;
    }
    return Construct;
  }
  return nullptr;
}

LoaderInputs loaderInputs(const CallExpr *Call) {
  LoaderInputs In;
  auto IsOptions = [](const Expr *Arg) {
    return isNamed(recordOf(Arg->getType()), "torch::data::DataLoaderOptions");
  };
  auto Given = [](const Expr *Arg) -> const Expr * {
    return isa<CXXDefaultArgExpr>(Arg) ? nullptr : Arg;
  };
  unsigned N = Call->getNumArgs();
  if (N == 0)
    return In;
  if (N >= 2 && !IsOptions(Call->getArg(1))) {
    In.Count = Call->getArg(1);
    In.CountIsSampler = true;
    if (N >= 3)
      In.Options = Given(Call->getArg(2));
    return In;
  }
  In.Count = Call->getArg(0);
  if (N >= 2)
    In.Options = Given(Call->getArg(1));
  return In;
}

const Expr *chunkSamplerArgument(const Expr *E) {
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
    if (isChunkDataset(Construct->getConstructor()->getParent()) &&
        Construct->getNumArgs() >= 2)
      return Construct->getArg(1);
    return nullptr;
  }
  // datasets::make_shared_dataset<ChunkDataset<...>>(reader, sampler, ...).
  const auto *Call = dyn_cast<CallExpr>(E);
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD || !FD->getDeclName().isIdentifier() ||
      FD->getName() != "make_shared_dataset" || Call->getNumArgs() < 2)
    return nullptr;
  const TemplateArgumentList *Args = FD->getTemplateSpecializationArgs();
  if (!Args || Args->size() == 0 ||
      Args->get(0).getKind() != TemplateArgument::Type)
    return nullptr;
  if (!isChunkDataset(Args->get(0).getAsType()->getAsCXXRecordDecl()))
    return nullptr;
  return Call->getArg(1);
}

bool iteratesDataLoader(const Stmt *Loop) {
  if (const auto *Range = dyn_cast_or_null<CXXForRangeStmt>(Loop))
    return Range->getRangeInit() &&
           isDataLoaderType(Range->getRangeInit()->getType());
  if (const auto *While = dyn_cast_or_null<WhileStmt>(Loop)) {
    if (const VarDecl *Var = While->getConditionVariable())
      if (takesFromLoader(Var->getInit()))
        return true;
    return takesFromLoader(While->getCond());
  }
  if (const auto *For = dyn_cast_or_null<ForStmt>(Loop)) {
    if (const VarDecl *Var = For->getConditionVariable())
      if (takesFromLoader(Var->getInit()))
        return true;
    return takesFromLoader(For->getCond());
  }
  if (const auto *Do = dyn_cast_or_null<DoStmt>(Loop))
    return takesFromLoader(Do->getCond());
  return false;
}

const VarDecl *stridedShardVariable(const ForStmt *Loop) {
  const auto *Init = dyn_cast_or_null<DeclStmt>(Loop->getInit());
  if (!Init || !Init->isSingleDecl())
    return nullptr;
  const auto *Var = dyn_cast<VarDecl>(Init->getSingleDecl());
  if (!Var || !Var->getInit() || Var->getInit()->isValueDependent())
    return nullptr;
  // for (i = 0; ...) starts in the same place everywhere.
  if (evaluateInt(Var->getInit(), Var->getASTContext()))
    return nullptr;
  auto NamesVar = [&](const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && DRE->getDecl() == Var;
  };
  const Expr *Inc = Loop->getInc();
  if (!Inc)
    return nullptr;
  Inc = Inc->IgnoreParenImpCasts();
  if (const auto *Compound = dyn_cast<CompoundAssignOperator>(Inc))
    return Compound->getOpcode() == BO_AddAssign && NamesVar(Compound->getLHS())
               ? Var
               : nullptr;
  if (const auto *Assign = dyn_cast<BinaryOperator>(Inc)) {
    const auto *Sum =
        dyn_cast<BinaryOperator>(Assign->getRHS()->IgnoreParenImpCasts());
    if (Assign->getOpcode() == BO_Assign && NamesVar(Assign->getLHS()) && Sum &&
        Sum->getOpcode() == BO_Add &&
        (NamesVar(Sum->getLHS()) || NamesVar(Sum->getRHS())))
      return Var;
  }
  return nullptr;
}

bool isDataLoop(const Finding &F) {
  if (F.Kind != Finding::Shape::Loop || !F.Branch)
    return false;
  if (iteratesDataLoader(F.Branch))
    return true;
  const auto *For = dyn_cast<ForStmt>(F.Branch);
  return For && stridedShardVariable(For);
}

} // namespace ddp::data
