//===--- DdpClangTidyMain.cpp - clang-tidy with the ddp checks built in ---===//
//
// The complete clang-tidy of this LLVM release (every standard module) plus
// the ddp checks, for tools that cannot pass --load.
//
//===----------------------------------------------------------------------===//

#include "DdpTidyModule.h"
#include "clang-tidy/tool/ClangTidyMain.h"
#include <vector>

namespace clang::tidy {
int ddpModuleAnchors();
} // namespace clang::tidy

int main(int argc, const char **argv) {
  // Referenced so that the linker keeps clang-tidy's own modules.
  static volatile int Anchors = clang::tidy::ddpModuleAnchors();
  (void)Anchors;
  clang::tidy::ddp::registerDdpModule();
  // No error limit (an --extra-arg of the user's comes later and wins):
  // Clang stops parsing at its twentieth error, and the checks would see
  // nothing of the TU after it.
  std::vector<const char *> Args(argv, argv + argc + 1); // With argv's null.
  if (argc > 1)
    Args.insert(Args.begin() + 1, "--extra-arg-before=-ferror-limit=0");
  return clang::tidy::clangTidyMain(static_cast<int>(Args.size()) - 1,
                                    Args.data());
}
