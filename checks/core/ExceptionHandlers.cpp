//===--- ExceptionHandlers.cpp - Collectives only ranks that throw reach ===//
//
// `try { shard = loadShard(path, rank); } catch (...) { pg->broadcast(...); }`:
// whether a rank throws depends on its own files and data, so the handler's
// collectives run on some ranks only, and those after the call in the `try`
// block are skipped by them. The CFG has no edges for exceptions that calls
// throw; here each call in a `try` block that can throw on some ranks only
// is a rank-dependent branch of its own: the ranks that throw run the
// handlers, the others the rest of the block, up to where both meet again.
// The two are summarised and compared like the sides of a branch. A handler
// that rethrows (or otherwise fails) ends the job and is not compared; a
// `try` whose block issues the same collectives after the call as the
// handler does is balanced.
//
// Which calls throw on some ranks only: a function of the translation unit
// with a `throw` under a rank-dependent condition (a file it cannot open on
// this node), or a call of such a function, outside a `try` of its own; a
// function whose body is not visible given a rank-dependent argument; and
// calls that fail when this rank's file system lacks a file (torch::load,
// std::filesystem's listings and sizes). A throw that every rank makes
// alike is not one.
//
//===----------------------------------------------------------------------===//

#include "core/FunctionAnalysis.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/Analyses/Dominators.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/SourceManager.h"
#include <fmt/format.h>

using namespace clang;

namespace ddp {
namespace {

/// Calls beyond this depth of helpers are not looked into.
constexpr unsigned MaxThrowDepth = 3;

/// Keys of the origins made here (Ctx.origin interns per anchor and key).
const char KeyFile = 0, KeyHelper = 0, KeyArgument = 0, KeyThrow = 0;

const FunctionDecl *calleeOf(const Expr *Call) {
  if (const auto *CE = dyn_cast<CallExpr>(Call))
    return CE->getDirectCallee();
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(Call))
    return Construct->getConstructor();
  return nullptr;
}

bool cannotThrow(const FunctionDecl *FD) {
  const auto *Proto = FD->getType()->getAs<FunctionProtoType>();
  return Proto && Proto->isNothrow();
}

/// Library calls that throw when a file is missing or unreadable on this
/// rank's disk: what one node's rank 0 wrote is not on the others'.
bool readsFileOrThrows(const FunctionDecl *FD) {
  std::string Name = FD->getQualifiedNameAsString();
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(FD))
    Name = Ctor->getParent()->getQualifiedNameAsString();
  static const llvm::StringRef Names[] = {
      "torch::load",
      "torch::jit::load",
      "torch::serialize::InputArchive::load_from",
      "std::filesystem::directory_iterator",
      "std::filesystem::recursive_directory_iterator",
      "std::filesystem::file_size",
      "std::filesystem::last_write_time",
      "std::filesystem::is_empty",
      "std::filesystem::canonical",
      "std::filesystem::copy_file"};
  for (llvm::StringRef Known : Names)
    if (Name == Known)
      return true;
  return false;
}

/// The innermost `try` statement whose block holds \p S.
const CXXTryStmt *enclosingTry(const Stmt *S,
                               llvm::ArrayRef<const CXXTryStmt *> Tries,
                               const SourceManager &SM) {
  const CXXTryStmt *Found = nullptr;
  for (const CXXTryStmt *Try : Tries) {
    const Stmt *Block = Try->getTryBlock();
    if (!SM.isPointWithin(S->getBeginLoc(), Block->getBeginLoc(),
                          Block->getEndLoc()))
      continue;
    if (!Found || SM.isPointWithin(Block->getBeginLoc(),
                                   Found->getTryBlock()->getBeginLoc(),
                                   Found->getTryBlock()->getEndLoc()))
      Found = Try;
  }
  return Found;
}

} // namespace

const Origin *FunctionAnalysis::rankLocalThrow(const Expr *Call,
                                               const CFGBlock *B,
                                               unsigned Depth) {
  const FunctionDecl *Callee = calleeOf(Call);
  if (!Callee || cannotThrow(Callee) || Depth > MaxThrowDepth)
    return nullptr;
  if (Callee->getDeclName().isIdentifier() && Callee->getName() == "operator<<")
    return nullptr;
  // Files this rank cannot read.
  if (Ctx.Opts.RankLocalData && readsFileOrThrows(Callee))
    return Ctx.origin(Call, &KeyFile, Call->getBeginLoc(), [&] {
      return fmt::format("'{}' throws when the file is missing or unreadable "
                         "on this rank's file system",
                         Ctx.text(Call));
    }, nullptr, false, false, /*LocalData=*/true);
  // Communication and the other catalogued calls fail on every rank alike.
  if (Ctx.Catalogue.classify(Callee) || Ctx.isLibraryDecl(Callee))
    return nullptr;
  // A helper of this TU that throws on some ranks only.
  if (Ctx.isAnalysable(Callee)) {
    FunctionAnalysis *Inner = const_cast<FunctionAnalysis *>(
        Index.analysisOf(Callee->getDefinition()));
    const Origin *Why = Inner ? Inner->throwsOnSomeRanks(Depth + 1) : nullptr;
    if (!Why)
      return nullptr;
    return Ctx.origin(Call, &KeyHelper, Call->getBeginLoc(), [&] {
      return fmt::format("'{}' can throw on some ranks only",
                         Callee->getNameAsString());
    }, Why, false, false, Why->LocalData);
  }
  // A function whose body is elsewhere, given a rank-dependent argument.
  const Origin *Arg = nullptr;
  if (const auto *CE = dyn_cast<CallExpr>(Call))
    for (const Expr *A : CE->arguments())
      if ((Arg = Ctx.resolve(Uniformity->divergenceAt(B, A))))
        break;
  if (!Arg)
    return nullptr;
  return Ctx.origin(Call, &KeyArgument, Call->getBeginLoc(), [&] {
    return fmt::format("'{}' is given a rank-dependent argument: whether it "
                       "throws can differ between ranks",
                       Ctx.text(Call));
  }, Arg, false, false, Arg->LocalData);
}

const Origin *FunctionAnalysis::throwsOnSomeRanks(unsigned Depth) {
  if (ThrowOrigin)
    return *ThrowOrigin;
  if (!Cfg || ComputingThrows || Depth > MaxThrowDepth)
    return nullptr;
  ComputingThrows = true;
  const SourceManager &SM = Ctx.AST.getSourceManager();
  llvm::SmallVector<const CXXTryStmt *, 2> Tries;
  for (auto It = Cfg->try_blocks_begin(); It != Cfg->try_blocks_end(); ++It)
    if (const auto *Try = dyn_cast_or_null<CXXTryStmt>(
            (*It)->getTerminatorStmt()))
      Tries.push_back(Try);
  const Origin *Found = nullptr;
  for (const CFGBlock *B : Uniformity->order()) {
    for (const CFGElement &Elem : *B) {
      auto S = Elem.getAs<CFGStmt>();
      if (!S)
        continue;
      const Stmt *St = S->getStmt();
      // Caught here, it does not leave the function.
      if (enclosingTry(St, Tries, SM))
        continue;
      if (isa<CXXThrowExpr>(St)) {
        // A rethrow in a handler, or a throw under a rank-dependent test.
        if (const Origin *Why = controllingBranch(St))
          Found = Ctx.origin(St, &KeyThrow, St->getBeginLoc(), [&] {
            return fmt::format("'{}' throws here on some ranks only",
                               FD->getNameAsString());
          }, Why, false, false, Why->LocalData);
      } else if (isa<CallExpr, CXXConstructExpr>(St)) {
        Found = rankLocalThrow(cast<Expr>(St), B, Depth);
      }
      if (Found)
        break;
    }
    if (Found)
      break;
  }
  ComputingThrows = false;
  ThrowOrigin = Found;
  return Found;
}

const SummaryNode *FunctionAnalysis::summarizeAfter(
    const CFGBlock *B, unsigned Element, const CFGBlock *Join,
    llvm::DenseMap<const CFGBlock *, const SummaryNode *> &Memo,
    llvm::DenseMap<const CFGBlock *, bool> &OnStack) {
  SummaryContext &SC = LocatedMode ? Ctx.Located : Ctx.Summaries;
  llvm::SmallVector<const SummaryNode *, 4> Own;
  for (const CallSite &Site : Sites[B->getBlockID()])
    if (Site.Element > Element)
      Own.push_back(leaf(Site));
  if (B == Join)
    return SC.seq(Own);
  llvm::SmallVector<const SummaryNode *, 2> Next;
  bool HasSuccessor = false;
  OnStack[B] = true;
  for (const CFGBlock *Succ : B->succs()) {
    if (!Succ || (isa_and_nonnull<CXXTryStmt>(B->getTerminatorStmt()) &&
                  Succ == &Cfg->getExit()))
      continue;
    HasSuccessor = true;
    if (const SummaryNode *N = summarize(Succ, Join, Memo, OnStack, 1))
      Next.push_back(N);
  }
  OnStack[B] = false;
  if (HasSuccessor && Next.empty())
    return nullptr;
  Own.push_back(SC.choice(Next));
  return SC.seq(Own);
}

void FunctionAnalysis::findHandlerMismatches(std::vector<Finding> &Out,
                                             std::vector<Finding> &Deferred) {
  if (!Cfg || Skipped || Cfg->try_blocks_begin() == Cfg->try_blocks_end())
    return;
  const SourceManager &SM = Ctx.AST.getSourceManager();
  llvm::SmallVector<const CXXTryStmt *, 2> Tries;
  llvm::DenseMap<const CXXTryStmt *, const CFGBlock *> Dispatch;
  for (auto It = Cfg->try_blocks_begin(); It != Cfg->try_blocks_end(); ++It)
    if (const auto *Try =
            dyn_cast_or_null<CXXTryStmt>((*It)->getTerminatorStmt())) {
      Tries.push_back(Try);
      Dispatch[Try] = *It;
    }
  llvm::DenseSet<const CXXTryStmt *> Done;
  for (const CFGBlock *B : Uniformity->order()) {
    unsigned Element = 0;
    for (auto ElemIt = B->begin(); ElemIt != B->end(); ++ElemIt, ++Element) {
      auto S = ElemIt->getAs<CFGStmt>();
      if (!S || !isa<CallExpr, CXXConstructExpr>(S->getStmt()))
        continue;
      const Expr *Call = cast<Expr>(S->getStmt());
      const CXXTryStmt *Try = enclosingTry(Call, Tries, SM);
      if (!Try || Done.contains(Try) || !spend(1))
        continue;
      const Origin *Why = rankLocalThrow(Call, B, 0);
      if (!Why)
        continue;
      // The handlers, and where they meet the rest of the try block again.
      const CFGBlock *TryDispatch = Dispatch.lookup(Try);
      llvm::SmallVector<const CFGBlock *, 2> Handlers;
      for (const CFGBlock *Succ : TryDispatch->succs())
        if (Succ && Succ != &Cfg->getExit())
          Handlers.push_back(Succ);
      if (Handlers.empty())
        continue;
      CFGBlock *Join = const_cast<CFGBlock *>(B);
      for (const CFGBlock *H : Handlers)
        Join = PostDom->getBase().findNearestCommonDominator(
            Join, const_cast<CFGBlock *>(H));
      if (!Join)
        continue;
      llvm::DenseMap<const CFGBlock *, const SummaryNode *> Memo;
      llvm::DenseMap<const CFGBlock *, bool> OnStack;
      llvm::SmallVector<const SummaryNode *, 2> Caught;
      for (const CFGBlock *H : Handlers)
        if (const SummaryNode *N = summarize(H, Join, Memo, OnStack, 0))
          Caught.push_back(N);
      const SummaryNode *Rest = summarizeAfter(B, Element, Join, Memo, OnStack);
      // A handler that rethrows ends the job: nobody waits.
      if (Caught.empty() || !Rest)
        continue;
      const SummaryNode *Thrown = Ctx.Summaries.choice(Caught);
      const SummaryNode *Plain[2] = {Ctx.Summaries.plain(Thrown),
                                     Ctx.Summaries.plain(Rest)};
      if (Plain[0] == Plain[1])
        continue;
      if (Thrown->mayIssueUnknown() || Rest->mayIssueUnknown())
        continue;
      Done.insert(Try);

      Finding F;
      F.Function = FD;
      F.Kind = Finding::Shape::Handler;
      F.Branch = Try;
      F.Condition = Call;
      F.ConditionText = Ctx.text(Call);
      F.Why = Why;
      if (Ctx.ExternalKey) {
        llvm::DenseMap<const CFGBlock *, const SummaryNode *> LocatedMemo;
        llvm::DenseMap<const CFGBlock *, bool> LocatedStack;
        LocatedMode = true;
        llvm::SmallVector<const SummaryNode *, 2> LocatedCaught;
        for (const CFGBlock *H : Handlers)
          if (const SummaryNode *N =
                  summarize(H, Join, LocatedMemo, LocatedStack, 0))
            LocatedCaught.push_back(N);
        const SummaryNode *LocatedRest =
            summarizeAfter(B, Element, Join, LocatedMemo, LocatedStack);
        LocatedMode = false;
        F.Sides.push_back({0, Ctx.Located.choice(LocatedCaught)});
        F.Sides.push_back(
            {1, LocatedRest ? LocatedRest : Ctx.Located.empty()});
      }
      if (Thrown->hasCalls() || Rest->hasCalls()) {
        // What the other TU's functions issue decides: the driver compares.
        Deferred.push_back(std::move(F));
        continue;
      }
      // Where the ranks that throw and the others first differ.
      SummaryDifference Diff = firstDifference(Plain[0], Plain[1]);
      std::vector<const CFGBlock *> HandlerBlocks;
      for (const CFGBlock *H : Handlers)
        for (const CFGBlock *X : region(H, Join))
          HandlerBlocks.push_back(X);
      std::vector<const CFGBlock *> RestBlocks;
      for (const CFGBlock *Succ : B->succs())
        if (Succ && Succ != Join)
          for (const CFGBlock *X : region(Succ, Join))
            RestBlocks.push_back(X);
      auto InRest = [&](llvm::StringRef Op) -> const CallSite * {
        for (const CallSite &Site : Sites[B->getBlockID()])
          if (Site.Element > Element && Site.Summary->mayIssue(Op))
            return &Site;
        return siteIssuing(RestBlocks, Op, 0);
      };
      const CallSite *InHandler =
          Diff.Left ? siteIssuing(HandlerBlocks, Diff.Left->firstOp(), 0)
                    : nullptr;
      const CallSite *Instead =
          Diff.Right ? InRest(Diff.Right->firstOp()) : nullptr;
      const CallSite *Primary = InHandler ? InHandler : Instead;
      if (!Primary)
        continue;
      F.SiteOnTrueSide = Primary == InHandler;
      F.Op = (F.SiteOnTrueSide ? Diff.Left : Diff.Right)->firstOp().str();
      if (llvm::any_of(Out, [&](const Finding &Other) {
            return Other.Site == Primary->Call;
          }))
        continue;
      F.Site = Primary->Call;
      F.IsBarrier = Ctx.Summaries.isBarrier(F.Op);
      if (Primary->Callee) {
        F.Via = calleeName(Primary->Call, Primary->Callee);
        explainChain(*Primary, F.Op, F.Chain);
      }
      if (InHandler && Instead) {
        F.OtherSite = Instead->Call;
        F.OtherOp = Diff.Right->firstOp().str();
      }
      Out.push_back(std::move(F));
    }
  }
}

} // namespace ddp
