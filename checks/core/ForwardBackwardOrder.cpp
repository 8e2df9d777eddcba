//===--- ForwardBackwardOrder.cpp - Forward passes per synced backward ----===//

#include "core/ForwardBackwardOrder.h"
#include "core/AnalysisContext.h"
#include "core/BrokenCode.h"
#include "core/ClassHierarchy.h"
#include "core/CollectiveCatalogue.h"
#include "core/GradientSync.h"
#include "core/LoopBody.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallVector.h"

using namespace clang;

namespace ddp {
namespace {

bool isLoop(const Stmt *S) {
  return isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
}

/// `optimizer.step()` on a torch::optim::Optimizer.
bool isOptimizerStep(const CallExpr *Call) {
  const auto *Member = dyn_cast<CXXMemberCallExpr>(Call);
  const CXXMethodDecl *MD = Member ? Member->getMethodDecl() : nullptr;
  if (!MD || !MD->getDeclName().isIdentifier() || MD->getName() != "step")
    return false;
  return isOrDerivesFrom(MD->getParent(), [](const CXXRecordDecl *RD) {
    return RD->getDeclName().isIdentifier() &&
           RD->getQualifiedNameAsString() == "torch::optim::Optimizer";
  });
}

/// The optimizer steps inside \p S (not inside lambdas).
void findSteps(const Stmt *S, llvm::SmallVectorImpl<const CallExpr *> &Out) {
  if (!S || isa<LambdaExpr>(S))
    return;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (isOptimizerStep(Call))
      Out.push_back(Call);
  for (const Stmt *Child : S->children())
    findSteps(Child, Out);
}

struct State {
  llvm::MapVector<const ValueDecl *, llvm::SmallVector<const CallExpr *, 2>>
      Pending;
  /// The prepare_for_backward that armed a Reducer for the next backward.
  const CallExpr *Prepare = nullptr;
  unsigned NoSyncGuards = 0;
  bool FlagOff = false;
  bool noSync() const { return NoSyncGuards > 0 || FlagOff; }
};

void merge(State &Into, const State &Other) {
  for (const auto &[Module, Calls] : Other.Pending) {
    auto &Mine = Into.Pending[Module];
    if (Calls.size() > Mine.size())
      Mine = Calls;
  }
  if (!Into.Prepare)
    Into.Prepare = Other.Prepare;
  // Synchronisation turned off on one path: do not claim it is on.
  Into.FlagOff |= Other.FlagOff;
}

class Walker {
public:
  Walker(const AnalysisContext &Ctx, const GradientSyncModel &Sync,
         const ReducedModules &Reduced, ForwardBackwardResult &Out)
      : Ctx(Ctx), Sync(Sync), Reduced(Reduced), Out(Out) {}

  void stmt(const Stmt *S, State &St);
  void finish(ASTContext &AST);

private:
  void expr(const Stmt *S, State &St);
  void call(const CallExpr *Call, State &St);
  void assignment(const BinaryOperator *BO, State &St);
  bool isSynced(const ValueDecl *D) const {
    return Sync.isWrapperType(D->getType()) || Reduced.contains(D);
  }
  bool opensNoSync(const VarDecl *VD) const;

  const AnalysisContext &Ctx;
  const GradientSyncModel &Sync;
  const ReducedModules &Reduced;
  ForwardBackwardResult &Out;
  llvm::SmallVector<const Stmt *, 4> Loops;
  llvm::DenseSet<const CallExpr *> Reported;
  /// Synchronising backwards, with the innermost loop around them.
  llvm::MapVector<const CallExpr *, const Stmt *> SyncedBackwards;
  /// Loops that run a synchronised module forward.
  llvm::DenseSet<const Stmt *> ForwardLoops;
};

bool Walker::opensNoSync(const VarDecl *VD) const {
  if (Sync.isNoSyncGuardType(VD->getType()))
    return true;
  const Expr *Init = VD->getInit();
  if (!Init)
    return false;
  Init = Init->IgnoreImplicit();
  if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(Init))
    Init = Cleanups->getSubExpr()->IgnoreImplicit();
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(Init))
    if (Construct->getNumArgs() == 1)
      Init = Construct->getArg(0)->IgnoreImplicit();
  const auto *Call = dyn_cast<CallExpr>(Init);
  return Call && Sync.isNoSyncMethod(Call->getDirectCallee());
}

void Walker::stmt(const Stmt *S, State &St) {
  if (!S)
    return;
  if (const auto *Block = dyn_cast<CompoundStmt>(S)) {
    unsigned Guards = St.NoSyncGuards;
    for (const Stmt *Child : Block->body())
      stmt(Child, St);
    St.NoSyncGuards = Guards;
    return;
  }
  if (const auto *Decls = dyn_cast<DeclStmt>(S)) {
    expr(S, St);
    for (const Decl *D : Decls->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D))
        if (opensNoSync(VD))
          ++St.NoSyncGuards;
    return;
  }
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    stmt(If->getInit(), St);
    expr(If->getCond(), St);
    State Else = St;
    stmt(If->getThen(), St);
    stmt(If->getElse(), Else);
    merge(St, Else);
    return;
  }
  if (isLoop(S)) {
    const Stmt *Body = nullptr;
    if (const auto *For = dyn_cast<ForStmt>(S)) {
      stmt(For->getInit(), St);
      expr(For->getCond(), St);
      Body = For->getBody();
    } else if (const auto *While = dyn_cast<WhileStmt>(S)) {
      expr(While->getCond(), St);
      Body = While->getBody();
    } else if (const auto *Do = dyn_cast<DoStmt>(S)) {
      Body = Do->getBody();
    } else if (const auto *Range = dyn_cast<CXXForRangeStmt>(S)) {
      expr(Range->getRangeInit(), St);
      Body = Range->getBody();
    }
    State Skipped = St;
    Loops.push_back(S);
    // Twice: what one iteration leaves pending meets the next one.
    for (int Pass = 0; Pass < 2; ++Pass) {
      stmt(Body, St);
      if (const auto *For = dyn_cast<ForStmt>(S)) {
        expr(For->getInc(), St);
        expr(For->getCond(), St);
      }
    }
    Loops.pop_back();
    if (!isa<DoStmt>(S))
      merge(St, Skipped);
    return;
  }
  if (const auto *Switch = dyn_cast<SwitchStmt>(S)) {
    expr(Switch->getCond(), St);
    stmt(Switch->getBody(), St);
    return;
  }
  if (const auto *Try = dyn_cast<CXXTryStmt>(S)) {
    stmt(Try->getTryBlock(), St);
    return;
  }
  expr(S, St);
}

void Walker::expr(const Stmt *S, State &St) {
  if (!S || isa<LambdaExpr>(S))
    return;
  // Operands first: `ddp(x).sum().backward()` runs forward, then backward.
  for (const Stmt *Child : S->children())
    expr(Child, St);
  if (const auto *Call = dyn_cast<CallExpr>(S))
    call(Call, St);
  else if (const auto *BO = dyn_cast<BinaryOperator>(S))
    assignment(BO, St);
}

void Walker::assignment(const BinaryOperator *BO, State &St) {
  if (BO->getOpcode() != BO_Assign)
    return;
  const Expr *LHS = BO->getLHS()->IgnoreParenImpCasts();
  const ValueDecl *Target = nullptr;
  if (const auto *ME = dyn_cast<MemberExpr>(LHS))
    Target = ME->getMemberDecl();
  else if (const auto *DRE = dyn_cast<DeclRefExpr>(LHS))
    Target = DRE->getDecl();
  if (!Sync.isSyncFlag(Target))
    return;
  if (std::optional<bool> Value =
          evaluateCondition(BO->getRHS(), Target->getASTContext()))
    St.FlagOff = !*Value;
}

void Walker::call(const CallExpr *Call, State &St) {
  if (const ValueDecl *Module = GradientSyncModel::forwardTarget(Call)) {
    if (!isSynced(Module))
      return;
    for (const Stmt *Loop : Loops)
      ForwardLoops.insert(Loop);
    if (St.noSync())
      return;
    auto &Calls = St.Pending[Module];
    if (Calls.size() < 2)
      Calls.push_back(Call);
    return;
  }
  const CatalogueEntry *Entry = Ctx.Catalogue.classify(Call);
  if (!Entry)
    return;
  if (Entry->Role == CallRole::ArmsGradSync) {
    if (const FunctionDecl *FD = Call->getDirectCallee())
      if (FD->getDeclName().isIdentifier() &&
          FD->getName() == "prepare_for_backward")
        St.Prepare = Call;
    return;
  }
  if (Entry->Role != CallRole::GradientSync)
    return;
  if (St.noSync())
    Out.UnsyncedBackwards.push_back(Call);
  else {
    bool Synced = St.Prepare != nullptr;
    for (const auto &[Module, Calls] : St.Pending) {
      bool Wrapper = Sync.isWrapperType(Module->getType());
      if (Calls.empty() || (!Wrapper && !St.Prepare))
        continue;
      Synced = true;
      if (Calls.size() < 2 || !Reported.insert(Calls[1]).second)
        continue;
      Out.ExtraForwards.push_back(
          {Module, Calls[0], Calls[1], Call, Wrapper ? nullptr : St.Prepare});
    }
    if (Synced && !Loops.empty())
      SyncedBackwards.insert({Call, Loops.back()});
  }
  St.Pending.clear();
  St.Prepare = nullptr;
}

void Walker::finish(ASTContext &AST) {
  llvm::DenseSet<const Stmt *> Done;
  for (const auto &[Backward, Loop] : SyncedBackwards) {
    if (!ForwardLoops.contains(Loop) || Done.contains(Loop))
      continue;
    // A backward run only on some iterations is not a micro-step.
    bool Conditional = false;
    DynTypedNode Node =
        DynTypedNode::create(*static_cast<const Stmt *>(Backward));
    for (unsigned Depth = 0; Depth < 32; ++Depth) {
      DynTypedNodeList Parents = AST.getParents(Node);
      if (Parents.empty())
        break;
      const Stmt *Parent = Parents[0].get<Stmt>();
      if (!Parent || Parent == Loop)
        break;
      if (isa<IfStmt, ConditionalOperator, SwitchStmt>(Parent) ||
          isLoop(Parent)) {
        Conditional = true;
        break;
      }
      Node = Parents[0];
    }
    if (Conditional)
      continue;
    const Stmt *Body = loopBody(Loop);
    llvm::SmallVector<const CallExpr *, 2> Steps;
    findSteps(Body, Steps);
    if (!Steps.empty()) {
      // Accumulation: the step is under a condition of the loop's body.
      for (const CallExpr *Step : Steps) {
        DynTypedNode StepNode =
            DynTypedNode::create(*static_cast<const Stmt *>(Step));
        bool UnderIf = false;
        for (unsigned Depth = 0; Depth < 32; ++Depth) {
          DynTypedNodeList Parents = AST.getParents(StepNode);
          if (Parents.empty())
            break;
          const Stmt *Parent = Parents[0].get<Stmt>();
          if (!Parent || Parent == Loop)
            break;
          UnderIf |= isa<IfStmt>(Parent);
          StepNode = Parents[0];
        }
        if (UnderIf) {
          Out.Accumulations.push_back({Backward, Loop, Step, false});
          Done.insert(Loop);
          break;
        }
      }
      continue;
    }
    // Micro-steps in an inner loop, the step after it.
    DynTypedNodeList Parents = AST.getParents(*Loop);
    const auto *Block =
        Parents.empty() ? nullptr : Parents[0].get<CompoundStmt>();
    if (!Block)
      continue;
    bool After = false;
    for (const Stmt *Sibling : Block->body()) {
      if (Sibling == Loop) {
        After = true;
        continue;
      }
      if (!After)
        continue;
      findSteps(Sibling, Steps);
      if (!Steps.empty()) {
        Out.Accumulations.push_back({Backward, Loop, Steps.front(), true});
        Done.insert(Loop);
        break;
      }
    }
  }
}

} // namespace

ForwardBackwardResult analyseForwardBackward(const FunctionDecl *FD,
                                             const AnalysisContext &Ctx,
                                             const GradientSyncModel &Sync,
                                             const ReducedModules &Reduced) {
  ForwardBackwardResult Out;
  if (!FD->hasBody())
    return Out;
  Walker W(Ctx, Sync, Reduced, Out);
  State St;
  W.stmt(FD->getBody(), St);
  W.finish(FD->getASTContext());
  return Out;
}

void collectReducedModules(const FunctionDecl *FD, const AnalysisContext &Ctx,
                           ReducedModules &Out) {
  llvm::SmallVector<const Stmt *, 32> Work{FD->getBody()};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
    const auto *Construct = dyn_cast<CXXConstructExpr>(S);
    if (!Construct || Construct->getNumArgs() == 0)
      continue;
    const CatalogueEntry *Entry =
        Ctx.Catalogue.classify(Construct->getConstructor());
    if (!Entry || Entry->Role != CallRole::ArmsGradSync)
      continue;
    // Reducer(model->parameters(), ...).
    if (const Expr *Owner =
            GradientSyncModel::parametersOwner(Construct->getArg(0)))
      if (const ValueDecl *Module = GradientSyncModel::heldModule(Owner))
        Out.insert(Module);
  }
}

} // namespace ddp
