//===--- ParseArguments.cpp - The flags every parse of a TU gets ----------===//

#include "ParseArguments.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"

namespace ddp::driver {

#ifndef DDP_CLANG_RESOURCE_DIR
#define DDP_CLANG_RESOURCE_DIR ""
#endif

void appendParseAdjusters(clang::tooling::ClangTool &Tool,
                          const clang::tooling::CompileCommand &Command) {
  using namespace clang::tooling;
  Tool.appendArgumentsAdjuster(
      getInsertArgumentAdjuster(NoErrorLimit, ArgumentInsertPosition::BEGIN));
  // Built outside the LLVM tree, the tool would look for Clang's own headers
  // (stddef.h, ...) beside itself: point it at the release's.
  llvm::StringRef ResourceDir = DDP_CLANG_RESOURCE_DIR;
  bool HasResourceDir = llvm::any_of(Command.CommandLine, [](const auto &A) {
    return llvm::StringRef(A).starts_with("-resource-dir");
  });
  if (!ResourceDir.empty() && !HasResourceDir)
    Tool.appendArgumentsAdjuster(getInsertArgumentAdjuster(
        ("-resource-dir=" + ResourceDir).str().c_str(),
        ArgumentInsertPosition::END));
  // No "N errors generated." on stderr: the driver reports the TU itself.
  Tool.appendArgumentsAdjuster(getInsertArgumentAdjuster(
      "-fno-caret-diagnostics", ArgumentInsertPosition::END));
}

} // namespace ddp::driver
