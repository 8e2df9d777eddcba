//===--- baseline_fuzzer.cpp - Fuzz the baseline reader -------------------===//
//
// --baseline files are checked into repositories and edited by hand: any
// bytes must give a baseline or a one-line error, never a crash.
//
//===----------------------------------------------------------------------===//

#include "Baseline.h"
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  auto B = ddp::driver::Baseline::parse(Text, "fuzz.json");
  if (!B) {
    std::string Message = llvm::toString(B.takeError());
    if (Message.find("baseline 'fuzz.json': ") != 0)
      std::abort(); // Every error names the file.
  }
  return 0;
}
