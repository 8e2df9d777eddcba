//===--- DdpClangdMain.cpp - clangd with the ddp checks built in ----------===//
//
// clangd runs clang-tidy checks in the editor but cannot load clang-tidy
// plugins, so this is the clangd of this LLVM release with the ddp checks
// registered before its main runs. Its clang-tidy modules are those of the
// release's clangd (no static analyzer checks).
//
//===----------------------------------------------------------------------===//

#include "DdpTidyModule.h"

namespace clang::clangd {
// Defined in clangd's libclangdMain; Debian ships no header for it.
int clangdMain(int argc, char *argv[]);
} // namespace clang::clangd

namespace clang::tidy {
int ddpClangdModuleAnchors();
} // namespace clang::tidy

int main(int argc, char *argv[]) {
  // Referenced so that the linker keeps clangd's clang-tidy modules.
  static volatile int Anchors = clang::tidy::ddpClangdModuleAnchors();
  (void)Anchors;
  // Before clangdMain: clangd lists the registered checks once, when it first
  // needs them (to validate a check name in a .clangd file).
  clang::tidy::ddp::registerDdpModule();
  return clang::clangd::clangdMain(argc, argv);
}
