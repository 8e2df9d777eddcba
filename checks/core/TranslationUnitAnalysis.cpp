//===--- TranslationUnitAnalysis.cpp - The analysis of one TU -------------===//

#include "core/TranslationUnitAnalysis.h"
#include "core/ClassHierarchy.h"
#include "core/ForwardBackwardOrder.h"
#include "core/RankUniformity.h"
#include "core/TensorLists.h"
#include "core/UserCodeVisitor.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace ddp {
namespace {

bool mentionsReducer(QualType T) {
  if (T.isNull())
    return false;
  std::string Name = T.getAsString();
  return llvm::StringRef(Name).contains("c10d::Reducer");
}

/// Collects the user's function definitions, skipping library namespaces and
/// system headers wholesale, and notes what arms gradient synchronisation.
class FunctionCollector : public UserCodeVisitor<FunctionCollector> {
public:
  FunctionCollector(AnalysisContext &Ctx,
                    std::vector<const FunctionDecl *> &Functions,
                    std::vector<const FunctionDecl *> &Broken,
                    std::vector<const FunctionDecl *> &Hooks, bool &Reducer)
      : UserCodeVisitor(Ctx), Ctx(Ctx), Functions(Functions), Broken(Broken),
        Hooks(Hooks), Reducer(Reducer) {}

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->doesThisDeclarationHaveABody())
      collect(FD);
    return true;
  }

  bool VisitLambdaExpr(LambdaExpr *Lambda) {
    if (const CXXMethodDecl *Call = Lambda->getCallOperator())
      collect(Call);
    return true;
  }

  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    Reducer |= mentionsReducer(E->getType()) ||
               Ctx.Sync.isWrapperType(E->getType());
    return true;
  }

  bool VisitValueDecl(ValueDecl *D) {
    // A structured binding that did not resolve has no type.
    Reducer |= mentionsReducer(D->getType()) ||
               Ctx.Sync.isWrapperType(D->getType());
    return true;
  }

  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || !Callee->getDeclName().isIdentifier())
      return true;
    if (const CatalogueEntry *Entry = Ctx.Catalogue.classify(Callee))
      Reducer |= Entry->Role == CallRole::ArmsGradSync;
    if (Callee->getName() != "register_hook")
      return true;
    // p.register_hook([&](at::Tensor g) { pg->allreduce(...); ... }).
    for (const Expr *Arg : Call->arguments()) {
      const Expr *E = Arg->IgnoreImplicit();
      while (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
        if (Construct->getNumArgs() == 0)
          break;
        E = Construct->getArg(0)->IgnoreImplicit();
      }
      if (const auto *Lambda = dyn_cast<LambdaExpr>(E->IgnoreImplicit()))
        Hooks.push_back(Lambda->getCallOperator());
    }
    return true;
  }

private:
  /// A function the analysis runs on, or one whose body it cannot trust
  /// (code that did not compile).
  void collect(const FunctionDecl *FD) {
    if (!Seen.insert(FD).second)
      return;
    if (Ctx.isAnalysable(FD))
      Functions.push_back(FD);
    else if (Ctx.isBrokenUserFunction(FD))
      Broken.push_back(FD);
  }

  AnalysisContext &Ctx;
  std::vector<const FunctionDecl *> &Functions;
  std::vector<const FunctionDecl *> &Broken;
  std::vector<const FunctionDecl *> &Hooks;
  bool &Reducer;
  llvm::DenseSet<const FunctionDecl *> Seen;
};

} // namespace

TranslationUnitAnalysis::TranslationUnitAnalysis(ASTContext &AST,
                                                 const AnalysisOptions &Opts)
    : Ctx(AST, Opts) {}

TranslationUnitAnalysis::TranslationUnitAnalysis(
    ASTContext &AST, const AnalysisOptions &Opts,
    std::function<std::string(const FunctionDecl *)> ExternalKey)
    : Ctx(AST, Opts) {
  Ctx.ExternalKey = std::move(ExternalKey);
}

TranslationUnitAnalysis::~TranslationUnitAnalysis() = default;

void TranslationUnitAnalysis::discover() {
  Ctx.DispatchTargets = [this](const CXXMethodDecl *Method) {
    return dispatchTargets(Method);
  };
  FunctionCollector Collector(Ctx, Roots, Broken, Hooks, ReducerSeen);
  Collector.TraverseDecl(Ctx.AST.getTranslationUnitDecl());
  for (const FunctionDecl *FD : Roots)
    if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
      if (MD->isVirtual())
        for (const CXXMethodDecl *Base : overriddenMethods(MD))
          Overriders[Base].push_back(FD);
}

std::vector<const FunctionDecl *>
TranslationUnitAnalysis::dispatchTargets(const CXXMethodDecl *Method) {
  std::vector<const FunctionDecl *> Targets;
  if (!Method->isPureVirtual())
    if (FunctionAnalysis *Own = get(Method))
      Targets.push_back(Own->decl());
  auto It = Overriders.find(Method->getCanonicalDecl());
  if (It != Overriders.end())
    Targets.insert(Targets.end(), It->second.begin(), It->second.end());
  return Targets;
}

const SummaryNode *
TranslationUnitAnalysis::dispatchSummaryOf(const CXXMethodDecl *Method) {
  // For the driver: the overrides of every TU, linked later.
  if (Ctx.ExternalKey)
    return Ctx.Summaries.call(Ctx.dispatchKey(Method->getCanonicalDecl()));
  llvm::SmallVector<const SummaryNode *, 4> Alternatives;
  for (const FunctionDecl *Target : dispatchTargets(Method))
    Alternatives.push_back(summaryOf(Target));
  // A body elsewhere (a library's, or another TU's) issues nothing here.
  if (!Method->isPureVirtual() && !get(Method))
    Alternatives.push_back(Ctx.Summaries.empty());
  return Ctx.Summaries.choice(Alternatives);
}

FunctionAnalysis *TranslationUnitAnalysis::get(const FunctionDecl *FD) {
  if (!FD)
    return nullptr;
  const FunctionDecl *Def = FD->getDefinition();
  if (!Def || !Ctx.isAnalysable(Def))
    return nullptr;
  auto It = Functions.find(Def);
  if (It != Functions.end())
    return It->second.get();
  auto Analysis = std::make_unique<FunctionAnalysis>(Def, Ctx, *this);
  FunctionAnalysis *Result = Analysis.get();
  Functions[Def] = std::move(Analysis);
  return Result;
}

size_t TranslationUnitAnalysis::memoryBytes() const {
  size_t Bytes = Ctx.memoryBytes();
  for (const auto &Entry : Functions)
    Bytes += Entry.second->memoryBytes();
  return Bytes;
}

std::vector<const FunctionAnalysis *>
TranslationUnitAnalysis::skipped() const {
  std::vector<const FunctionAnalysis *> Result;
  for (const FunctionDecl *FD : Roots) {
    auto It = Functions.find(FD);
    if (It != Functions.end() && It->second->skipped())
      Result.push_back(It->second.get());
  }
  return Result;
}

const FunctionAnalysis *
TranslationUnitAnalysis::analysisOf(const FunctionDecl *Callee) {
  FunctionAnalysis *FA = get(Callee);
  return FA && FA->isValid() ? FA : nullptr;
}

const Origin *TranslationUnitAnalysis::divergenceOf(const FunctionDecl *FD,
                                                    const Expr *E) {
  FunctionAnalysis *FA = get(FD);
  return FA && FA->isValid() ? FA->divergenceOf(E) : nullptr;
}

const Origin *
TranslationUnitAnalysis::controllingBranch(const FunctionDecl *FD,
                                           const Stmt *S) {
  FunctionAnalysis *FA = get(FD);
  return FA && FA->isValid() ? FA->controllingBranch(S) : nullptr;
}

const SummaryNode *
TranslationUnitAnalysis::summaryOf(const FunctionDecl *Callee) {
  FunctionAnalysis *FA = get(Callee);
  if (!FA || !FA->isValid()) {
    // For the whole-program driver: a body in another TU, linked later.
    if (Ctx.isExternalUserFunction(Callee))
      return Ctx.Summaries.call(Ctx.ExternalKey(Callee));
    // A body that did not compile may issue anything.
    if (Ctx.isBrokenUserFunction(Callee))
      return Ctx.Summaries.op(UnknownOp);
    return Ctx.Summaries.empty();
  }
  const FunctionDecl *Def = FA->decl();
  if (Summarised.contains(Def))
    return FA->summary();
  // Recursion: a call back into a function being summarised stands for what
  // the previous round found it issues (nothing, in the first round).
  if (!InProgress.insert(Def).second) {
    const SummaryNode *Previous = PreviousRound.lookup(Def);
    return Previous ? Previous : Ctx.Summaries.empty();
  }
  FA->computeSites();
  InProgress.erase(Def);
  Summarised.insert(Def);
  return FA->summary();
}

std::vector<const FunctionDecl *> TranslationUnitAnalysis::bottomUp() {
  std::vector<const FunctionDecl *> Order;
  llvm::DenseSet<const FunctionDecl *> Seen;
  // Depth first over the calls, iteratively; a function goes after the
  // functions it calls (recursion: in some order, fixed by later rounds).
  for (const FunctionDecl *Root : Roots) {
    FunctionAnalysis *RootFA = get(Root);
    if (!RootFA || !Seen.insert(RootFA->decl()).second)
      continue;
    std::vector<
        std::pair<const FunctionDecl *, std::vector<const FunctionDecl *>>>
        Stack;
    Stack.push_back({RootFA->decl(), RootFA->callees()});
    while (!Stack.empty()) {
      auto &[FD, Pending] = Stack.back();
      if (Pending.empty()) {
        Order.push_back(FD);
        Stack.pop_back();
        continue;
      }
      const FunctionDecl *Callee = Pending.back();
      Pending.pop_back();
      FunctionAnalysis *FA = get(Callee);
      if (FA && FA->isValid() && Seen.insert(FA->decl()).second)
        Stack.push_back({FA->decl(), FA->callees()});
    }
  }
  return Order;
}

void TranslationUnitAnalysis::resolveInputs() {
  // Which parameters some call passes a rank-dependent argument (or a rank
  // variable's name), directly or through its caller's own parameters: a
  // worklist over the callers whose inputs became known.
  std::vector<const FunctionDecl *> Work;
  llvm::DenseSet<const FunctionDecl *> Queued;
  // In discovery order, so that the explanations do not depend on where
  // the allocator put the declarations.
  for (auto It = Roots.rbegin(); It != Roots.rend(); ++It)
    if (FunctionAnalysis *FA = get(*It))
      if (FA->isValid() && Queued.insert(FA->decl()).second)
        Work.push_back(FA->decl());
  while (!Work.empty()) {
    const FunctionDecl *Caller = Work.back();
    Work.pop_back();
    Queued.erase(Caller);
    FunctionAnalysis *FA = get(Caller);
    if (!FA || !FA->isValid())
      continue;
    for (const auto &Entry : FA->calls()) {
      const CallRecord &R = Entry.second;
      bool Learned = false;
      for (unsigned I = 0; I < R.Args.size(); ++I) {
        const ParmVarDecl *Param = R.Callee->getParamDecl(I);
        const Expr *Arg = R.ArgExprs[I];
        // A container whose elements alone depend on the rank, passed
        // whole, keeps its length uniform in the callee (until some call
        // passes the parameter a rank-dependent length).
        const Origin *Known = Ctx.Facts.actual(Param, false);
        if (!Known || Known->ElementsOnly)
          if (const Origin *Why = Ctx.resolve(R.Args[I])) {
            bool ElementsOnly = Why->ElementsOnly && isWholeContainer(Arg, Ctx);
            Learned |= Ctx.Facts.setActual(
                Param, false,
                Ctx.origin(
                    R.Call, Param, Arg->getBeginLoc(),
                    [&] {
                      return "'" + Param->getNameAsString() +
                             "' receives a rank-dependent argument here";
                    },
                    Why, /*FromControl=*/false, /*ExactRank=*/false,
                    /*LocalData=*/false, ElementsOnly));
          }
        if (Ctx.Facts.actual(Param, true))
          continue;
        const ArgKey &Key = R.Keys[I];
        if (Key.K == ArgKey::RankVariable) {
          Learned |=
              Ctx.Facts.setActual(Param, true,
                                  Ctx.origin(
                                      Arg, Param, Arg->getBeginLoc(),
                                      [&] {
                                        return "'" + Param->getNameAsString() +
                                               "' is given '" + Ctx.text(Arg) +
                                               "', the name of a variable that "
                                               "holds the rank, here";
                                      },
                                      nullptr, false, /*ExactRank=*/true));
        } else if (Key.K == ArgKey::Input &&
                   Key.Index < Caller->getNumParams()) {
          const ParmVarDecl *Own = Caller->getParamDecl(Key.Index);
          if (const Origin *Named = Ctx.Facts.actual(Own, true))
            Learned |= Ctx.Facts.setActual(
                Param, true,
                Ctx.origin(
                    Arg, Param, Arg->getBeginLoc(),
                    [&] {
                      return "'" + Param->getNameAsString() +
                             "' is given the name in '" +
                             Own->getNameAsString() + "' here";
                    },
                    Named));
        }
      }
      if (Learned && Queued.insert(R.Callee).second)
        Work.push_back(R.Callee);
    }
  }
  // Fields, globals and captured variables written with a value that
  // depends on an input some call passes the rank: rank-dependent.
  for (const FunctionDecl *FD : Roots) {
    FunctionAnalysis *FA = get(FD);
    if (!FA || !FA->isValid())
      continue;
    for (const auto &[Target, Value] : FA->escapes())
      if (const Origin *Why = Ctx.resolve(Value))
        Ctx.Facts.addDecl(Target, Why);
  }
}

void TranslationUnitAnalysis::run() {
  if (!Discovered) {
    Discovered = true;
    discover();
    for (const FunctionDecl *FD : Roots)
      get(FD);
  }

  // Phase 1: rank uniformity, callees before their callers, until the
  // TU-wide facts (summaries, fields, parameters given the rank) settle.
  std::vector<const FunctionDecl *> Order = bottomUp();
  for (unsigned Round = 0; Round < 8; ++Round) {
    unsigned Before = Ctx.Facts.generation();
    for (const FunctionDecl *FD : Order)
      if (FunctionAnalysis *FA = get(FD))
        FA->computeUniformity();
    resolveInputs();
    if (Ctx.Facts.generation() == Before)
      break;
  }

  // Gradient sync is armed by a Reducer or a DDP-like wrapper, or by a hook
  // that communicates; a backward under a no-sync guard does not sync.
  bool Armed = ReducerSeen;
  for (const FunctionDecl *FD : Roots)
    for (const CallExpr *Backward :
         analyseForwardBackward(FD, Ctx, Ctx.Sync, {}).UnsyncedBackwards)
      Ctx.UnsyncedBackwards.insert(Backward);
  for (const FunctionDecl *Hook : Hooks)
    Armed |= !summaryOf(Hook)->isEmpty();
  if (Armed != Ctx.GradientSyncArmed) {
    Ctx.GradientSyncArmed = Armed;
    Summarised.clear();
  }

  // Phase 2: summaries, bottom-up through summaryOf's recursion. Recursive
  // functions are summarised again with the previous round's results until
  // nothing changes (a few rounds at most: each unrolls the recursion once).
  PreviousRound.clear();
  for (unsigned Round = 0; Round < 4; ++Round) {
    Summarised.clear();
    llvm::DenseMap<const FunctionDecl *, const SummaryNode *> ThisRound;
    for (const FunctionDecl *FD : Roots)
      if (FunctionAnalysis *FA = get(FD))
        ThisRound[FA->decl()] = summaryOf(FD);
    if (ThisRound == PreviousRound)
      break;
    PreviousRound = std::move(ThisRound);
  }

  // Phase 3: mismatches, and tensor lists whose length differs between
  // ranks.
  Findings.clear();
  Deferred.clear();
  for (const FunctionDecl *FD : Roots)
    if (FunctionAnalysis *FA = get(FD)) {
      FA->findMismatches(Findings, Deferred);
      findUnevenLists(*FA, Ctx, Findings);
    }
}

} // namespace ddp
