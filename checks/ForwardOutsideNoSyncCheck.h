//===--- ForwardOutsideNoSyncCheck.h - ddp-forward-outside-no-sync --------===//

#ifndef DDP_CHECKS_FORWARDOUTSIDENOSYNCCHECK_H
#define DDP_CHECKS_FORWARDOUTSIDENOSYNCCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "core/AnalysisOptions.h"

namespace ddp {
struct ExtraForward;
struct SyncedAccumulation;
} // namespace ddp

namespace clang::tidy::ddp {

/// Finds a synchronised module (a DDP-like wrapper, or a module whose
/// parameters a c10d::Reducer reduces) run forward more than once before one
/// synchronising backward, outside its no-sync guard; and gradient
/// accumulation that synchronises every micro-step.
///
/// For the user-facing documentation see:
/// docs/checks/forward-outside-no-sync.rst
class ForwardOutsideNoSyncCheck : public ClangTidyCheck {
public:
  ForwardOutsideNoSyncCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  void report(const ::ddp::ExtraForward &F);
  void report(const ::ddp::SyncedAccumulation &A);

  ::ddp::AnalysisOptions Analysis;
  /// Report gradient accumulation that synchronises every micro-step (not a
  /// hang: wasted bandwidth).
  bool GradientAccumulation;
};

} // namespace clang::tidy::ddp

#endif // DDP_CHECKS_FORWARDOUTSIDENOSYNCCHECK_H
