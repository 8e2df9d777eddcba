//===--- DdpClangTidyMain.cpp - clang-tidy with the ddp checks built in ---===//
//
// The complete clang-tidy of this LLVM release (every standard module) plus
// the ddp checks, for tools that cannot pass --load.
//
//===----------------------------------------------------------------------===//

#include "DdpTidyModule.h"
#include "clang-tidy/tool/ClangTidyMain.h"

namespace clang::tidy {
int ddpModuleAnchors();
} // namespace clang::tidy

int main(int argc, const char **argv) {
  // Referenced so that the linker keeps clang-tidy's own modules.
  static volatile int Anchors = clang::tidy::ddpModuleAnchors();
  (void)Anchors;
  clang::tidy::ddp::registerDdpModule();
  return clang::tidy::clangTidyMain(argc, argv);
}
