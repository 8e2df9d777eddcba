//===--- RendezvousConfigCheck.h - ddp-rendezvous-config ------------------===//

#ifndef DDP_CHECKS_RENDEZVOUSCONFIGCHECK_H
#define DDP_CHECKS_RENDEZVOUSCONFIGCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "core/AnalysisOptions.h"

namespace ddp {
class TranslationUnitAnalysis;
struct ProcessGroupSetup;
struct Origin;
} // namespace ddp

namespace clang::tidy::ddp {

/// Finds process-group set-up on which the ranks cannot rendezvous: a
/// TCPStore hosted by every rank or by none, store and process group built
/// for different world sizes, store addresses that depend on the rank,
/// environment variables no launcher sets, and process groups that only some
/// ranks create.
///
/// For the user-facing documentation see:
/// docs/checks/rendezvous-config.rst
class RendezvousConfigCheck : public ClangTidyCheck {
public:
  RendezvousConfigCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  void checkServers(::ddp::TranslationUnitAnalysis &TU,
                    const ::ddp::ProcessGroupSetup &Setup);
  void checkWorldSizes(::ddp::TranslationUnitAnalysis &TU,
                       const ::ddp::ProcessGroupSetup &Setup);
  void checkStoreAddresses(::ddp::TranslationUnitAnalysis &TU,
                           const ::ddp::ProcessGroupSetup &Setup);
  void checkEnvironment(const ::ddp::ProcessGroupSetup &Setup);
  void checkCreations(::ddp::TranslationUnitAnalysis &TU,
                      const ::ddp::ProcessGroupSetup &Setup);
  /// Notes for the chain of \p Why, back to the rank's source.
  void noteWhy(const ::ddp::Origin *Why);

  ::ddp::AnalysisOptions Analysis;
  /// The programs run under torchrun with its agent store: every rank is a
  /// client, the agent hosts the store.
  bool AgentStore;
  /// Environment variables of the user's launcher, beyond torchrun's, MPI's
  /// and Slurm's.
  std::string KnownEnvVars;
};

} // namespace clang::tidy::ddp

#endif // DDP_CHECKS_RENDEZVOUSCONFIGCHECK_H
