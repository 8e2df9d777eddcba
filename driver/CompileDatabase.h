//===--- CompileDatabase.h - Reading compile_commands.json ----------------===//

#ifndef DDP_DRIVER_COMPILEDATABASE_H
#define DDP_DRIVER_COMPILEDATABASE_H

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/Error.h"
#include <memory>

namespace ddp::driver {

/// The compile database in \p Text (the contents of \p Name), read as
/// clang-tidy reads compile_commands.json: the command-line syntax detected,
/// response files expanded, and files the database does not list (headers)
/// given the command of a similar one. The error names \p Name.
llvm::Expected<std::unique_ptr<clang::tooling::CompilationDatabase>>
compileDatabaseFromText(llvm::StringRef Text, llvm::StringRef Name);

/// The same for the file \p Path.
llvm::Expected<std::unique_ptr<clang::tooling::CompilationDatabase>>
readCompileDatabase(llvm::StringRef Path);

} // namespace ddp::driver

#endif // DDP_DRIVER_COMPILEDATABASE_H
