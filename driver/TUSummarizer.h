//===--- TUSummarizer.h - Phase 1: one TU's analysis, as a summary --------===//

#ifndef DDP_DRIVER_TUSUMMARIZER_H
#define DDP_DRIVER_TUSUMMARIZER_H

#include "SummaryFile.h"
#include "core/AnalysisOptions.h"
#include <memory>

namespace clang {
class ASTContext;
}

namespace ddp::driver {

/// The analysis core run on one parsed TU in driver mode, seeded with the
/// facts of other TUs. It is kept with its TU between the rounds of
/// cross-TU facts: a later round that only adds facts gives it the new ones,
/// and the TU's analysis then runs again only on the functions that looked
/// up a fact that changed (RankFacts::changedSince).
class TUAnalysis {
public:
  TUAnalysis(clang::ASTContext &AST, const AnalysisOptions &Opts);
  ~TUAnalysis();

  /// Whether \p Imports only add to the facts given so far, so that going on
  /// finds what a new analysis would: no fact given before is missing, no
  /// summary lost a dependence it had, and no new summary is of a function
  /// whose result the analysis guessed without one.
  bool extends(const std::vector<FactRecord> &Imports);
  /// Analyses with \p Imports and records what it found. Leaves MainFile,
  /// Key and Dependencies to the caller.
  TUSummary summarize(const std::vector<FactRecord> &Imports);
  /// About the memory it holds, in bytes.
  size_t memoryBytes() const;

private:
  struct State;
  clang::ASTContext &AST;
  const AnalysisOptions &Opts;
  std::unique_ptr<State> S;
};

} // namespace ddp::driver

#endif // DDP_DRIVER_TUSUMMARIZER_H
