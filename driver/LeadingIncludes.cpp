//===--- LeadingIncludes.cpp - The #include block a source file starts with
//===//

#include "LeadingIncludes.h"
#include "llvm/ADT/StringExtras.h"

namespace ddp::driver {
namespace {

/// Reads \p Text from the front, one lexical piece at a time. Every method
/// returns false when what is there is not what it wants, leaving the
/// position where the failing piece starts.
class Scanner {
public:
  explicit Scanner(llvm::StringRef Text) : Rest(Text) {
    Rest.consume_front("\xEF\xBB\xBF"); // a UTF-8 byte order mark
  }

  bool atEnd() const { return Rest.empty(); }

  /// Skips blank lines and comments between directives.
  bool skipSpaceAndComments() {
    while (!Rest.empty()) {
      if (llvm::isSpace(Rest.front())) {
        Rest = Rest.drop_front();
      } else if (Rest.starts_with("//")) {
        if (!skipLineComment())
          return false;
      } else if (Rest.starts_with("/*")) {
        size_t End = Rest.find("*/", 2);
        if (End == llvm::StringRef::npos)
          return false;
        Rest = Rest.drop_front(End + 2);
      } else {
        break;
      }
    }
    return true;
  }

  /// `#`, blanks, then \p Word.
  bool directive(llvm::StringRef Word) {
    llvm::StringRef Save = Rest;
    if (!Rest.consume_front("#"))
      return false;
    skipBlanks();
    size_t Len = 0;
    while (Len < Rest.size() && (llvm::isAlnum(Rest[Len]) || Rest[Len] == '_'))
      ++Len;
    if (Rest.take_front(Len) != Word) {
      Rest = Save;
      return false;
    }
    Rest = Rest.drop_front(Len);
    return true;
  }

  /// "name" or <name> on this line.
  bool headerName(LeadingInclude &Out) {
    skipBlanks();
    if (Rest.empty() || (Rest.front() != '"' && Rest.front() != '<'))
      return false;
    Out.Angled = Rest.front() == '<';
    char Close = Out.Angled ? '>' : '"';
    size_t End =
        Rest.find_first_of(llvm::StringRef("\n\\\0", 3).str() + Close, 1);
    if (End == llvm::StringRef::npos || Rest[End] != Close || End == 1)
      return false;
    Out.Name = Rest.substr(1, End - 1).str();
    Rest = Rest.drop_front(End + 1);
    return true;
  }

  /// The end of a directive's line: blanks and comments that stay on it.
  bool endOfLine() {
    while (true) {
      skipBlanks();
      if (Rest.starts_with("/*")) {
        size_t End = Rest.find("*/", 2);
        if (End == llvm::StringRef::npos || Rest.take_front(End).contains('\n'))
          return false;
        Rest = Rest.drop_front(End + 2);
        continue;
      }
      if (Rest.starts_with("//"))
        return skipLineComment();
      if (Rest.empty())
        return true;
      if (Rest.consume_front("\r\n") || Rest.consume_front("\n"))
        return true;
      return false;
    }
  }

private:
  void skipBlanks() {
    Rest = Rest.drop_while([](char C) { return C == ' ' || C == '\t'; });
  }

  /// A // comment up to its newline; false if a backslash continues it.
  bool skipLineComment() {
    size_t End = Rest.find('\n');
    llvm::StringRef Line = Rest.take_front(End).rtrim(" \t\r");
    if (Line.ends_with("\\"))
      return false;
    Rest = End == llvm::StringRef::npos ? llvm::StringRef()
                                        : Rest.drop_front(End + 1);
    return true;
  }

  llvm::StringRef Rest;
};

} // namespace

std::vector<LeadingInclude> leadingIncludes(llvm::StringRef Text) {
  std::vector<LeadingInclude> Out;
  Scanner S(Text);
  while (S.skipSpaceAndComments() && !S.atEnd()) {
    LeadingInclude Include;
    if (!S.directive("include") || !S.headerName(Include) || !S.endOfLine())
      break;
    Out.push_back(std::move(Include));
  }
  return Out;
}

} // namespace ddp::driver
