//===--- UnusedParametersCheck.h - ddp-unused-parameters ------------------===//

#ifndef DDP_CHECKS_UNUSEDPARAMETERSCHECK_H
#define DDP_CHECKS_UNUSEDPARAMETERSCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "core/AnalysisOptions.h"

namespace clang::tidy::ddp {

/// Finds modules synchronised with find_unused_parameters off (a
/// c10d::Reducer, or a DDP-like wrapper) whose forward uses a registered
/// submodule or parameter only on some paths, or never: the reduction waits
/// for gradients that never come.
///
/// For the user-facing documentation see:
/// docs/checks/unused-parameters.rst
class UnusedParametersCheck : public ClangTidyCheck {
public:
  UnusedParametersCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  ::ddp::AnalysisOptions Analysis;
};

} // namespace clang::tidy::ddp

#endif // DDP_CHECKS_UNUSEDPARAMETERSCHECK_H
