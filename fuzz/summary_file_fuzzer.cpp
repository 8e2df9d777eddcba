//===--- summary_file_fuzzer.cpp - Fuzz the per-TU summary reader ---------===//
//
// Summary files come from the cache directory or from build actions on other
// machines: any bytes must give a summary or an error, never a crash. A
// summary that reads must also write and read back.
//
//===----------------------------------------------------------------------===//

#include "SummaryFile.h"
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  auto Summary = ddp::driver::summaryFromJSON(Text);
  if (!Summary) {
    llvm::consumeError(Summary.takeError());
    return 0;
  }
  std::string Written = ddp::driver::toJSON(*Summary);
  auto Again = ddp::driver::summaryFromJSON(Written);
  if (!Again) {
    llvm::consumeError(Again.takeError());
    std::abort(); // What the writer writes, the reader must read.
  }
  if (ddp::driver::toJSON(*Again) != Written)
    std::abort();
  return 0;
}
