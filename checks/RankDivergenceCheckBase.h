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

namespace clang::tidy::ddp {

class RankDivergenceCheckBase : public ClangTidyCheck {
public:
  RankDivergenceCheckBase(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;

protected:
  /// True if \p F belongs to this check.
  virtual bool owns(const ::ddp::Finding &F) const = 0;
  /// Fix-its for the warning of \p F, if a safe one exists.
  virtual std::vector<FixItHint> fixes(const ::ddp::Finding &F,
                                       ASTContext &Context) {
    return {};
  }
  /// Adds the check's own advice to the warning of \p F, as notes.
  virtual void advise(const ::ddp::Finding &F, bool Fixed,
                      ASTContext &Context) = 0;

  /// "'barrier'" or "'barrier' in 'save_and_sync'".
  static std::string subject(const ::ddp::Finding &F);

private:
  void report(const ::ddp::Finding &F, ASTContext &Context);
  void explain(const ::ddp::Finding &F);

  ::ddp::AnalysisOptions Analysis;
  ClangTidyContext *TidyContext;
};

} // namespace clang::tidy::ddp

#endif // DDP_CHECKS_RANKDIVERGENCECHECKBASE_H
