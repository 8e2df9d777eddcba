//===--- DebugSettingsCheck.h - ddp-debug-settings ------------------------===//

#ifndef DDP_CHECKS_DEBUGSETTINGSCHECK_H
#define DDP_CHECKS_DEBUGSETTINGSCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "core/AnalysisOptions.h"

namespace clang::tidy::ddp {

/// Finds settings that are right for debugging a hang and wrong in
/// production, hard-coded: short collective or store timeouts, blocking wait
/// together with async error handling, and NCCL or c10d debug logging forced
/// on.
///
/// For the user-facing documentation see:
/// docs/checks/debug-settings.rst
class DebugSettingsCheck : public ClangTidyCheck {
public:
  DebugSettingsCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  ::ddp::AnalysisOptions Analysis;
  /// Timeouts below this many seconds are reported; 0 turns it off.
  unsigned MinTimeoutSeconds;
  bool BlockingWaitWithAsyncErrorHandling;
  bool DebugLogging;
  /// Nothing is reported in a GoogleTest program, which sets what it tests.
  bool IgnoreTestPrograms;
};

} // namespace clang::tidy::ddp

#endif // DDP_CHECKS_DEBUGSETTINGSCHECK_H
