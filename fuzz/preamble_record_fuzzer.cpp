//===--- preamble_record_fuzzer.cpp - Fuzz the preamble record reader -----===//
//
// A preamble's record comes from the cache directory, which other runs and
// other machines write: any bytes must give a record or an error, never a
// crash. A record that reads must also write and read back.
//
//===----------------------------------------------------------------------===//

#include "SharedPreamble.h"
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  auto Record = ddp::driver::preambleRecordFromJSON(Text);
  if (!Record) {
    llvm::consumeError(Record.takeError());
    return 0;
  }
  std::string Written = ddp::driver::toJSON(*Record);
  auto Again = ddp::driver::preambleRecordFromJSON(Written);
  if (!Again) {
    llvm::consumeError(Again.takeError());
    std::abort(); // What the writer writes, the reader must read.
  }
  if (ddp::driver::toJSON(*Again) != Written)
    std::abort();
  return 0;
}
