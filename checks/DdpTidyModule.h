//===--- DdpTidyModule.h - The ddp clang-tidy module ----------------------===//

#ifndef DDP_CHECKS_DDPTIDYMODULE_H
#define DDP_CHECKS_DDPTIDYMODULE_H

#include "clang-tidy/ClangTidyModule.h"

namespace clang::tidy::ddp {

/// Checks that find distributed-training hangs: collectives that only some
/// ranks execute.
class DdpModule : public ClangTidyModule {
public:
  void addCheckFactories(ClangTidyCheckFactories &CheckFactories) override;
};

/// Registers the module with clang-tidy's registry, once.
void registerDdpModule();

} // namespace clang::tidy::ddp

#endif // DDP_CHECKS_DDPTIDYMODULE_H
