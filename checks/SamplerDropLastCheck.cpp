//===--- SamplerDropLastCheck.cpp - ddp-sampler-drop-last -----------------===//

#include "SamplerDropLastCheck.h"
#include "core/CollectiveCatalogue.h"
#include "core/DataLoading.h"
#include "core/TranslationUnitAnalysis.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::ddp {

namespace data = ::ddp::data;

namespace {

std::string sourceText(const Expr *E, const ASTContext &Context) {
  return Lexer::getSourceText(
             CharSourceRange::getTokenRange(E->getSourceRange()),
             Context.getSourceManager(), Context.getLangOpts())
      .str();
}

/// The expression a loop takes its batches from: the range of a range-for,
/// or the loader whose next batch the condition takes.
const Expr *loaderOf(const Stmt *Loop) {
  if (const auto *Range = dyn_cast<CXXForRangeStmt>(Loop))
    return Range->getRangeInit();
  const Stmt *Cond = nullptr;
  if (const auto *While = dyn_cast<WhileStmt>(Loop))
    Cond = While->getConditionVariable()
               ? While->getConditionVariable()->getInit()
               : While->getCond();
  else if (const auto *For = dyn_cast<ForStmt>(Loop))
    Cond = For->getConditionVariable() ? For->getConditionVariable()->getInit()
                                       : For->getCond();
  else if (const auto *Do = dyn_cast<DoStmt>(Loop))
    Cond = Do->getCond();
  llvm::SmallVector<const Stmt *, 8> Work{Cond};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(S))
      if (data::isDataLoader(Member->getRecordDecl())) {
        // `loader->next()`: the loader is what `->` applies to.
        const Expr *Object = Member->getImplicitObjectArgument();
        if (const auto *Arrow =
                dyn_cast<CXXOperatorCallExpr>(Object->IgnoreParenImpCasts()))
          if (Arrow->getOperator() == OO_Arrow && Arrow->getNumArgs() == 1)
            return Arrow->getArg(0);
        return Object;
      }
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
  return nullptr;
}

/// The make_data_loader call a loader expression (`*loader`, `loader`,
/// `loader->`) was built by, if it is in this function.
const CallExpr *makeDataLoaderOf(const Expr *Loader) {
  for (unsigned Steps = 0; Loader && Steps < 8; ++Steps) {
    Loader = Loader->IgnoreParenImpCasts();
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Loader)) {
      if ((Op->getOperator() == OO_Star || Op->getOperator() == OO_Arrow) &&
          Op->getNumArgs() > 0) {
        Loader = Op->getArg(0);
        continue;
      }
      return nullptr;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(Loader)) {
      Loader = UO->getSubExpr();
      continue;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Loader)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (!VD || !VD->getInit())
        return nullptr;
      Loader = VD->getInit();
      continue;
    }
    if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(Loader)) {
      Loader = Cleanups->getSubExpr();
      continue;
    }
    if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(Loader)) {
      Loader = MTE->getSubExpr();
      continue;
    }
    if (const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(Loader)) {
      Loader = Bind->getSubExpr();
      continue;
    }
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(Loader)) {
      if (Construct->getNumArgs() != 1)
        return nullptr;
      Loader = Construct->getArg(0);
      continue;
    }
    const auto *Call = dyn_cast<CallExpr>(Loader);
    return Call && data::isMakeDataLoader(Call->getDirectCallee()) ? Call
                                                                   : nullptr;
  }
  return nullptr;
}

/// What \p E holds: the initialiser of the local variable it names,
/// looking through std::move and implicit conversions.
const Expr *initialValue(const Expr *E) {
  for (unsigned Steps = 0; Steps < 8; ++Steps) {
    E = E->IgnoreImplicit();
    if (const auto *Call = dyn_cast<CallExpr>(E))
      if (const FunctionDecl *FD = Call->getDirectCallee())
        if (FD->isInStdNamespace() && FD->getDeclName().isIdentifier() &&
            FD->getName() == "move" && Call->getNumArgs() == 1) {
          E = Call->getArg(0);
          continue;
        }
    if (const auto *Copy = dyn_cast<CXXConstructExpr>(E))
      if (Copy->getConstructor()->isCopyOrMoveConstructor() &&
          Copy->getNumArgs() >= 1) {
        E = Copy->getArg(0);
        continue;
      }
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!VD || !VD->hasLocalStorage() || isa<ParmVarDecl>(VD) || !VD->getInit())
      return E;
    E = VD->getInit();
  }
  return E;
}

/// The name of a class for diagnostics, without template arguments.
std::string className(const CXXRecordDecl *RD) {
  return RD->getDeclName().isIdentifier() ? RD->getName().str()
                                          : RD->getNameAsString();
}

/// True if \p E is an empty optional: `c10::nullopt`, `{}`, `optional<T>()`.
bool isEmptyOptional(const Expr *E) {
  if (!E)
    return false;
  E = E->IgnoreImplicit();
  if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(E))
    E = Cleanups->getSubExpr()->IgnoreImplicit();
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
    if (Construct->getNumArgs() == 0)
      return true;
    if (Construct->getNumArgs() != 1)
      return false;
    const Expr *Arg = Construct->getArg(0)->IgnoreImplicit();
    if (const auto *Record = Arg->getType()->getAsCXXRecordDecl())
      if (Record->getDeclName().isIdentifier() &&
          Record->getName() == "nullopt_t")
        return true;
    return isEmptyOptional(Arg);
  }
  if (const auto *List = dyn_cast<InitListExpr>(E))
    return List->getNumInits() == 0;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return DRE->getDecl()->getDeclName().isIdentifier() &&
           DRE->getDecl()->getName() == "nullopt";
  return false;
}

/// The local variables and parameters in scope at \p E, innermost first.
std::vector<const VarDecl *> visibleVariables(const Expr *E,
                                              ASTContext &Context) {
  std::vector<const VarDecl *> Vars;
  DynTypedNode Node = DynTypedNode::create(*E);
  for (unsigned Depth = 0; Depth < 64; ++Depth) {
    DynTypedNodeList Parents = Context.getParents(Node);
    if (Parents.empty())
      break;
    DynTypedNode Parent = Parents[0];
    if (const auto *Block = Parent.get<CompoundStmt>()) {
      const Stmt *Child = Node.get<Stmt>();
      llvm::SmallVector<const VarDecl *, 8> Before;
      for (const Stmt *S : Block->body()) {
        if (S == Child)
          break;
        if (const auto *Decls = dyn_cast<DeclStmt>(S))
          for (const Decl *D : Decls->decls())
            if (const auto *VD = dyn_cast<VarDecl>(D))
              Before.push_back(VD);
      }
      Vars.insert(Vars.end(), Before.rbegin(), Before.rend());
    } else if (const auto *For = Parent.get<ForStmt>()) {
      if (const auto *Decls = dyn_cast_or_null<DeclStmt>(For->getInit()))
        if (Node.get<Stmt>() != For->getInit())
          for (const Decl *D : Decls->decls())
            if (const auto *VD = dyn_cast<VarDecl>(D))
              Vars.push_back(VD);
    } else if (const auto *FD = Parent.get<FunctionDecl>()) {
      for (const ParmVarDecl *Param : FD->parameters())
        Vars.push_back(Param);
      break;
    } else if (Parent.get<LambdaExpr>()) {
      break;
    }
    Node = Parent;
  }
  return Vars;
}

} // namespace

bool SamplerDropLastCheck::owns(const ::ddp::Finding &F) const {
  return data::isDataLoop(F);
}

DiagnosticBuilder SamplerDropLastCheck::warn(const ::ddp::Finding &F,
                                             SourceLocation Loc) {
  const ASTContext &Context = F.Function->getASTContext();
  if (const Expr *Loader = loaderOf(F.Branch))
    return diag(Loc, "%0 is called once per batch, and ranks get different "
                     "numbers of batches from '%1'")
           << subject(F) << sourceText(Loader, Context);
  const auto *For = cast<ForStmt>(F.Branch);
  const VarDecl *Var = data::stridedShardVariable(For);
  return diag(Loc, "%0 is called once per item of this rank's share, and the "
                   "shares differ in size: '%1' starts at '%2' and steps "
                   "over the items while '%3'")
         << subject(F) << Var->getName() << sourceText(Var->getInit(), Context)
         << F.ConditionText;
}

void SamplerDropLastCheck::advise(const ::ddp::Finding &F, bool Fixed,
                                  ASTContext &Context) {
  if (loaderOf(F.Branch)) {
    adviseLoader(F);
    return;
  }
  diag(F.Branch->getBeginLoc(),
       "run the same number of iterations on every rank (the largest share, "
       "or the smallest) and skip the work past the end of this rank's "
       "share, not the collective",
       DiagnosticIDs::Note);
}

void SamplerDropLastCheck::adviseLoader(const ::ddp::Finding &F) {
  static const char *const EqualiseSteps =
      "or make every rank run the same number of steps: an allreduce with "
      "MIN of the local number of batches, then stop there";
  const CallExpr *Make = makeDataLoaderOf(loaderOf(F.Branch));
  if (!Make) {
    diag(F.Branch->getBeginLoc(),
         "make every rank run the same number of steps: a fixed step count, "
         "or an allreduce with MIN of the local number of batches",
         DiagnosticIDs::Note);
    return;
  }
  data::LoaderInputs In = data::loaderInputs(Make);
  const CXXConstructExpr *Sampler =
      In.CountIsSampler ? data::constructionOf(In.Count) : nullptr;
  if (Sampler &&
      data::isDistributedSampler(Sampler->getConstructor()->getParent())) {
    diag(Sampler->getBeginLoc(),
         "'%0' gives every rank the same number of batches only if its size "
         "is the same on every rank: build it over one dataset that all ranks "
         "share, %1",
         DiagnosticIDs::Note)
        << className(Sampler->getConstructor()->getParent()) << EqualiseSteps;
    return;
  }
  if (In.CountIsSampler) {
    std::string Name = Sampler
                           ? className(Sampler->getConstructor()->getParent())
                           : std::string("the sampler");
    diag(In.Count->getBeginLoc(),
         "'%0' yields every index of this rank's own data; share one dataset "
         "and use 'DistributedRandomSampler(size, world_size, rank)', which "
         "gives every rank the same number of batches, %1",
         DiagnosticIDs::Note)
        << Name << EqualiseSteps;
    return;
  }
  const Expr *Dataset = In.Count;
  const CXXConstructExpr *Built = data::constructionOf(Dataset);
  if ((Built && data::isChunkDataset(Built->getConstructor()->getParent())) ||
      data::chunkSamplerArgument(initialValue(Dataset))) {
    diag(Make->getBeginLoc(),
         "no sampler can even out chunks of different sizes: make every rank "
         "run the same number of steps (an allreduce with MIN of the local "
         "number of batches, or a fixed step count)",
         DiagnosticIDs::Note);
    return;
  }
  diag(Make->getBeginLoc(),
       "the loader's default sampler walks all of this rank's dataset, whose "
       "size depends on the rank; share one dataset and pass "
       "'DistributedRandomSampler(size, world_size, rank)', %0",
       DiagnosticIDs::Note)
      << EqualiseSteps;
}

namespace {
/// The constructions and make_data_loader calls in one function body.
class DataCalls : public RecursiveASTVisitor<DataCalls> {
public:
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    if (data::isDistributedSampler(E->getConstructor()->getParent()))
      Samplers.push_back(E);
    return true;
  }
  bool VisitCallExpr(CallExpr *E) {
    if (data::isMakeDataLoader(E->getDirectCallee()))
      Loaders.push_back(E);
    return true;
  }
  std::vector<const CXXConstructExpr *> Samplers;
  std::vector<const CallExpr *> Loaders;
};
} // namespace

void SamplerDropLastCheck::checkMore(::ddp::TranslationUnitAnalysis &TU,
                                     ASTContext &Context) {
  llvm::DenseSet<const Stmt *> Seen;
  for (const FunctionDecl *FD : TU.functions()) {
    if (const auto *Method = dyn_cast<CXXMethodDecl>(FD))
      if (Method->getDeclName().isIdentifier() && Method->getName() == "next" &&
          data::isSampler(Method->getParent()))
        checkCustomSampler(Method, TU);
    DataCalls Calls;
    Calls.TraverseStmt(const_cast<Stmt *>(FD->getBody()));
    for (const CXXConstructExpr *Sampler : Calls.Samplers)
      if (Seen.insert(Sampler).second)
        checkSamplerArguments(Sampler, FD, Context);
    for (const CallExpr *Make : Calls.Loaders)
      if (Seen.insert(Make).second)
        checkDefaultSampler(Make);
  }
}

void SamplerDropLastCheck::checkSamplerArguments(
    const CXXConstructExpr *Sampler, const FunctionDecl *Function,
    ASTContext &Context) {
  if (Sampler->getNumArgs() < 3 || Sampler->getBeginLoc().isMacroID())
    return;
  bool NoReplicas = isa<CXXDefaultArgExpr>(Sampler->getArg(1));
  bool NoRank = isa<CXXDefaultArgExpr>(Sampler->getArg(2));
  if (!NoRank)
    return;
  // A fix-it when the function has one variable that holds the rank and one
  // that holds the world size.
  ::ddp::AnalysisContext Names(Context, analysisOptions());
  const VarDecl *Rank = nullptr, *World = nullptr;
  unsigned Ranks = 0, Worlds = 0;
  for (const VarDecl *VD : visibleVariables(Sampler, Context)) {
    if (!VD->getType()->isIntegerType() || !VD->getDeclName().isIdentifier())
      continue;
    if (Names.isRankName(VD->getName()) && !Rank) {
      Rank = VD;
      ++Ranks;
    } else if (Names.isRankName(VD->getName())) {
      ++Ranks;
    }
    if (::ddp::isWorldSizeName(VD->getName()) &&
        VD->getName().lower().find("size") != 0) {
      if (!World)
        World = VD;
      ++Worlds;
    }
  }
  std::string Class = className(Sampler->getConstructor()->getParent());
  const Expr *Last = Sampler->getArg(NoReplicas ? 0 : 1);
  std::optional<FixItHint> Fix;
  if (Ranks == 1 && (!NoReplicas || Worlds == 1) &&
      Last->getEndLoc().isFileID()) {
    SourceLocation After = Lexer::getLocForEndOfToken(
        Last->getEndLoc(), 0, Context.getSourceManager(),
        Context.getLangOpts());
    std::string Text =
        NoReplicas ? (", " + World->getName() + ", " + Rank->getName()).str()
                   : (", " + Rank->getName()).str();
    if (After.isValid())
      Fix = FixItHint::CreateInsertion(After, Text);
  }
  {
    DiagnosticBuilder D =
        NoReplicas
            ? diag(Sampler->getBeginLoc(),
                   "'%0' is built without the world size and the rank: every "
                   "rank reads the whole dataset instead of its own share")
            : diag(Sampler->getBeginLoc(),
                   "'%0' is built without the rank: every rank reads the "
                   "share of rank 0");
    D << Class;
    if (Fix)
      D << *Fix;
  }
  if (!Fix)
    diag(Sampler->getBeginLoc(), "pass them: '%0(size, world_size, rank)'",
         DiagnosticIDs::Note)
        << Class;
}

void SamplerDropLastCheck::checkDefaultSampler(const CallExpr *Make) {
  // make_data_loader<DistributedRandomSampler>(dataset, options) builds the
  // sampler from the dataset's size alone.
  data::LoaderInputs In = data::loaderInputs(Make);
  const FunctionDecl *FD = Make->getDirectCallee();
  const TemplateArgumentList *Args =
      FD ? FD->getTemplateSpecializationArgs() : nullptr;
  if (In.CountIsSampler || !Args || Args->size() == 0 ||
      Args->get(0).getKind() != TemplateArgument::Type)
    return;
  const CXXRecordDecl *Sampler = Args->get(0).getAsType()->getAsCXXRecordDecl();
  if (!data::isDistributedSampler(Sampler))
    return;
  diag(Make->getBeginLoc(),
       "'make_data_loader' builds its '%0' from the dataset's size alone, "
       "without the world size and the rank: every rank reads the whole "
       "dataset instead of its own share")
      << className(Sampler);
  diag(Make->getBeginLoc(),
       "pass the sampler instead: 'make_data_loader(dataset, %0(size, "
       "world_size, rank), options)'",
       DiagnosticIDs::Note)
      << className(Sampler);
}

void SamplerDropLastCheck::checkCustomSampler(
    const CXXMethodDecl *Next, ::ddp::TranslationUnitAnalysis &TU) {
  if (!Next->hasBody())
    return;
  // The first `return nullopt` that only some ranks reach at a given call.
  llvm::SmallVector<const Stmt *, 32> Work{Next->getBody()};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S || isa<LambdaExpr>(S))
      continue;
    if (const auto *Return = dyn_cast<ReturnStmt>(S)) {
      if (!isEmptyOptional(Return->getRetValue()))
        continue;
      const ::ddp::Origin *Why = TU.controllingBranch(Next, Return);
      if (!Why)
        continue;
      diag(Return->getBeginLoc(),
           "sampler '%0' runs out after a rank-dependent number of batches: "
           "ranks leave the training loop at different steps")
          << className(Next->getParent());
      noteWhy(Why);
      diag(Return->getBeginLoc(),
           "give every rank the same number of indices, padding or "
           "truncating its share as 'DistributedRandomSampler' does",
           DiagnosticIDs::Note);
      return;
    }
    // Children in reverse, so that the first return in the source is
    // looked at first.
    llvm::SmallVector<const Stmt *, 8> Children(S->children());
    Work.append(Children.rbegin(), Children.rend());
  }
}

} // namespace clang::tidy::ddp
