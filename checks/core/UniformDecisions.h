//===--- UniformDecisions.h - Choices every rank makes alike --------------===//
//
// A branch or loop whose test does not depend on the rank has the same
// outcome on every rank that evaluates it. Summaries record such a choice as
// a decision: a Choice node named by the test (per function, by its text), so
// that two sides of a rank-dependent branch that both contain it can be
// compared for each of its outcomes rather than for the union of them.
//
// `if (rank == 0 && step % k == 0) { evaluate(); continue; }` followed by a
// loop over the parameters that allreduces each: as sets of sequences both
// sides are "nothing, or some allreduces" (the loop may run zero times). But
// the parameter list has the same length on every rank: when it is not
// empty, rank 0 issues nothing and the others issue allreduces.
//
// The comparison fixes one decision at a time (every node of that name takes
// the same alternative) and compares the sides' sets of sequences with the
// other decisions left free. If those sets differ, some outcome of all the
// decisions makes the sides differ, so a difference found is a real one as
// long as the decisions' outcomes are independent. Tests written the same
// way in one function count as one decision; so do a range-for over a range
// and a test of that range's `empty()` or `size()`.
//
//===----------------------------------------------------------------------===//

#ifndef DDP_CORE_UNIFORMDECISIONS_H
#define DDP_CORE_UNIFORMDECISIONS_H

#include "core/CollectiveSummary.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include <optional>
#include <string>
#include <vector>

namespace clang {
class CFGBlock;
class Expr;
class FunctionDecl;
class ParentMap;
} // namespace clang

namespace ddp {

class AnalysisContext;

/// The decision a block's terminator makes, named for summaries.
struct DecisionName {
  /// "<function>#<test>": equal for tests that have the same value.
  std::string Key;
  /// The block's successors, in the decision's canonical order: the order
  /// is reversed for a negated test (`!done`, `v.empty()`), so that `if (v.
  /// empty())` and `for (x : v)` line up.
  bool Reversed = false;
  /// For a loop's test: 1 + the canonical index of the body; else 0.
  unsigned LoopBody = 0;
};

/// What a decision tests, for the note that names it.
struct DecisionInfo {
  const clang::Expr *Shown = nullptr;
  std::string Text;
  /// What each canonical alternative means ("not empty", "true", ...).
  std::vector<std::string> Values;
};

/// The decisions named in one translation unit, by key.
class DecisionTable {
public:
  /// Names the decision \p B (a block of \p FD with two or more successors
  /// whose test does not depend on the rank) makes, or nothing if it makes
  /// none the comparison can use (a try's dispatch, a computed goto).
  /// \p Parents: the parent map of \p FD's body.
  std::optional<DecisionName> name(const clang::CFGBlock *B,
                                   const clang::FunctionDecl *FD,
                                   const clang::ParentMap &Parents,
                                   AnalysisContext &Ctx);
  const DecisionInfo *info(llvm::StringRef Key) const {
    auto It = Infos.find(Key);
    return It == Infos.end() ? nullptr : &It->second;
  }

private:
  llvm::StringMap<DecisionInfo> Infos;
};

/// The explanation of a finding made for one outcome of a uniform test:
/// "'net->parameters()' is the same on every rank; when it is not empty, the
/// ranks issue different collectives".
std::string explainOutcome(llvm::StringRef Text, llvm::StringRef Value);

/// A decision and one of its outcomes for which the sides differ.
struct DecisionSplit {
  std::string Key;
  unsigned Alternative = 0;
  /// Each side with that outcome fixed, as a plain summary.
  llvm::SmallVector<const SummaryNode *, 4> Sides;
};

/// For sides whose plain summaries are all equal: a decision that more than
/// one side contains and an outcome of it for which the sides' plain
/// summaries differ, or nothing. \p Spend is given the steps taken and
/// returns false to stop (the function's budget).
std::optional<DecisionSplit>
splitOnDecision(SummaryContext &SC,
                llvm::ArrayRef<const SummaryNode *> Sides,
                llvm::function_ref<bool(uint64_t)> Spend);

} // namespace ddp

#endif // DDP_CORE_UNIFORMDECISIONS_H
