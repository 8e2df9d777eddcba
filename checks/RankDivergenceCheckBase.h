//===--- RankDivergenceCheckBase.h - Shared by the rank-divergence checks -===//
//
// ddp-collective-in-rank-branch and ddp-rank-gated-barrier report two halves
// of one analysis: collectives that only some ranks execute. This base class
// runs the analysis core on the translation unit, reads the options both
// checks share, and writes the diagnostics; each check decides which findings
// are its own, so the two never report the same call.
//
//===----------------------------------------------------------------------===//

#ifndef DDP_CHECKS_RANKDIVERGENCECHECKBASE_H
#define DDP_CHECKS_RANKDIVERGENCECHECKBASE_H

#include "clang-tidy/ClangTidyCheck.h"
#include "core/AnalysisOptions.h"
#include "core/Finding.h"

namespace ddp {
class TranslationUnitAnalysis;
} // namespace ddp

namespace clang::tidy::ddp {

class RankDivergenceCheckBase : public ClangTidyCheck {
public:
  RankDivergenceCheckBase(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;

protected:
  /// True if \p F belongs to this check. Loops over data (a data loader,
  /// a strided share) go to ddp-sampler-drop-last when it is enabled.
  virtual bool owns(const ::ddp::Finding &F) const = 0;
  /// True for the check that reports loops over data.
  virtual bool reportsDataLoops() const { return false; }
  /// The warning for \p F at \p Loc; the default words it by its shape.
  virtual DiagnosticBuilder warn(const ::ddp::Finding &F, SourceLocation Loc);
  /// Rules of the check beyond the findings, on the analysed TU.
  virtual void checkMore(::ddp::TranslationUnitAnalysis &TU,
                         ASTContext &Context) {}
  /// The options of the analysis core, as read from CheckOptions.
  const ::ddp::AnalysisOptions &analysisOptions() const { return Analysis; }
  /// Fix-its for the warning of \p F, if a safe one exists.
  virtual std::vector<FixItHint> fixes(const ::ddp::Finding &F,
                                       ASTContext &Context) {
    return {};
  }
  /// Adds the check's own advice to the warning of \p F, as notes.
  virtual void advise(const ::ddp::Finding &F, bool Fixed,
                      ASTContext &Context) = 0;

  /// Notes for the chain of \p Why, back to where the rank (or the local
  /// data) comes from.
  void noteWhy(const ::ddp::Origin *Why);

  /// "'barrier'" or "'barrier' in 'save_and_sync'".
  static std::string subject(const ::ddp::Finding &F);

private:
  void report(const ::ddp::Finding &F, ASTContext &Context);
  /// True if this check says which functions ran out of the analysis
  /// budget: the first enabled of the checks that share the analysis, so
  /// that each is said once.
  bool reportsSkips() const;
  void reportSkipped(const ::ddp::TranslationUnitAnalysis &TU);
  void explain(const ::ddp::Finding &F);

  ::ddp::AnalysisOptions Analysis;
  ClangTidyContext *TidyContext;
};

} // namespace clang::tidy::ddp

#endif // DDP_CHECKS_RANKDIVERGENCECHECKBASE_H
