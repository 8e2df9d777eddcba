//===--- TUParser.h - Parse one TU and summarise it -----------------------===//

#ifndef DDP_DRIVER_TUPARSER_H
#define DDP_DRIVER_TUPARSER_H

#include "SummaryFile.h"
#include "core/AnalysisOptions.h"
#include "clang/Tooling/CompilationDatabase.h"

namespace ddp::driver {

/// Parses \p Command's file and runs phase 1 on it. A TU that does not
/// parse gets a summary with Error set ("a.cpp:3:5: unknown type name 'x'
/// (and 2 more errors)") and nothing else.
TUSummary parseAndSummarize(const clang::tooling::CompileCommand &Command,
                            const AnalysisOptions &Opts,
                            const std::vector<FactRecord> &Imports);

} // namespace ddp::driver

#endif // DDP_DRIVER_TUPARSER_H
