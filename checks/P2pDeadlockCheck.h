//===--- P2pDeadlockCheck.h - ddp-p2p-deadlock ----------------------------===//

#ifndef DDP_CHECKS_P2PDEADLOCKCHECK_H
#define DDP_CHECKS_P2PDEADLOCKCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "core/AnalysisContext.h"
#include "core/AnalysisOptions.h"

namespace clang::tidy::ddp {

/// Finds point-to-point exchanges in which every rank waits in a receive
/// before it sends: `pg->recv(in, partner, tag)->wait(); pg->send(out,
/// partner, tag)->wait();` run by both partners deadlocks, and so do the
/// arms of `if (rank == 0) { recv from 1; send; } else if (rank == 1) {
/// recv from 0; send; }`.
///
/// For the user-facing documentation see:
/// docs/checks/p2p-deadlock.rst
class P2pDeadlockCheck : public ClangTidyCheck {
public:
  P2pDeadlockCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  void report(const FunctionDecl *FD, ::ddp::AnalysisContext &Context,
              llvm::function_ref<bool(const Expr *)> IsRank);
  ::ddp::AnalysisOptions Analysis;
};

} // namespace clang::tidy::ddp

#endif // DDP_CHECKS_P2PDEADLOCKCHECK_H
