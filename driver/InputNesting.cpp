//===--- InputNesting.cpp - A nesting bound for JSON and YAML -------------===//

#include "InputNesting.h"

namespace ddp::driver {

static llvm::Error tooDeep(unsigned Line) {
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      "[line %u] nested deeper than %u levels", Line,
      MaxInputNesting);
}

/// Scans \p Text for nesting outside quoted strings. \p Quotes are the
/// characters that open a string; with \p Block, a line's indentation and its
/// compact block indicators count as nesting too (YAML).
static llvm::Error checkNesting(llvm::StringRef Text, llvm::StringRef Quotes,
                                bool Block) {
  unsigned Flow = 0, Line = 1, LineDepth = 0;
  // At the start of a line, or after a block indicator and spaces: where a
  // "- " opens a further level.
  bool AtLineStart = true, AfterIndicator = true, Escaped = false;
  char Quote = 0;
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    if (C == '\n') {
      ++Line;
      AtLineStart = AfterIndicator = true;
      LineDepth = 0;
      continue;
    }
    if (Quote) {
      if (Escaped)
        Escaped = false;
      else if (C == '\\' && Quote == '"')
        Escaped = true;
      else if (C == Quote)
        Quote = 0;
      continue;
    }
    // In YAML a quote opens a string and '#' a comment only where a token
    // starts ("don't" is a plain word).
    bool TokenStart = !Block || I == 0 || llvm::StringRef(" \t[{,").contains(Text[I - 1]);
    if (Block && C == '#' && TokenStart) {
      while (I + 1 < Text.size() && Text[I + 1] != '\n')
        ++I;
      continue;
    }
    bool Indicator = false;
    if (Block) {
      bool FollowedBySpace = I + 1 == Text.size() || Text[I + 1] == ' ';
      if (C == ' ')
        Indicator = AtLineStart; // Each column of indentation may nest.
      else if ((C == '-' || C == '?') && AfterIndicator && FollowedBySpace)
        Indicator = true;
      else if (C == ':' && FollowedBySpace)
        Indicator = true;
      if (C != ' ') {
        AtLineStart = false;
        AfterIndicator = Indicator;
      }
    }
    if (Quotes.contains(C) && TokenStart)
      Quote = C;
    else if (C == '[' || C == '{')
      ++Flow;
    else if ((C == ']' || C == '}') && Flow > 0)
      --Flow;
    if (Indicator)
      ++LineDepth;
    if (Flow + LineDepth > MaxInputNesting)
      return tooDeep(Line);
  }
  return llvm::Error::success();
}

llvm::Error checkJSONNesting(llvm::StringRef Text) {
  return checkNesting(Text, "\"", /*Block=*/false);
}

llvm::Error checkYAMLNesting(llvm::StringRef Text) {
  return checkNesting(Text, "\"'", /*Block=*/true);
}

llvm::Expected<llvm::json::Value> parseBoundedJSON(llvm::StringRef Text) {
  if (llvm::Error Err = checkJSONNesting(Text))
    return std::move(Err);
  return llvm::json::parse(Text);
}

} // namespace ddp::driver
