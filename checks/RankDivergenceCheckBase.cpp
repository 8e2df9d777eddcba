//===--- RankDivergenceCheckBase.cpp - Shared by the rank-divergence checks===//

#include "RankDivergenceCheckBase.h"
#include "AnalysisOptionsIO.h"
#include "core/CollectiveCatalogue.h"
#include "core/DataLoading.h"
#include "core/TranslationUnitAnalysis.h"
#include "core/UniformDecisions.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include <fmt/format.h>

using namespace clang::ast_matchers;

namespace clang::tidy::ddp {

RankDivergenceCheckBase::RankDivergenceCheckBase(StringRef Name,
                                                 ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context), TidyContext(Context) {
  // Both checks read the same settings: set once as global options
  // (CheckOptions: {Collectives: 'MyComm::sync'}), or per check.
  Analysis = readAnalysisOptions(*this, Options);
}

void RankDivergenceCheckBase::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  storeAnalysisOptions(Options, Opts, Analysis);
}

void RankDivergenceCheckBase::registerMatchers(MatchFinder *Finder) {
  // The analysis walks the user's functions itself; one match per TU.
  Finder->addMatcher(translationUnitDecl().bind("tu"), this);
}

void RankDivergenceCheckBase::check(const MatchFinder::MatchResult &Result) {
  ::ddp::TranslationUnitAnalysis TU(*Result.Context, Analysis);
  TU.run();
  // A call of a helper that issues a barrier and another collective can
  // carry a finding of each kind. Only one check reports a call: the barrier
  // check leaves it to ddp-collective-in-rank-branch when that is enabled.
  llvm::DenseSet<const Expr *> CollectiveSites;
  if (TidyContext->isCheckEnabled("ddp-collective-in-rank-branch"))
    for (const ::ddp::Finding &F : TU.findings())
      if (!F.IsBarrier)
        CollectiveSites.insert(F.Site);
  // Communicators created by some ranks only are rendezvous problems:
  // ddp-rendezvous-config reports them when it is enabled.
  bool Rendezvous = TidyContext->isCheckEnabled("ddp-rendezvous-config");
  // Loops over data are ddp-sampler-drop-last's when it is enabled.
  bool DataLoops = TidyContext->isCheckEnabled("ddp-sampler-drop-last");
  llvm::DenseSet<const Expr *> Reported;
  for (const ::ddp::Finding &F : TU.findings()) {
    if (!owns(F))
      continue;
    if (DataLoops && !reportsDataLoops() && ::ddp::data::isDataLoop(F))
      continue;
    if (reportsDataLoops() && !Reported.insert(F.Site).second)
      continue;
    if (F.IsBarrier && CollectiveSites.contains(F.Site))
      continue;
    if (Rendezvous && ::ddp::createsCommunicator(F.Op))
      continue;
    report(F, *Result.Context);
  }
  if (reportsSkips())
    reportSkipped(TU);
  checkMore(TU, *Result.Context);
}

bool RankDivergenceCheckBase::reportsSkips() const {
  for (StringRef Name : {"ddp-collective-in-rank-branch",
                         "ddp-rank-gated-barrier", "ddp-sampler-drop-last"})
    if (TidyContext->isCheckEnabled(Name))
      return Name == getID();
  return false;
}

void RankDivergenceCheckBase::reportSkipped(
    const ::ddp::TranslationUnitAnalysis &TU) {
  // A remark, not a warning: the code is not known to be wrong, and
  // --warnings-as-errors should not fail on it.
  for (const ::ddp::FunctionAnalysis *FA : TU.skipped())
    diag(FA->decl()->getLocation(),
         "the ddp analysis of %0 was skipped: it needs more than %1 steps "
         "(option AnalysisBudget) for its %2 rank-dependent branches, so "
         "its collectives are not checked",
         DiagnosticIDs::Remark)
        << FA->decl() << Analysis.AnalysisBudget
        << FA->divergentBranchCount();
}

std::string RankDivergenceCheckBase::subject(const ::ddp::Finding &F) {
  if (F.Via.empty())
    return fmt::format("'{}'", F.Op);
  return fmt::format("'{}' in '{}'", F.Op, F.Via);
}

void RankDivergenceCheckBase::report(const ::ddp::Finding &F,
                                     ASTContext &Context) {
  SourceLocation Loc = ::ddp::calledNameLoc(F.Site);
  std::vector<FixItHint> Fixes = fixes(F, Context);
  {
    DiagnosticBuilder D = warn(F, Loc);
    for (const FixItHint &Fix : Fixes)
      D << Fix;
  }
  explain(F);
  advise(F, !Fixes.empty(), Context);
}

DiagnosticBuilder RankDivergenceCheckBase::warn(const ::ddp::Finding &F,
                                                SourceLocation Loc) {
  using Shape = ::ddp::Finding::Shape;
  DiagnosticBuilder D = [&] {
    switch (F.Kind) {
    case Shape::Loop:
      return diag(Loc, "%0 is called a rank-dependent number of times: the "
                       "%select{loop condition|range of the loop}2 '%1' "
                       "depends on %select{the rank|data local to each "
                       "rank}3");
    case Shape::Switch:
      return diag(Loc, "%0 is reached only by ranks that take this case of "
                       "the switch on '%1'");
    case Shape::Handler:
      if (F.SiteOnTrueSide)
        return diag(Loc, "%0 in a 'catch' handler is reached only by ranks "
                         "where '%1' throws");
      return diag(Loc, "%0 is skipped by ranks where '%1' throws");
    case Shape::UnevenList:
      return diag(Loc, "%0 can get a different number of tensors on each "
                       "rank: '%2' changes length under a condition that "
                       "depends on %select{the rank|data local to each "
                       "rank}3");
    case Shape::Branch:
      break;
    }
    if (F.EarlyExit.isValid())
      return diag(Loc, "%0 is skipped by ranks that leave early when "
                       "'%1'%select{ is false|}2");
    return diag(Loc, "%0 is reached only by ranks where '%1'%select{ is "
                     "false|}2");
  }();
  D << subject(F) << F.ConditionText;
  if (F.Kind == Shape::Branch)
    D << (F.EarlyExit.isValid() ? !F.SiteOnTrueSide : F.SiteOnTrueSide);
  if (F.Kind == Shape::Loop)
    D << F.OverRange << (F.Why && F.Why->LocalData);
  if (F.Kind == Shape::UnevenList)
    D << F.ListText << (F.Why && F.Why->LocalData);
  return D;
}

void RankDivergenceCheckBase::noteWhy(const ::ddp::Origin *Why) {
  // Where the rank dependence comes from, back to its source. A long chain
  // keeps its first links (what the condition reads) and its last two (the
  // source): the middle becomes one note at its first link, so the source is
  // never cut off.
  constexpr size_t Head = 6, Tail = 2;
  llvm::DenseSet<const ::ddp::Origin *> Seen;
  llvm::SmallVector<const ::ddp::Origin *, 16> Links;
  for (const ::ddp::Origin *O = Why; O && Seen.insert(O).second; O = O->Cause)
    if (O->Loc.isValid())
      Links.push_back(O);
  // The text quotes source code, which may hold '%': pass it as an
  // argument, never as the format.
  for (size_t I = 0; I < Links.size(); ++I) {
    if (Links.size() > Head + Tail + 1 && I == Head) {
      diag(Links[I]->Loc, "%0 more steps from here lead to the source",
           DiagnosticIDs::Note)
          << static_cast<unsigned>(Links.size() - Head - Tail);
      I = Links.size() - Tail - 1;
      continue;
    }
    diag(Links[I]->Loc, "%0", DiagnosticIDs::Note) << Links[I]->Message;
  }
}

void RankDivergenceCheckBase::explain(const ::ddp::Finding &F) {
  using Shape = ::ddp::Finding::Shape;
  if (F.Condition && F.Kind == Shape::Handler)
    diag(F.Condition->getBeginLoc(),
         "whether this call throws depends on %select{the rank|data local to "
         "each rank}0",
         DiagnosticIDs::Note)
        << (F.Why && F.Why->LocalData);
  else if (F.Condition)
    diag(F.Condition->getBeginLoc(),
         "%select{this condition|this loop condition|the length of this "
         "range}0 depends on %select{the rank|data local to each rank}1",
         DiagnosticIDs::Note)
        << (F.Kind != Shape::Loop ? 0
            : F.OverRange         ? 2
                                  : 1)
        << (F.Why && F.Why->LocalData);
  noteWhy(F.Why);
  if (F.EarlyExit.isValid())
    diag(F.EarlyExit,
         "ranks where '%0'%select{ is false|}1 leave here "
         "(%2) and never reach '%3'",
         DiagnosticIDs::Note)
        << F.ConditionText << !F.SiteOnTrueSide << F.EarlyExitKind << F.Op;
  if (F.OtherSite)
    diag(::ddp::calledNameLoc(F.OtherSite),
         "the other ranks call '%0' here instead", DiagnosticIDs::Note)
        << F.OtherOp;
  for (const ::ddp::CallStep &Step : F.Chain)
    diag(Step.Loc, "'%0' calls '%1' here", DiagnosticIDs::Note)
        << Step.Caller << Step.Callee;
  if (F.ByNameLoc.isValid())
    diag(F.ByNameLoc, "%0", DiagnosticIDs::Note) << F.ByNameNote;
  if (F.Kind == Shape::Handler)
    diag(F.Site->getExprLoc(),
         "catch the error where it happens, then agree on the outcome (an "
         "allreduce of a failure flag) so that every rank takes the same "
         "path",
         DiagnosticIDs::Note);
  if (F.ListChange) {
    diag(F.ListChange->getBeginLoc(),
         "'%0' changes length here only on ranks where '%1'",
         DiagnosticIDs::Note)
        << F.ListText << F.ListConditionText;
    if (F.ListOfGradients)
      diag(F.Site->getExprLoc(),
           "a parameter that this rank's forward pass did not use has no "
           "gradient: give every parameter one on every rank (zeros where "
           "it is undefined), as DistributedDataParallel does with "
           "find_unused_parameters, so that every rank passes the same list",
           DiagnosticIDs::Note);
    else
      diag(F.Site->getExprLoc(),
           "fill '%0' the same way on every rank, or agree on its length "
           "(an allreduce of it) before the collective",
           DiagnosticIDs::Note)
          << F.ListText;
  }
  if (F.Uniform)
    diag(F.Uniform->getBeginLoc(), "%0", DiagnosticIDs::Note)
        << ::ddp::explainOutcome(F.UniformText, F.UniformValue);
}

} // namespace clang::tidy::ddp
