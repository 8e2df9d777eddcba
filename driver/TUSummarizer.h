//===--- TUSummarizer.h - Phase 1: one TU's analysis, as a summary --------===//

#ifndef DDP_DRIVER_TUSUMMARIZER_H
#define DDP_DRIVER_TUSUMMARIZER_H

#include "SummaryFile.h"
#include "core/AnalysisOptions.h"

namespace clang {
class ASTContext;
}

namespace ddp::driver {

/// Runs the analysis core on the parsed TU \p AST in driver mode, seeded with
/// the facts \p Imports from other TUs, and records what it found. Leaves
/// MainFile, Key and Dependencies to the caller.
TUSummary summarizeTU(clang::ASTContext &AST, const AnalysisOptions &Opts,
                      const std::vector<FactRecord> &Imports);

} // namespace ddp::driver

#endif // DDP_DRIVER_TUSUMMARIZER_H
