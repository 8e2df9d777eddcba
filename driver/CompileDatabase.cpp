//===--- CompileDatabase.cpp - Reading compile_commands.json --------------===//

#include "CompileDatabase.h"
#include "InputNesting.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"

namespace ddp::driver {

llvm::Expected<std::unique_ptr<clang::tooling::CompilationDatabase>>
compileDatabaseFromText(llvm::StringRef Text, llvm::StringRef Name) {
  // Clang reads the database with its YAML parser, which recurses without
  // bound; every compile database is JSON, so JSON (bounded) is checked first.
  if (llvm::Expected<llvm::json::Value> JSON = parseBoundedJSON(Text); !JSON)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(), "'%s' is not a valid compile database: %s",
        Name.str().c_str(), llvm::toString(JSON.takeError()).c_str());
  std::string Error;
  std::unique_ptr<clang::tooling::CompilationDatabase> Database =
      clang::tooling::JSONCompilationDatabase::loadFromBuffer(
          Text, Error, clang::tooling::JSONCommandLineSyntax::AutoDetect);
  if (!Database)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(), "'%s' is not a valid compile database: %s",
        Name.str().c_str(),
        llvm::StringRef(Error).trim().split('\n').first.str().c_str());
  // As clang-tidy reads it: response files expanded, and files the database
  // does not list (headers) get the command of a similar one.
  return clang::tooling::inferMissingCompileCommands(
      clang::tooling::expandResponseFiles(std::move(Database),
                                          llvm::vfs::getRealFileSystem()));
}

llvm::Expected<std::unique_ptr<clang::tooling::CompilationDatabase>>
readCompileDatabase(llvm::StringRef Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return llvm::createStringError(Buffer.getError(), "cannot read '%s': %s",
                                   Path.str().c_str(),
                                   Buffer.getError().message().c_str());
  return compileDatabaseFromText((*Buffer)->getBuffer(), Path);
}

} // namespace ddp::driver
