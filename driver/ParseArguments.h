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

/// The error limit every parse gets, before the command's own flags (which
/// can set another): none. Clang stops parsing at its limit (20 errors by
/// default), and everything after the twentieth error in the TU would be
/// lost; a header written for another compiler or release reaches it
/// easily (NCCL's device headers under Clang's CUDA mode do).
inline constexpr const char *NoErrorLimit = "-ferror-limit=0";

/// Adds to \p Tool what the driver adds to \p Command's own flags: no error
/// limit, Clang's resource directory (unless the command names one) and no
/// caret diagnostics.
void appendParseAdjusters(clang::tooling::ClangTool &Tool,
                          const clang::tooling::CompileCommand &Command);

} // namespace ddp::driver

#endif // DDP_DRIVER_PARSEARGUMENTS_H
