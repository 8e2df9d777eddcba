//===--- ParseArguments.h - The flags every parse of a TU gets ------------===//
//
// A TU and the precompiled preamble it is parsed against must be compiled
// with the same options, or Clang refuses the preamble: both go through
// these adjusters.
//
//===----------------------------------------------------------------------===//

#ifndef DDP_DRIVER_PARSEARGUMENTS_H
#define DDP_DRIVER_PARSEARGUMENTS_H

#include "clang/Tooling/CompilationDatabase.h"

namespace clang::tooling {
class ClangTool;
}

namespace ddp::driver {

/// Adds to \p Tool what the driver adds to \p Command's own flags: Clang's
/// resource directory (unless the command names one) and no caret
/// diagnostics.
void appendParseAdjusters(clang::tooling::ClangTool &Tool,
                          const clang::tooling::CompileCommand &Command);

} // namespace ddp::driver

#endif // DDP_DRIVER_PARSEARGUMENTS_H
