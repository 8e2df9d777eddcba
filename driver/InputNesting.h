//===--- InputNesting.h - A nesting bound for JSON and YAML -----*- C++ -*-===//
//
// LLVM's JSON and YAML parsers recurse once per level of nesting, so a file
// of a few thousand '[' overflows the stack. Every file ddp-lint reads is
// shallow (a compile database nests three levels, a summary file five, a
// .clang-tidy file four), so deeper input is an error that names the line,
// never a crash.
//
//===----------------------------------------------------------------------===//

#ifndef DDP_DRIVER_INPUTNESTING_H
#define DDP_DRIVER_INPUTNESTING_H

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

namespace ddp::driver {

/// The deepest nesting ddp-lint accepts in a file it reads.
constexpr unsigned MaxInputNesting = 128;

/// An error if \p Text nests JSON arrays and objects (outside strings) deeper
/// than MaxInputNesting; it names the line where the bound is crossed.
llvm::Error checkJSONNesting(llvm::StringRef Text);

/// The same for YAML, counting flow collections ('[', '{') and, as an upper
/// bound of block nesting, a line's indentation and its compact indicators
/// ("- - x", "a: b: c").
llvm::Error checkYAMLNesting(llvm::StringRef Text);

/// llvm::json::parse, after checkJSONNesting.
llvm::Expected<llvm::json::Value> parseBoundedJSON(llvm::StringRef Text);

} // namespace ddp::driver

#endif // DDP_DRIVER_INPUTNESTING_H
