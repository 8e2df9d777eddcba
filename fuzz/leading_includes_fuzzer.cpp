//===--- leading_includes_fuzzer.cpp - Fuzz the leading #include scanner --===//
//
// ddp-lint reads the #include block every source file of a compile database
// starts with, to choose the TUs that share a preamble: any bytes must give a
// list, never a crash. The directives it finds, written out one per line,
// must read back as the same list.
//
//===----------------------------------------------------------------------===//

#include "LeadingIncludes.h"
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  std::vector<ddp::driver::LeadingInclude> Found =
      ddp::driver::leadingIncludes(Text);
  std::string Written;
  for (const ddp::driver::LeadingInclude &I : Found) {
    if (I.Name.empty() || llvm::StringRef(I.Name).contains('\n'))
      std::abort();
    Written += "#include " + I.spelling() + "\n";
  }
  std::vector<ddp::driver::LeadingInclude> Again =
      ddp::driver::leadingIncludes(Written);
  if (Again.size() != Found.size())
    std::abort();
  for (size_t K = 0; K < Found.size(); ++K)
    if (Again[K].Name != Found[K].Name || Again[K].Angled != Found[K].Angled)
      std::abort();
  return 0;
}
