//===--- FunctionAnalysis.cpp - Collectives and divergence in one function ===//

#include "core/FunctionAnalysis.h"
#include "core/BrokenCode.h"
#include "core/ClassHierarchy.h"
#include "core/CommunicatorMembership.h"
#include "core/FailurePaths.h"
#include "core/ModuleCalls.h"
#include "core/OnceTests.h"
#include "core/UniformDecisions.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/Analyses/Dominators.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>
#include <fmt/format.h>

using namespace clang;

namespace ddp {

/// Summaries deeper than this are cut short (and treated as issuing nothing
/// more), so that pathological functions cannot exhaust the stack.
static constexpr unsigned MaxSummaryDepth = 2000;

/// True if \p B throws.
static bool throwsIn(const CFGBlock *B) {
  for (const CFGElement &Elem : *B)
    if (auto S = Elem.getAs<CFGStmt>())
      if (isa<CXXThrowExpr>(S->getStmt()))
        return true;
  return false;
}

FunctionAnalysis::FunctionAnalysis(const FunctionDecl *FD,
                                   AnalysisContext &Ctx, FunctionIndex &Index)
    : FD(FD), Ctx(Ctx), Index(Index) {
  Stmt *Body = FD->getBody();
  // Clang's CFG builder is not made for bodies that did not compile.
  if (!Body || Ctx.distrust(FD) != Distrust::None)
    return;
  CFG::BuildOptions Options;
  Options.setAllAlwaysAdd();
  Options.AddInitializers = true;
  // Destructors of locals run where their scope ends: a scope guard whose
  // destructor communicates issues its collective there.
  Options.AddImplicitDtors = true;
  Options.AddTemporaryDtors = false;
  Options.AddEHEdges = false;
  Cfg = CFG::buildCFG(FD, Body, &Ctx.AST, Options);
  if (!Cfg)
    return;
  PostDom = std::make_unique<CFGPostDomTree>(Cfg.get());
  Failures = std::make_unique<FailurePaths>(FD, *Cfg, Ctx);
  Steps += Failures->steps();
  Uniformity = std::make_unique<RankUniformity>(FD, *Cfg, *Failures, Ctx);
  Order.assign(Cfg->getNumBlockIDs(), ~0u);
  unsigned Position = 0;
  for (const CFGBlock *B : Uniformity->order())
    Order[B->getBlockID()] = Position++;
  Sites.resize(Cfg->getNumBlockIDs());
  Summary = Ctx.Summaries.empty();
}

FunctionAnalysis::~FunctionAnalysis() = default;

bool FunctionAnalysis::spend(uint64_t N) {
  Steps += N;
  if (!Skipped && Ctx.Opts.AnalysisBudget != 0 &&
      Steps > Ctx.Opts.AnalysisBudget) {
    // Out of budget: report nothing here rather than take unbounded time
    // in the editor or the CI job. The summary stays (it is linear to build).
    Skipped = true;
    Control.clear();
  }
  return !Skipped;
}

size_t FunctionAnalysis::memoryBytes() const {
  if (!Cfg)
    return sizeof(*this);
  return sizeof(*this) + Cfg->getAllocator().getTotalMemory() +
         Uniformity->memoryBytes();
}

unsigned FunctionAnalysis::divergentBranchCount() const {
  return Uniformity ? Uniformity->divergentBranches().size() + LoopExits.size()
                    : 0;
}

const ParentMap &FunctionAnalysis::parents() {
  if (!Parents)
    Parents = std::make_unique<ParentMap>(FD->getBody());
  return *Parents;
}

const CFGBlock *FunctionAnalysis::blockOf(const Stmt *S) {
  if (!Cfg || !S)
    return nullptr;
  const ParentMap &PM = parents();
  if (StmtBlocks.empty()) {
    for (const CFGBlock *B : *Cfg)
      for (const CFGElement &Elem : *B)
        if (auto St = Elem.getAs<CFGStmt>())
          StmtBlocks.try_emplace(St->getStmt(), B);
  }
  // A statement the CFG does not list runs with its closest listed parent.
  for (unsigned Depth = 0; S && Depth < 64; ++Depth) {
    if (const CFGBlock *B = StmtBlocks.lookup(S))
      return B;
    S = PM.getParent(S);
  }
  return nullptr;
}

const Origin *FunctionAnalysis::divergenceOf(const Expr *E) {
  const CFGBlock *B = blockOf(E);
  return B ? Ctx.resolve(Uniformity->divergenceAt(B, E)) : nullptr;
}

const Origin *FunctionAnalysis::controllingBranch(const Stmt *S) {
  const CFGBlock *B = blockOf(S);
  if (!B)
    return nullptr;
  auto It = Control.find(B);
  if (It == Control.end())
    return nullptr;
  for (const ControllingBranch &Branch : It->second)
    if (const Origin *Why = Ctx.resolve(Branch.Why))
      return Why;
  return nullptr;
}

const Expr *FunctionAnalysis::controllingCondition(const Stmt *S) {
  const CFGBlock *B = blockOf(S);
  if (!B)
    return nullptr;
  auto It = Control.find(B);
  if (It == Control.end())
    return nullptr;
  // The first branch that counts (one on the function's inputs counts when
  // some call passes a rank-dependent one), as controllingBranch.
  for (const ControllingBranch &Branch : It->second)
    if (Ctx.resolve(Branch.Why))
      return RankUniformity::branchCondition(Branch.Branch);
  return nullptr;
}

const CFGBlock *FunctionAnalysis::joinOf(const CFGBlock *B) const {
  auto *Node = PostDom->getBase().getNode(const_cast<CFGBlock *>(B));
  if (!Node || !Node->getIDom())
    return nullptr;
  return Node->getIDom()->getBlock();
}

const CFGBlock *FunctionAnalysis::sidesJoin(const CFGBlock *B) const {
  // `if (r == rank) continue; if (bad(r)) exit(1);` in a loop: the sides
  // meet at the loop's increment, though the exit keeps it from
  // post-dominating the branch. (An error returned, not thrown, goes on in
  // the caller: its side is compared.)
  if (const CFGBlock *Join = Failures->joinPastEnds(B))
    return Join;
  return joinOf(B);
}

std::vector<const CFGBlock *>
FunctionAnalysis::region(const CFGBlock *From, const CFGBlock *Stop,
                         const CFGBlock *Branch) const {
  // Blocks reachable from From before Stop (and, if given, before coming
  // back to Branch around a loop).
  std::vector<const CFGBlock *> Blocks;
  if (!From || From == Stop || From == Branch)
    return Blocks;
  std::vector<bool> Seen(Cfg->getNumBlockIDs(), false);
  std::vector<const CFGBlock *> Work{From};
  Seen[From->getBlockID()] = true;
  while (!Work.empty()) {
    const CFGBlock *B = Work.back();
    Work.pop_back();
    Blocks.push_back(B);
    for (const CFGBlock *Succ : B->succs())
      if (Succ && Succ != Stop && Succ != Branch && !Seen[Succ->getBlockID()]) {
        Seen[Succ->getBlockID()] = true;
        Work.push_back(Succ);
      }
  }
  Steps += Blocks.size();
  llvm::sort(Blocks, [&](const CFGBlock *A, const CFGBlock *B) {
    return Order[A->getBlockID()] < Order[B->getBlockID()];
  });
  return Blocks;
}

void FunctionAnalysis::computeUniformity() {
  if (!Cfg)
    return;
  // Nothing it looked up last time has changed since: it would find the
  // same again.
  if (Computed && !Ctx.Facts.changedSince(FactsRead, ComputedAt))
    return;
  Computed = true;
  ComputedAt = Ctx.Facts.generation();
  RankFacts::Recorder Reading(Ctx.Facts, FactsRead);
  // Values assigned under a rank-dependent branch are divergent after its
  // join; the branches depend on the values. Alternate until both settle.
  Control.clear();
  Decisions.clear();
  JoinPoints Joins;
  for (unsigned Round = 0; Round < 6 && !Skipped; ++Round) {
    if (!spend(Uniformity->run(Control, Joins)))
      return;
    ControlDivergence Next;
    JoinPoints NextJoins;
    std::vector<std::pair<const CFGBlock *, Dep>> Divergent;
    for (const CFGBlock *B : Uniformity->order())
      if (Dep Why = Uniformity->branchDivergence(B); Why.any())
        Divergent.push_back({B, Why});
    LoopExits.clear();
    for (size_t I = 0; I < Divergent.size(); ++I) {
      auto [B, Why] = Divergent[I];
      if (!spend(0))
        return;
      // A side that only fails (an assertion's, an error test's) ends the
      // job: a branch with one other side controls nothing, and the sides
      // that go on meet where their own paths do.
      llvm::SmallVector<const CFGBlock *, 4> Live;
      unsigned Index = 0;
      for (const CFGBlock *Succ : B->succs()) {
        if (Succ && !Failures->onlyFails(B, Index) &&
            !llvm::is_contained(Live, Succ))
          Live.push_back(Succ);
        ++Index;
      }
      if (Live.size() < 2)
        continue;
      const CFGBlock *Join = Failures->liveJoin(B);
      if (!Join)
        Join = joinOf(B);
      if (Join)
        NextJoins[Join].push_back({B, Why});
      llvm::DenseSet<const CFGBlock *> Seen;
      for (const CFGBlock *Succ : Live)
        for (const CFGBlock *X : region(Succ, Join)) {
          if (!Seen.insert(X).second)
            continue;
          Next[X].push_back({B, Why});
          // A loop that B's ranks can leave while the others go on (B is
          // in the loop, and its region comes back to the loop's test):
          // the loop runs a rank-dependent number of times, though its
          // own test is the same on every rank still in it.
          // (The loop's end is where its live paths meet: a failed call's
          // exit in the body does not take it to the function's exit.)
          const CFGBlock *LoopEnd = nullptr;
          if (X != B && isLoopTest(X))
            if (!(LoopEnd = Failures->liveJoin(X)))
              LoopEnd = joinOf(X);
          if (LoopEnd && !Uniformity->branchDivergence(X).divergent() &&
              !LoopExits.count(X) && reaches(X, B, LoopEnd)) {
            const Expr *Cond = RankUniformity::branchCondition(B);
            const Origin *Left = Ctx.origin(
                X, B, Cond ? Cond->getBeginLoc() : SourceLocation(),
                [&] {
                  return "the other ranks go on in the loop while ranks "
                         "where '" +
                         Ctx.text(Cond) + "' leave it here";
                },
                Why.Why, /*FromControl=*/true);
            Dep LeftDep = Why.explainedBy(Left);
            LoopExits[X] = LeftDep;
            Divergent.push_back({X, LeftDep});
          }
        }
    }
    if (Next == Control && NextJoins == Joins)
      break;
    Control = std::move(Next);
    Joins = std::move(NextJoins);
  }
  // What the function returns and writes, for its callers.
  Ctx.Facts.mergeSummary(FD, Uniformity->summary());
}

std::vector<const FunctionDecl *> FunctionAnalysis::callees() const {
  std::vector<const FunctionDecl *> Result;
  if (!Cfg)
    return Result;
  llvm::DenseSet<const FunctionDecl *> Seen;
  for (const CFGBlock *B : *Cfg)
    for (const CFGElement &Elem : *B) {
      auto S = Elem.getAs<CFGStmt>();
      if (!S)
        continue;
      const FunctionDecl *Callee = nullptr;
      if (const auto *Call = dyn_cast<CallExpr>(S->getStmt())) {
        Callee = Call->getDirectCallee();
        // A virtual call runs one of the overrides: they come first too.
        if (const CXXMethodDecl *Method = dispatchedMethod(Call))
          for (const FunctionDecl *Target : Index.dispatchTargets(Method))
            if (Target != FD && Seen.insert(Target).second)
              Result.push_back(Target);
      } else if (const auto *C = dyn_cast<CXXConstructExpr>(S->getStmt()))
        Callee = C->getConstructor();
      const FunctionDecl *Def = Callee ? Callee->getDefinition() : nullptr;
      if (Def && Def != FD && Ctx.isAnalysable(Def) && Seen.insert(Def).second)
        Result.push_back(Def);
    }
  return Result;
}

bool FunctionAnalysis::isLoopTest(const CFGBlock *B) {
  return B->succ_size() >= 2 &&
         isa_and_nonnull<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(
             B->getTerminatorStmt());
}

bool FunctionAnalysis::reaches(const CFGBlock *From, const CFGBlock *To,
                               const CFGBlock *Stop) const {
  std::vector<bool> Seen(Cfg->getNumBlockIDs(), false);
  std::vector<const CFGBlock *> Work;
  for (const CFGBlock *Succ : From->succs())
    if (Succ && Succ != Stop && !Seen[Succ->getBlockID()]) {
      Seen[Succ->getBlockID()] = true;
      Work.push_back(Succ);
    }
  while (!Work.empty()) {
    const CFGBlock *B = Work.back();
    Work.pop_back();
    ++Steps;
    if (B == To)
      return true;
    for (const CFGBlock *Succ : B->succs())
      if (Succ && Succ != Stop && !Seen[Succ->getBlockID()]) {
        Seen[Succ->getBlockID()] = true;
        Work.push_back(Succ);
      }
  }
  return false;
}

Dep FunctionAnalysis::branchWhy(const CFGBlock *B) const {
  return join(Uniformity->branchDivergence(B), LoopExits.lookup(B));
}

/// The one communicator every site runs on, or null. Where there is one,
/// its members are the ranks that matter: the sides only non-members take
/// are not compared. A call of another translation unit's function given no
/// communicator (an error handler, a timer) is left out, as the checks,
/// which see one translation unit, leave it out; so is one given only a
/// window (MPI_Win_lock, MPI_Get where mpi.h is not a system header:
/// one-sided, they match nothing on the other ranks).
static const Expr *
onlyCommunicator(const std::vector<std::vector<CallSite>> &Sites) {
  const Expr *Only = nullptr;
  for (const std::vector<CallSite> &BlockSites : Sites)
    for (const CallSite &Site : BlockSites) {
      const Expr *Comm = Site.Communicator;
      if ((!Comm || isWindowType(Comm->getType())) &&
          Site.Summary->getKind() == SummaryNode::Kind::Call)
        continue;
      if (!Comm || (Only && !sameObject(Only, Comm)))
        return nullptr;
      Only = Comm;
    }
  return Only;
}

void FunctionAnalysis::computeSites() {
  if (!Cfg)
    return;
  for (auto &BlockSites : Sites)
    BlockSites.clear();
  // Every block, also the handlers of a `try` that only calls can reach
  // (the CFG has no edges for exceptions that calls throw).
  for (const CFGBlock *B : *Cfg) {
    unsigned Element = 0;
    for (auto ElemIt = B->begin(); ElemIt != B->end(); ++ElemIt, ++Element) {
      const CFGElement &Elem = *ElemIt;
      if (auto Dtor = Elem.getAs<CFGAutomaticObjDtor>()) {
        const VarDecl *Var = Dtor->getVarDecl();
        const CXXDestructorDecl *Destructor = Dtor->getDestructorDecl(Ctx.AST);
        if (!Var || !Var->getInit() || !Destructor)
          continue;
        const SummaryNode *Ends = Index.summaryOf(Destructor);
        if (Ends && !Ends->isEmpty()) {
          // Reported at the declaration of the object whose destructor it is.
          CallSite Site;
          Site.Call = Var->getInit();
          Site.Block = B;
          Site.Summary = Ends;
          // The driver links a body in another TU by the declaration's key.
          Site.Callee = Destructor->getDefinition()
                            ? Destructor->getDefinition()
                            : Destructor;
          Site.IsDestructor = true;
          Site.Element = Element;
          Sites[B->getBlockID()].push_back(Site);
        }
        continue;
      }
      auto S = Elem.getAs<CFGStmt>();
      if (!S)
        continue;
      const auto *Call = dyn_cast<CallExpr>(S->getStmt());
      if (const auto *Construct = dyn_cast<CXXConstructExpr>(S->getStmt())) {
        // A user constructor that communicates (a DDP-like wrapper that
        // broadcasts its parameters when built).
        const SummaryNode *Built = Index.summaryOf(Construct->getConstructor());
        if (Built && !Built->isEmpty()) {
          CallSite Site;
          Site.Call = Construct;
          Site.Block = B;
          Site.Summary = Built;
          const CXXConstructorDecl *Ctor = Construct->getConstructor();
          Site.Callee = Ctor->getDefinition() ? Ctor->getDefinition() : Ctor;
          Site.Element = Element;
          Sites[B->getBlockID()].push_back(Site);
        }
        continue;
      }
      const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
      if (!Callee) {
        // A call that did not compile (code for another LibTorch release).
        if (const auto *E = dyn_cast<Expr>(S->getStmt()))
          if (E->containsErrors())
            unresolvedSite(E, B);
        continue;
      }
      CallSite Site;
      Site.Call = Call;
      Site.Block = B;
      Site.Element = Element;
      if (const CatalogueEntry *Entry = Ctx.Catalogue.classify(Callee)) {
        bool Syncs = isCollectiveRole(Entry->Role) ||
                     (Entry->Role == CallRole::GradientSync &&
                      Ctx.GradientSyncArmed &&
                      !Ctx.UnsyncedBackwards.contains(Call));
        if (!Syncs)
          continue;
        // A collective on a communicator that itself depends on the rank
        // (a sub-communicator chosen by colour) is called by exactly its
        // members: which ranks those are is beyond this analysis.
        Site.Communicator = communicatorOf(Call, /*Catalogued=*/true);
        if (Site.Communicator &&
            Ctx.resolve(Uniformity->divergenceAt(B, Site.Communicator)))
          continue;
        // MPI_COMM_SELF holds the calling process alone: a collective on
        // it waits for no one else (rank 0's MPI_File_open of its own file).
        if (Site.Communicator && isSelfCommunicator(Site.Communicator, Ctx.AST))
          continue;
        // A pattern such as "util::Comm::*" names many calls: show each by
        // its own name.
        Site.Summary = Ctx.Summaries.op(
            Entry->Display.find_first_of("*?[") == std::string::npos
                ? llvm::StringRef(Entry->Display)
                : llvm::StringRef(Ctx.Summaries.name(Callee->getNameAsString())));
        Site.IsBarrier = Entry->Role == CallRole::Barrier;
        if (Site.IsBarrier)
          Ctx.Summaries.markBarrier(Site.Summary->getOp());
      } else if (const CXXMethodDecl *Method = dispatchedMethod(Call);
                 Method && !Ctx.isLibraryDecl(Method)) {
        // A virtual call: whichever override the object's type has.
        const SummaryNode *Dispatched = Index.dispatchSummaryOf(Method);
        if (!Dispatched || Dispatched->isEmpty())
          continue;
        Site.Summary = Dispatched;
        Site.Callee = Method;
        Site.IsDispatch = true;
      } else {
        // `model(x)` on a module holder runs the module's forward.
        if (const FunctionDecl *Forward = forwardRunBy(Call))
          Callee = Forward;
        const SummaryNode *CalleeSummary = Index.summaryOf(Callee);
        if (!CalleeSummary || CalleeSummary->isEmpty())
          continue;
        Site.Summary = CalleeSummary;
        // A function whose body did not compile issues the unknown, as
        // itself: it has no body to link.
        if (CalleeSummary->getKind() != SummaryNode::Kind::Op ||
            CalleeSummary->getOp() != UnknownOp)
          Site.Callee =
              Callee->getDefinition() ? Callee->getDefinition() : Callee;
        Site.Communicator = communicatorOf(Call, /*Catalogued=*/false);
        // A helper given MPI_COMM_SELF as its only communicator runs as a
        // job of one process (ior's test: `ior_run(argc, argv,
        // MPI_COMM_SELF, out)` on rank 0): it waits for no one else.
        if (Site.Communicator && isSelfCommunicator(Site.Communicator, Ctx.AST))
          continue;
      }
      Sites[B->getBlockID()].push_back(Site);
    }
  }
  OnlyCommunicator = onlyCommunicator(Sites);
  NonMemberSuccessors.clear();
  llvm::DenseMap<const CFGBlock *, const SummaryNode *> Memo;
  llvm::DenseMap<const CFGBlock *, bool> OnStack;
  Summary = summarize(&Cfg->getEntry(), nullptr, Memo, OnStack, 0);
  if (!Summary)
    Summary = Ctx.Summaries.empty();
}

void FunctionAnalysis::unresolvedSite(const Expr *E, const CFGBlock *B) {
  CallSite Site;
  Site.Call = E;
  Site.Block = B;
  if (const UnresolvedCall *Match = Ctx.Unresolved.match(E, Ctx)) {
    if (!isCollectiveRole(Match->Entry->Role))
      return;
    Site.Summary = Ctx.Summaries.op(Match->Entry->Display);
    Site.IsBarrier = Match->Entry->Role == CallRole::Barrier;
    if (Site.IsBarrier)
      Ctx.Summaries.markBarrier(Site.Summary->getOp());
    Site.ByName = Match;
  } else {
    // It may be a call of one of the user's functions, which may issue
    // anything.
    std::optional<std::string> Name = UnresolvedCalls::calledName(
        E, Ctx.AST.getSourceManager(), Ctx.AST.getLangOpts());
    if (!Name || !Ctx.isUserFunctionName(*Name))
      return;
    Site.Summary = Ctx.Summaries.op(UnknownOp);
  }
  Sites[B->getBlockID()].push_back(Site);
}

const SummaryNode *FunctionAnalysis::summarize(
    const CFGBlock *From, const CFGBlock *Stop,
    llvm::DenseMap<const CFGBlock *, const SummaryNode *> &Memo,
    llvm::DenseMap<const CFGBlock *, bool> &OnStack, unsigned Depth) {
  SummaryContext &SC = LocatedMode ? Ctx.Located : Ctx.Summaries;
  if (!From || From == Stop || From == &Cfg->getExit() ||
      Depth > MaxSummaryDepth)
    return SC.empty();
  if (OnStack.lookup(From))
    return SC.loopBack();
  auto It = Memo.find(From);
  if (It != Memo.end())
    return It->second;
  ++Steps;
  // Paths that end the job with an error are not compared: null.
  if (Failures->failsIn(From))
    return Memo[From] = nullptr;
  // So are throws under a further condition (`if (status != OK) throw`): an
  // error check, not the rank-dependent branch deciding to leave. A throw
  // the branch leads to directly is an early exit.
  if (!RankGatedThrows.contains(From) && throwsIn(From))
    return Memo[From] = nullptr;
  OnStack[From] = true;
  llvm::SmallVector<const SummaryNode *, 4> Own;
  for (const CallSite &Site : Sites[From->getBlockID()])
    if (!excused(Site))
      Own.push_back(leaf(Site));
  llvm::SmallVector<const SummaryNode *, 2> Next;
  // Per successor, null where it fails: the alternatives of a decision.
  llvm::SmallVector<const SummaryNode *, 2> Alternatives;
  bool HasSuccessor = false, EverySuccessor = true;
  // A try's dispatch goes to its handlers, and to the exit for exceptions
  // none of them catches: that edge is a failure, not a way past code.
  bool Dispatch = isa_and_nonnull<CXXTryStmt>(From->getTerminatorStmt());
  int NonMember = nonMemberSuccessor(From);
  int RuledOut = Decided ? Decided->ruledOutSuccessor(From) : -1;
  int SuccIndex = -1;
  for (const CFGBlock *Succ : From->succs()) {
    ++SuccIndex;
    if (!Succ || (Dispatch && Succ == &Cfg->getExit())) {
      EverySuccessor = false;
      continue;
    }
    // No rank that the collectives wait for goes this way; or the branch
    // being compared decided this test the other way.
    if (SuccIndex == NonMember || SuccIndex == RuledOut) {
      EverySuccessor = false;
      continue;
    }
    HasSuccessor = true;
    const SummaryNode *N = summarize(Succ, Stop, Memo, OnStack, Depth + 1);
    Alternatives.push_back(N);
    if (N)
      Next.push_back(N);
  }
  OnStack[From] = false;
  if (HasSuccessor && Next.empty())
    return Memo[From] = nullptr;
  const SummaryNode *Rest = nullptr;
  // A test every rank evaluates alike: keep which outcome each part
  // belongs to (UniformDecisions.h).
  if (Next.size() > 1 && EverySuccessor)
    if (const DecisionName *Name = decisionAt(From)) {
      if (Name->Reversed)
        std::reverse(Alternatives.begin(), Alternatives.end());
      Rest = SC.decision(SC.name(Name->Key), Alternatives, Name->LoopBody);
    }
  Own.push_back(Rest ? Rest : SC.choice(Next));
  const SummaryNode *Result = SC.seq(Own);
  Memo[From] = Result;
  return Result;
}

const DecisionName *FunctionAnalysis::decisionAt(const CFGBlock *B) {
  auto [It, New] = Decisions.try_emplace(B);
  if (New && !Ctx.resolve(branchWhy(B)))
    It->second = Ctx.Decisions.name(B, FD, parents(), Ctx);
  return It->second ? &*It->second : nullptr;
}

const SummaryNode *FunctionAnalysis::leaf(const CallSite &Site) {
  if (!LocatedMode)
    return Site.Summary;
  unsigned Tag = Ctx.tag(calledNameLoc(Site.Call));
  if (Site.Callee)
    return Ctx.Located.call(Site.IsDispatch ? Ctx.dispatchKey(Site.Callee)
                                            : Ctx.ExternalKey(Site.Callee),
                            Tag);
  return Ctx.Located.op(Site.Summary->getOp(), Tag);
}

const SummaryNode *FunctionAnalysis::locatedSummary() {
  if (!Cfg || !Ctx.ExternalKey)
    return Ctx.Located.empty();
  llvm::DenseMap<const CFGBlock *, const SummaryNode *> Memo;
  llvm::DenseMap<const CFGBlock *, bool> OnStack;
  LocatedMode = true;
  const SummaryNode *N = summarize(&Cfg->getEntry(), nullptr, Memo, OnStack, 0);
  LocatedMode = false;
  return N ? N : Ctx.Located.empty();
}

std::vector<Finding::Side> FunctionAnalysis::locatedSides(
    const CFGBlock *Branch, llvm::ArrayRef<const CFGBlock *> Arms,
    llvm::ArrayRef<unsigned> ArmIndex,
    llvm::ArrayRef<std::vector<const CFGBlock *>> Regions,
    const CFGBlock *Join) {
  std::vector<Finding::Side> Sides;
  llvm::DenseMap<const CFGBlock *, const SummaryNode *> Memo;
  llvm::DenseMap<const CFGBlock *, bool> OnStack;
  LocatedMode = true;
  for (unsigned I = 0; I < Arms.size(); ++I) {
    const SummaryNode *N = summarizeSide(Branch, ArmIndex[I], Regions[I],
                                         Arms[I], Join, Memo, OnStack);
    Sides.push_back({ArmIndex[I], N ? N : Ctx.Located.empty()});
  }
  LocatedMode = false;
  return Sides;
}

const CallSite *
FunctionAnalysis::siteIssuing(const std::vector<const CFGBlock *> &Blocks,
                              llvm::StringRef Op, unsigned Skip) const {
  const CallSite *Found = nullptr;
  const CallSite *Written = nullptr;
  for (const CFGBlock *B : Blocks)
    for (const CallSite &Site : Sites[B->getBlockID()]) {
      if (!Site.Summary->mayIssue(Op) || excused(Site))
        continue;
      if (!Written && !Site.IsDestructor)
        Written = &Site;
      if (!Found && Skip-- == 0)
        Found = &Site;
    }
  // Rather blame a collective written out than the same one run by a
  // destructor at the end of the scope.
  if (Found && Found->IsDestructor && Written)
    return Written;
  return Found;
}

std::vector<const CFGBlock *>
FunctionAnalysis::without(const std::vector<const CFGBlock *> &Blocks,
                          const std::vector<const CFGBlock *> &Remove) const {
  llvm::DenseSet<const CFGBlock *> Removed(Remove.begin(), Remove.end());
  std::vector<const CFGBlock *> Kept;
  for (const CFGBlock *B : Blocks)
    if (!Removed.contains(B))
      Kept.push_back(B);
  return Kept;
}

const CallSite *FunctionAnalysis::firstSiteIssuing(llvm::StringRef Op) const {
  if (!Cfg)
    return nullptr;
  return siteIssuing(Uniformity->order(), Op, 0);
}

static void setExit(Finding &F, const Stmt *Exit);

const CallSite *
FunctionAnalysis::explainChain(const CallSite &Site, llvm::StringRef Op,
                               std::vector<CallStep> &Chain) const {
  const CallSite *Current = &Site;
  for (unsigned Depth = 0; Current && Current->Callee && Depth < 8; ++Depth) {
    const FunctionAnalysis *Callee = nullptr;
    const CallSite *Inner = nullptr;
    if (Current->IsDispatch) {
      // The first override that issues the collective.
      for (const FunctionDecl *Target :
           Index.dispatchTargets(cast<CXXMethodDecl>(Current->Callee)))
        if ((Callee = Index.analysisOf(Target)) &&
            (Inner = Callee->firstSiteIssuing(Op)))
          break;
    } else if ((Callee = Index.analysisOf(Current->Callee))) {
      Inner = Callee->firstSiteIssuing(Op);
    }
    if (!Inner)
      return Current;
    CallStep Step;
    Step.Loc = Inner->Call->getBeginLoc();
    Step.Caller = calleeName(Current->Call, Current->Callee);
    Step.Callee =
        Inner->Callee ? calleeName(Inner->Call, Inner->Callee) : Op.str();
    Chain.push_back(Step);
    Current = Inner;
  }
  return Current;
}

void FunctionAnalysis::findEarlyExit(const std::vector<const CFGBlock *> &Blocks,
                                     Finding &F) const {
  for (const CFGBlock *B : Blocks) {
    for (const CFGElement &Elem : *B) {
      auto S = Elem.getAs<CFGStmt>();
      if (!S)
        continue;
      const Stmt *St = S->getStmt();
      if (isa<ReturnStmt>(St) || isa<CXXThrowExpr>(St)) {
        setExit(F, St);
        return;
      }
      if (const auto *Call = dyn_cast<CallExpr>(St))
        if (const FunctionDecl *Callee = Call->getDirectCallee())
          if (Callee->isNoReturn() && isCleanExit(Call, Ctx.AST)) {
            F.EarlyExit = Call->getBeginLoc();
            F.EarlyExitKind = Callee->getNameAsString();
            return;
          }
    }
    if (const Stmt *T = B->getTerminatorStmt()) {
      if (isa<BreakStmt, ContinueStmt, GotoStmt>(T)) {
        setExit(F, T);
        return;
      }
    }
  }
}

static Finding::Shape shapeOf(const Stmt *Terminator);

/// The condition of an if or a loop, or null.
static const Expr *conditionOf(const Stmt *S) {
  if (const auto *If = dyn_cast_or_null<IfStmt>(S))
    return If->getCond();
  if (const auto *While = dyn_cast_or_null<WhileStmt>(S))
    return While->getCond();
  if (const auto *For = dyn_cast_or_null<ForStmt>(S))
    return For->getCond();
  if (const auto *Do = dyn_cast_or_null<DoStmt>(S))
    return Do->getCond();
  return nullptr;
}

/// The if or loop whose condition contains \p Part (a side of a && or ||),
/// searched in \p S.
static const Stmt *controlOf(const Stmt *S, const Expr *Part,
                             const SourceManager &SM) {
  if (!S)
    return nullptr;
  const Expr *Cond = conditionOf(S);
  if (Cond && SM.isPointWithin(Part->getBeginLoc(), Cond->getBeginLoc(),
                               Cond->getEndLoc()))
    return S;
  for (const Stmt *Child : S->children())
    if (const Stmt *Found = controlOf(Child, Part, SM))
      return Found;
  return nullptr;
}

static bool within(const Stmt *Inner, const Stmt *Outer,
                   const SourceManager &SM) {
  return Inner && Outer &&
         SM.isPointWithin(Inner->getBeginLoc(), Outer->getBeginLoc(),
                          Outer->getEndLoc());
}

/// The first statement in \p S that leaves the code after it: return,
/// break, continue, goto or throw (not looking into nested loops, whose
/// break and continue stay inside, or lambdas).
static const Stmt *exitIn(const Stmt *S) {
  if (!S || isa<LambdaExpr>(S))
    return nullptr;
  if (isa<ReturnStmt, BreakStmt, ContinueStmt, GotoStmt, CXXThrowExpr>(S))
    return S;
  if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, SwitchStmt>(S))
    return nullptr;
  for (const Stmt *Child : S->children())
    if (const Stmt *Exit = exitIn(Child))
      return Exit;
  return nullptr;
}

static void setExit(Finding &F, const Stmt *Exit) {
  F.EarlyExit = Exit->getBeginLoc();
  F.EarlyExitKind = isa<ReturnStmt>(Exit)     ? "return"
                    : isa<BreakStmt>(Exit)    ? "break"
                    : isa<ContinueStmt>(Exit) ? "continue"
                    : isa<GotoStmt>(Exit)     ? "goto"
                                              : "throw";
}

/// Restates \p F in terms of the whole condition when its branch is one side
/// of a && or || in an if or loop condition: `rank == 0 || rank == 1` is
/// what the user wrote and what decides which ranks get where.
void FunctionAnalysis::widenToWholeCondition(Finding &F,
                                             const CFGBlock *B) const {
  const Expr *Part = RankUniformity::branchCondition(B);
  const auto *Logical = dyn_cast_or_null<BinaryOperator>(B->getTerminatorStmt());
  bool InChain = Logical && Logical->isLogicalOp();
  if (!InChain) {
    const Expr *Cond = conditionOf(B->getTerminatorStmt());
    if (const auto *BO =
            dyn_cast_or_null<BinaryOperator>(Cond ? Cond->IgnoreParenImpCasts()
                                                  : nullptr))
      InChain = BO->isLogicalOp();
  }
  if (!InChain || !Part)
    return;
  const SourceManager &SM = Ctx.AST.getSourceManager();
  const Stmt *Control = controlOf(FD->getBody(), Part, SM);
  if (!Control)
    return;
  F.Branch = Control;
  F.Kind = shapeOf(Control);
  if (const auto *If = dyn_cast<IfStmt>(Control)) {
    F.Condition = If->getCond();
    if (within(F.Site, If->getThen(), SM)) {
      F.SiteOnTrueSide = true;
      F.EarlyExit = SourceLocation();
    } else if (within(F.Site, If->getElse(), SM)) {
      F.SiteOnTrueSide = false;
      F.EarlyExit = SourceLocation();
    } else {
      // After the if: the ranks that leave are on the side that holds the
      // exit (`if (rank != 0 || verbose) return;`).
      if (F.EarlyExit.isInvalid()) {
        if (const Stmt *Exit = exitIn(If->getThen()))
          setExit(F, Exit);
        else if (const Stmt *Exit = exitIn(If->getElse()))
          setExit(F, Exit);
      }
      if (F.EarlyExit.isValid())
        F.SiteOnTrueSide = !SM.isPointWithin(F.EarlyExit,
                                             If->getThen()->getBeginLoc(),
                                             If->getThen()->getEndLoc());
    }
  } else {
    F.Condition = conditionOf(Control);
  }
  F.ConditionText = Ctx.text(F.Condition);
}

std::string calleeName(const Expr *Call, const FunctionDecl *Callee) {
  const auto *Method = dyn_cast<CXXMethodDecl>(Callee);
  // A module's forward, run as `model(x)`, by its module.
  if (Method && !Method->getParent()->isLambda() &&
      Method->getDeclName().isIdentifier() && Method->getName() == "forward")
    return Method->getParent()->getNameAsString() + "::forward";
  if (!Method || !Method->getParent()->isLambda())
    return Callee->getNameAsString();
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call))
    if (Op->getNumArgs() > 0)
      if (const auto *Ref =
              dyn_cast<DeclRefExpr>(Op->getArg(0)->IgnoreParenImpCasts()))
        return Ref->getDecl()->getNameAsString();
  return "lambda";
}

static Finding::Shape shapeOf(const Stmt *Terminator) {
  if (isa_and_nonnull<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(Terminator))
    return Finding::Shape::Loop;
  if (isa_and_nonnull<SwitchStmt>(Terminator))
    return Finding::Shape::Switch;
  return Finding::Shape::Branch;
}

void FunctionAnalysis::findMismatches(std::vector<Finding> &Out,
                                      std::vector<Finding> &Deferred) {
  if (!Cfg || Skipped)
    return;
  size_t OutBefore = Out.size(), DeferredBefore = Deferred.size();
  // Calls reported, per kind (0: collectives, 1: barriers). A helper call
  // that issues both may get one finding of each kind; the checks decide
  // which to show.
  llvm::DenseMap<const Expr *, bool> Reported[2];
  for (const Finding &F : Out)
    Reported[F.IsBarrier][F.Site] = true;
  // Inner branches first, so that a collective is blamed on the innermost
  // rank-dependent condition that decides it.
  // A branch on the function's inputs counts when some call passes a
  // rank-dependent one.
  std::vector<const CFGBlock *> Branches;
  Resolved.clear();
  auto Count = [&](const CFGBlock *B, const Dep &Why) {
    if (const Origin *O = Ctx.resolve(Why)) {
      Branches.push_back(B);
      Resolved[B] = O;
    }
  };
  for (const auto &Entry : Uniformity->divergentBranches())
    Count(Entry.first, branchWhy(Entry.first));
  for (const auto &Entry : LoopExits)
    if (!Uniformity->branchDivergence(Entry.first).any())
      Count(Entry.first, Entry.second);
  // Branches whose rank dependence comes by data flow go before those that
  // are rank-dependent only because an earlier branch made them so.
  llvm::sort(Branches, [&](const CFGBlock *A, const CFGBlock *B) {
    bool ControlA = Resolved.lookup(A)->FromControl;
    bool ControlB = Resolved.lookup(B)->FromControl;
    if (ControlA != ControlB)
      return !ControlA;
    return Order[A->getBlockID()] > Order[B->getBlockID()];
  });

  llvm::DenseSet<const CFGBlock *> Undivided = decidedBranches(Branches);
  for (const CFGBlock *B : Branches) {
    if (Undivided.contains(B) || takesTurnsAlike(B))
      continue;
    if (!spend(0)) {
      // Nothing half-checked: what was found here goes too.
      Out.resize(OutBefore);
      Deferred.resize(DeferredBefore);
      break;
    }
    const CFGBlock *Join = sidesJoin(B);
    // The members of a communicator all take the same side of a test of
    // membership: its collectives under the test are balanced.
    MembershipTest = RankUniformity::branchCondition(B);
    llvm::SmallVector<const CFGBlock *, 4> Arms;
    llvm::SmallVector<unsigned, 4> ArmIndex;
    unsigned SuccIndex = 0;
    for (const CFGBlock *Succ : B->succs()) {
      // The error side of an error test ends the job: not compared.
      if (Succ && !llvm::is_contained(Arms, Succ) &&
          !Failures->onlyFails(B, SuccIndex) &&
          static_cast<int>(SuccIndex) != nonMemberSuccessor(B)) {
        Arms.push_back(Succ);
        ArmIndex.push_back(SuccIndex);
      }
      ++SuccIndex;
    }
    if (Arms.size() < 2)
      continue;
    llvm::DenseMap<const CFGBlock *, const SummaryNode *> Memo;
    llvm::DenseMap<const CFGBlock *, bool> OnStack;
    llvm::SmallVector<const SummaryNode *, 4> ArmSummaries;
    // What each side runs before the join, computed once per branch.
    std::vector<std::vector<const CFGBlock *>> Regions;
    for (const CFGBlock *Arm : Arms)
      Regions.push_back(region(Arm, Join, B));
    // A throw that every path of a side reaches (it post-dominates the
    // side's first block) is the branch's own way out; one under a further
    // test on that side is an error check.
    RankGatedThrows.clear();
    for (unsigned I = 0; I < Arms.size(); ++I)
      for (const CFGBlock *X : Regions[I])
        if (throwsIn(X) &&
            PostDom->getBase().dominates(const_cast<CFGBlock *>(X),
                                         const_cast<CFGBlock *>(Arms[I])))
          RankGatedThrows.insert(X);
    for (unsigned I = 0; I < Arms.size();) {
      if (const SummaryNode *N = summarizeSide(B, ArmIndex[I], Regions[I],
                                               Arms[I], Join, Memo, OnStack)) {
        ArmSummaries.push_back(N);
        ++I;
        continue;
      }
      // This side only fails: it ends the job, it does not leave ranks
      // waiting.
      Arms.erase(Arms.begin() + I);
      ArmIndex.erase(ArmIndex.begin() + I);
      Regions.erase(Regions.begin() + I);
    }
    if (Arms.size() < 2 || repeatsInnerSide(B, Arms, ArmSummaries, Undivided))
      continue;
    // A side that calls code that did not compile may issue anything:
    // nothing is known to differ.
    if (llvm::any_of(ArmSummaries,
                     [](const SummaryNode *N) { return N->mayIssueUnknown(); }))
      continue;
    std::vector<Finding::Side> Sides;
    if (Ctx.ExternalKey)
      Sides = locatedSides(B, Arms, ArmIndex, Regions, Join);
    if (llvm::any_of(ArmSummaries,
                     [](const SummaryNode *N) { return N->hasCalls(); })) {
      // What the other TU's functions issue decides: the driver compares.
      Finding F;
      F.Function = FD;
      describeBranch(F, B);
      F.Sides = std::move(Sides);
      Deferred.push_back(std::move(F));
      continue;
    }
    size_t Before = Out.size();
    // Compare the barriers and the other collectives of the sides apart:
    // each difference belongs to its own check, so a branch whose rank 0
    // side waits in a barrier and broadcasts is reported by both.
    // First as sets of sequences; where those are equal, for each outcome
    // of a test every rank makes alike (UniformDecisions.h).
    llvm::SmallVector<const SummaryNode *, 4> Full;
    for (const SummaryNode *N : ArmSummaries)
      Full.push_back(Ctx.Summaries.plain(N));
    auto Compare = [&](llvm::ArrayRef<const SummaryNode *> Keyed,
                       llvm::DenseMap<const Expr *, bool> &Seen) {
      llvm::SmallVector<const SummaryNode *, 4> Plain;
      for (const SummaryNode *N : Keyed)
        Plain.push_back(Ctx.Summaries.plain(N));
      if (reportDifference(B, Regions, ArmIndex, Plain, Full, Seen, Out))
        return true;
      std::optional<DecisionSplit> Split = splitOnDecision(
          Ctx.Summaries, Keyed, [&](uint64_t N) { return spend(N); });
      if (!Split)
        return false;
      size_t First = Out.size();
      reportDifference(B, Regions, ArmIndex, Split->Sides, Full, Seen, Out);
      for (size_t I = First; I < Out.size(); ++I)
        explainDecision(Out[I], *Split);
      return true;
    };
    bool Differ = false;
    for (bool Barriers : {false, true}) {
      llvm::SmallVector<const SummaryNode *, 4> Kind;
      for (const SummaryNode *N : ArmSummaries)
        Kind.push_back(Ctx.Summaries.only(N, Barriers));
      Differ |= Compare(Kind, Reported[Barriers]);
    }
    // The same barriers and the same collectives, in another order
    // (`allreduce; barrier` against `barrier; allreduce`): still a hang.
    if (!Differ)
      Compare(ArmSummaries, Reported[0]);
    for (size_t I = Before; I < Out.size(); ++I)
      Out[I].Sides = Sides;
  }
  RankGatedThrows.clear();
  MembershipTest = nullptr;
  findHandlerMismatches(Out, Deferred);
}

bool FunctionAnalysis::repeatsInnerSide(
    const CFGBlock *Branch, llvm::ArrayRef<const CFGBlock *> Arms,
    llvm::ArrayRef<const SummaryNode *> Summaries,
    const llvm::DenseSet<const CFGBlock *> &Undivided) const {
  // Written as one chain: the inner test is the outer one's `else if`.
  const auto *If = dyn_cast_or_null<IfStmt>(Branch->getTerminatorStmt());
  const auto *ElseIf = If ? dyn_cast_or_null<IfStmt>(If->getElse()) : nullptr;
  if (!ElseIf || Arms.size() != 2)
    return false;
  for (unsigned I = 0; I < 2; ++I) {
    const SummaryNode *Inner = Summaries[I];
    // The side is the inner branch and what follows it up to the join: a
    // plain choice between what the inner branch's sides run.
    if (Arms[I]->getTerminatorStmt() != ElseIf || !Resolved.count(Arms[I]) ||
        Undivided.contains(Arms[I]) ||
        Inner->getKind() != SummaryNode::Kind::Choice ||
        !Inner->getDecision().empty())
      continue;
    if (llvm::is_contained(Inner->children(), Summaries[1 - I]))
      return true;
  }
  return false;
}

const SummaryNode *FunctionAnalysis::summarizeSide(
    const CFGBlock *Branch, unsigned SuccIndex,
    llvm::ArrayRef<const CFGBlock *> Side, const CFGBlock *Arm,
    const CFGBlock *Join,
    llvm::DenseMap<const CFGBlock *, const SummaryNode *> &Memo,
    llvm::DenseMap<const CFGBlock *, bool> &OnStack) {
  Decided = DecidedTest::make(Branch, SuccIndex, Side, FD, Ctx);
  if (Decided && llvm::none_of(Side, [&](const CFGBlock *X) {
        return Decided->ruledOutSuccessor(X) >= 0;
      }))
    Decided.reset();
  // What the side summarises depends on the test it decided: its memo is
  // its own then (the other sides keep sharing theirs).
  if (Decided)
    Memo.clear();
  const SummaryNode *N = summarize(Arm, Join, Memo, OnStack, 0);
  if (Decided)
    Memo.clear();
  Decided.reset();
  return N;
}

bool FunctionAnalysis::takesTurnsAlike(const CFGBlock *B) {
  const auto *If = dyn_cast_or_null<IfStmt>(B->getTerminatorStmt());
  if (!If)
    return false;
  auto IsRank = [&](const Expr *E) {
    Dep D = Uniformity->divergenceAt(B, E);
    return D.divergent() && D.Why->ExactRank;
  };
  auto IsWorldSize = [&](const Expr *E) {
    E = E->IgnoreParenImpCasts();
    const ValueDecl *D = nullptr;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
      D = Ref->getDecl();
    else if (const auto *Member = dyn_cast<MemberExpr>(E))
      D = Member->getMemberDecl();
    return D && !Uniformity->divergenceAt(B, E).any() &&
           (Ctx.Facts.isWorldSize(D) ||
            (D->getDeclName().isIdentifier() && isWorldSizeName(D->getName())));
  };
  const ForStmt *For = takesTurns(If, parents(), IsRank, IsWorldSize);
  if (!For)
    return false;
  const SourceManager &SM = Ctx.AST.getSourceManager();
  const CallSite *First = nullptr;
  for (const std::vector<CallSite> &BlockSites : Sites)
    for (const CallSite &Site : BlockSites) {
      if (!within(Site.Call, For->getBody(), SM))
        continue;
      if (!Site.Summary || Site.Summary->getKind() != SummaryNode::Kind::Op ||
          !Site.Communicator)
        return false;
      if (!First) {
        First = &Site;
        continue;
      }
      if (Site.Summary != First->Summary ||
          Ctx.text(Site.Communicator) != Ctx.text(First->Communicator))
        return false;
    }
  return First != nullptr;
}

llvm::DenseSet<const CFGBlock *>
FunctionAnalysis::decidedBranches(llvm::ArrayRef<const CFGBlock *> Branches) {
  llvm::DenseSet<const CFGBlock *> Out;
  llvm::DenseSet<const CFGBlock *> Divergent(Branches.begin(), Branches.end());
  for (const CFGBlock *B : Branches) {
    if (!DecidedTest::make(B, 0, {}, FD, Ctx))
      continue;
    const CFGBlock *Join = sidesJoin(B);
    unsigned SuccIndex = 0;
    for (const CFGBlock *Succ : B->succs()) {
      unsigned I = SuccIndex++;
      if (!Succ)
        continue;
      std::vector<const CFGBlock *> Side = region(Succ, Join, B);
      // Only if every way into the side comes from B: a block the side
      // shares with code before B (a loop's head) is reached undecided.
      llvm::DenseSet<const CFGBlock *> InSide(Side.begin(), Side.end());
      bool OneEntry = llvm::all_of(Side, [&](const CFGBlock *X) {
        return llvm::all_of(X->preds(), [&](const CFGBlock *P) {
          return !P || P == B || InSide.contains(P);
        });
      });
      std::optional<DecidedTest> Test = DecidedTest::make(B, I, Side, FD, Ctx);
      if (!OneEntry || !Test)
        continue;
      for (const CFGBlock *X : Side)
        if (X != B && Divergent.contains(X) && Test->ruledOutSuccessor(X) >= 0)
          Out.insert(X);
    }
  }
  return Out;
}

CommunicatorMembership &FunctionAnalysis::membership() const {
  if (!Membership)
    Membership = std::make_unique<CommunicatorMembership>(FD, Ctx);
  return *Membership;
}

bool FunctionAnalysis::excused(const CallSite &Site) const {
  if (!MembershipTest || !Site.Communicator)
    return false;
  return membership().sharedByMembers(MembershipTest, Site.Communicator);
}

int FunctionAnalysis::nonMemberSuccessor(const CFGBlock *B) {
  if (B->succ_size() != 2)
    return -1;
  auto [It, New] = NonMemberSuccessors.try_emplace(B, -1);
  if (!New)
    return It->second;
  const Expr *Cond = RankUniformity::branchCondition(B);
  // A loop's test is no member test.
  if (!Cond || isLoopTest(B))
    return -1;
  if (OnlyCommunicator)
    if (std::optional<bool> Outside =
            membership().nonMemberOutcome(Cond, OnlyCommunicator))
      return It->second = *Outside ? 0 : 1;
  // A test of some communicator against the null handle: the members' side
  // runs that communicator's collectives, when each one it issues here is
  // on it or in a helper that is given no other communicator.
  std::optional<std::pair<const Expr *, bool>> Test =
      membership().nullTest(Cond);
  if (!Test)
    return -1;
  unsigned Outside = Test->second ? 0 : 1;
  const CFGBlock *Members = *(B->succ_begin() + (1 - Outside));
  if (!Members)
    return -1;
  for (const CFGBlock *X : region(Members, sidesJoin(B), B))
    for (const CallSite &Site : Sites[X->getBlockID()])
      if (Site.Communicator ? !sameObject(Site.Communicator, Test->first)
                            : !Site.Callee)
        return -1;
  return It->second = Outside;
}

void FunctionAnalysis::explainDecision(Finding &F,
                                       const DecisionSplit &Split) const {
  const DecisionInfo *Info = Ctx.Decisions.info(Split.Key);
  if (!Info || Split.Alternative >= Info->Values.size())
    return;
  F.Uniform = Info->Shown;
  F.UniformText = Info->Text;
  F.UniformValue = Info->Values[Split.Alternative];
}

void FunctionAnalysis::describeBranch(Finding &F, const CFGBlock *B) const {
  const Stmt *Terminator = B->getTerminatorStmt();
  F.Branch = Terminator;
  F.Kind = shapeOf(Terminator);
  F.Condition = RankUniformity::branchCondition(B);
  if (const auto *ForRange = dyn_cast_or_null<CXXForRangeStmt>(Terminator)) {
    // The condition is the hidden `__begin != __end`: show the range.
    F.Condition = ForRange->getRangeInit();
    F.OverRange = true;
  }
  F.ConditionText = Ctx.text(F.Condition);
  F.Why = Resolved.lookup(B);
}

bool FunctionAnalysis::reportDifference(
    const CFGBlock *B, llvm::ArrayRef<std::vector<const CFGBlock *>> Regions,
    llvm::ArrayRef<unsigned> ArmIndex,
    llvm::ArrayRef<const SummaryNode *> ArmSummaries,
    llvm::ArrayRef<const SummaryNode *> FullSummaries,
    llvm::DenseMap<const Expr *, bool> &Reported,
    std::vector<Finding> &Out) const {
  // Pick the first side that differs from the first one.
  unsigned Other = 1;
  while (Other < ArmSummaries.size() && ArmSummaries[Other] == ArmSummaries[0])
    ++Other;
  if (Other == ArmSummaries.size())
    return false; // Every side issues the same collectives: balanced.

  SummaryDifference Diff =
      firstDifference(ArmSummaries[0], ArmSummaries[Other]);
  const auto &Region0 = Regions[0];
  const auto &RegionOther = Regions[Other];
  // Blocks that only one side reaches. Sides can share blocks before the
  // join when one of them may leave early.
  auto Excl0 = without(Region0, RegionOther);
  auto ExclOther = without(RegionOther, Region0);
  // The differing collective may have been issued before, in the common
  // prefix (`barrier; barrier;` against `barrier;`): blame the one after.
  auto Repeats = [&](const SummaryNode *Part, const SummaryNode *Arm) {
    unsigned N = 0;
    auto Parts = topLevelParts(Arm);
    for (unsigned I = 0; I < Diff.Prefix && I < Parts.size(); ++I)
      N += Parts[I]->mayIssue(Part->firstOp());
    return N;
  };
  const CallSite *Site0 = Diff.Left
                              ? siteIssuing(Excl0, Diff.Left->firstOp(),
                                            Repeats(Diff.Left, ArmSummaries[0]))
                              : nullptr;
  const CallSite *SiteOther =
      Diff.Right ? siteIssuing(ExclOther, Diff.Right->firstOp(),
                               Repeats(Diff.Right, ArmSummaries[Other]))
                 : nullptr;

  Finding F;
  F.Function = FD;
  const CallSite *Primary = Site0 ? Site0 : SiteOther;
  const CallSite *Secondary = Site0 ? SiteOther : nullptr;
  bool PrimaryInFirst = Primary && Primary == Site0;
  // Where both sides differ, blame the side whose collective is written
  // out, not one run by a destructor at the end of a scope.
  if (Site0 && SiteOther && Site0->IsDestructor && !SiteOther->IsDestructor) {
    Primary = SiteOther;
    Secondary = Site0;
    PrimaryInFirst = false;
  }
  bool Shared = false;
  if (!Primary) {
    // The collective is in blocks both sides reach; one side can leave
    // before it.
    llvm::StringRef Op = Diff.Left    ? Diff.Left->firstOp()
                         : Diff.Right ? Diff.Right->firstOp()
                                      : llvm::StringRef();
    Primary = siteIssuing(without(Region0, Excl0), Op, 0);
    Shared = true;
  }
  if (!Primary)
    return true;
  F.Op = Shared ? (Diff.Left ? Diff.Left : Diff.Right)->firstOp().str()
                : (PrimaryInFirst ? Diff.Left : Diff.Right)->firstOp().str();
  if (Reported.lookup(Primary->Call))
    return true;
  Reported[Primary->Call] = true;

  F.Site = Primary->Call;
  // A helper's barrier is still a barrier: the class is the collective's.
  F.IsBarrier = Ctx.Summaries.isBarrier(F.Op);
  const CallSite *Issuing = Primary;
  if (Primary->Callee) {
    F.Via = calleeName(Primary->Call, Primary->Callee);
    Issuing = explainChain(*Primary, F.Op, F.Chain);
  }
  if (Issuing && Issuing->ByName) {
    F.ByNameLoc = calledNameLoc(Issuing->Call);
    F.ByNameNote = fmt::format(
        "'{}' is matched by name: this call did not compile against the "
        "headers in use, and {}",
        F.Op, Issuing->ByName->Grounds);
  }
  if (Secondary) {
    F.OtherSite = Secondary->Call;
    F.OtherOp = (PrimaryInFirst ? Diff.Right : Diff.Left)->firstOp().str();
  } else if (!Shared) {
    // The other side may issue a collective of the other kind in the same
    // place (a barrier against an allreduce): say so.
    SummaryDifference Full =
        firstDifference(FullSummaries[0], FullSummaries[Other]);
    const SummaryNode *Mine = PrimaryInFirst ? Full.Left : Full.Right;
    const SummaryNode *Theirs = PrimaryInFirst ? Full.Right : Full.Left;
    if (Mine && Theirs && Mine->firstOp() == F.Op)
      if (const CallSite *Instead = siteIssuing(
              PrimaryInFirst ? ExclOther : Excl0, Theirs->firstOp(), 0)) {
        F.OtherSite = Instead->Call;
        F.OtherOp = Theirs->firstOp().str();
      }
  }
  describeBranch(F, B);
  unsigned PrimaryArm = PrimaryInFirst ? ArmIndex[0] : ArmIndex[Other];
  F.SiteOnTrueSide = PrimaryArm == 0;
  if (Shared) {
    // The side with the early exit is the one that skips the collective.
    findEarlyExit(Excl0, F);
    F.SiteOnTrueSide = ArmIndex[F.EarlyExit.isValid() ? 0 : Other] != 0;
    if (F.EarlyExit.isInvalid())
      findEarlyExit(ExclOther, F);
  } else if (F.Kind == Finding::Shape::Branch && !Secondary) {
    findEarlyExit(PrimaryInFirst ? ExclOther : Excl0, F);
  }
  widenToWholeCondition(F, B);
  Out.push_back(std::move(F));
  return true;
}

} // namespace ddp
