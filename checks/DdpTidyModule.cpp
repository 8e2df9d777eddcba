//===--- DdpTidyModule.cpp - The ddp clang-tidy module --------------------===//

#include "DdpTidyModule.h"
#include "CollectiveInRankBranchCheck.h"
#include "DebugSettingsCheck.h"
#include "ForwardOutsideNoSyncCheck.h"
#include "P2pDeadlockCheck.h"
#include "RankGatedBarrierCheck.h"
#include "RendezvousConfigCheck.h"
#include "SamplerDropLastCheck.h"
#include "UnusedParametersCheck.h"
#include "llvm/Support/Registry.h"

namespace clang::tidy::ddp {

void DdpModule::addCheckFactories(ClangTidyCheckFactories &CheckFactories) {
  CheckFactories.registerCheck<CollectiveInRankBranchCheck>(
      "ddp-collective-in-rank-branch");
  CheckFactories.registerCheck<DebugSettingsCheck>("ddp-debug-settings");
  CheckFactories.registerCheck<ForwardOutsideNoSyncCheck>(
      "ddp-forward-outside-no-sync");
  CheckFactories.registerCheck<P2pDeadlockCheck>("ddp-p2p-deadlock");
  CheckFactories.registerCheck<RankGatedBarrierCheck>("ddp-rank-gated-barrier");
  CheckFactories.registerCheck<RendezvousConfigCheck>("ddp-rendezvous-config");
  CheckFactories.registerCheck<SamplerDropLastCheck>("ddp-sampler-drop-last");
  CheckFactories.registerCheck<UnusedParametersCheck>("ddp-unused-parameters");
}

void registerDdpModule() {
  // llvm::Registry<ClangTidyModule> is ClangTidyModuleRegistry in every
  // release; the alias moved headers in LLVM 22.
  static llvm::Registry<ClangTidyModule>::Add<DdpModule> Registration(
      "ddp-module", "Checks for distributed-training hangs.");
}

} // namespace clang::tidy::ddp
