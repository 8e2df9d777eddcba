//===--- LeadingIncludes.h - The #include block a source file starts with -===//

#ifndef DDP_DRIVER_LEADINGINCLUDES_H
#define DDP_DRIVER_LEADINGINCLUDES_H

#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace ddp::driver {

/// One `#include` directive of a file's leading block.
struct LeadingInclude {
  /// The name between the delimiters.
  std::string Name;
  bool Angled = false;
  /// The directive as a precompiled header would spell it: <Name> or "Name".
  std::string spelling() const {
    return Angled ? "<" + Name + ">" : "\"" + Name + "\"";
  }
};

/// The `#include` directives \p Text starts with, in order: only blank lines
/// and comments may come before and between them. Anything else ends the
/// block (code, any other directive, `#include MACRO`, `#include_next`, a
/// line continuation, a comment that runs onto the next line); a directive
/// followed by anything but a comment on its line is not part of it. What a
/// precompiled header of these directives holds is exactly what the file's
/// own parse has seen when it reaches the end of the block.
std::vector<LeadingInclude> leadingIncludes(llvm::StringRef Text);

} // namespace ddp::driver

#endif // DDP_DRIVER_LEADINGINCLUDES_H
