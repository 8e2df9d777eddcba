//===--- compile_database_fuzzer.cpp - Fuzz compile_commands.json ---------===//
//
// ddp-lint reads compile_commands.json as clang-tidy does (syntax detected,
// response files expanded, commands inferred for unlisted files). Any bytes
// must give a database or an error naming the file, and every command of a
// database must be readable.
//
//===----------------------------------------------------------------------===//

#include "CompileDatabase.h"
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  auto Database =
      ddp::driver::compileDatabaseFromText(Text, "compile_commands.json");
  if (!Database) {
    std::string Message = llvm::toString(Database.takeError());
    if (Message.find("'compile_commands.json'") != 0)
      std::abort(); // Every error names the file.
    return 0;
  }
  for (const std::string &File : (*Database)->getAllFiles())
    for (const auto &Command : (*Database)->getCompileCommands(File))
      (void)Command.CommandLine.size();
  // A header the database does not list gets a command inferred.
  (void)(*Database)->getCompileCommands("/fuzz/include/header.h");
  return 0;
}
