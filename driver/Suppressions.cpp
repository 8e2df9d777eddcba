//===--- Suppressions.cpp - NOLINT comments, as clang-tidy reads them -----===//

#include "Suppressions.h"
#include "core/OptionList.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/MemoryBuffer.h"

namespace ddp::driver {

/// True if the directive \p Kind ("NOLINT", "NOLINTNEXTLINE", ...) appears in
/// \p Line and applies to one of \p Names.
static bool directive(llvm::StringRef Line, llvm::StringRef Kind,
                      llvm::ArrayRef<std::string> Names) {
  for (size_t Pos = Line.find(Kind); Pos != llvm::StringRef::npos;
       Pos = Line.find(Kind, Pos + 1)) {
    llvm::StringRef Rest = Line.substr(Pos + Kind.size());
    // NOLINT must not be the start of NOLINTNEXTLINE or NOLINTBEGIN.
    if (!Rest.empty() && (isalnum(Rest[0]) || Rest[0] == '_'))
      continue;
    if (!Rest.starts_with("("))
      return true; // Every check.
    llvm::StringRef List = Rest.drop_front().split(')').first;
    for (llvm::StringRef Pattern : splitList(List)) {
      auto Glob = llvm::GlobPattern::create(Pattern);
      if (!Glob) {
        llvm::consumeError(Glob.takeError());
        continue;
      }
      for (const std::string &Name : Names)
        if (Glob->match(Name))
          return true;
    }
  }
  return false;
}

const std::vector<std::string> &Suppressions::lines(llvm::StringRef File) {
  auto [It, New] = Files.try_emplace(File);
  if (New)
    if (auto Buffer = llvm::MemoryBuffer::getFile(File)) {
      llvm::StringRef Text = (*Buffer)->getBuffer();
      while (!Text.empty()) {
        auto [Line, Rest] = Text.split('\n');
        It->second.push_back(Line.str());
        Text = Rest;
      }
    }
  return It->second;
}

bool Suppressions::suppressed(llvm::StringRef File, unsigned Line,
                              llvm::ArrayRef<std::string> Names) {
  const std::vector<std::string> &Lines = lines(File);
  if (Line == 0 || Line > Lines.size())
    return false;
  if (directive(Lines[Line - 1], "NOLINT", Names))
    return true;
  if (Line >= 2 && directive(Lines[Line - 2], "NOLINTNEXTLINE", Names))
    return true;
  // Inside a NOLINTBEGIN ... NOLINTEND region that names the check.
  int Depth = 0;
  for (unsigned I = 0; I + 1 < Line; ++I) {
    if (directive(Lines[I], "NOLINTBEGIN", Names))
      ++Depth;
    if (directive(Lines[I], "NOLINTEND", Names) && Depth > 0)
      --Depth;
  }
  return Depth > 0;
}

} // namespace ddp::driver
