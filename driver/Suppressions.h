//===--- Suppressions.h - NOLINT comments, as clang-tidy reads them -------===//

#ifndef DDP_DRIVER_SUPPRESSIONS_H
#define DDP_DRIVER_SUPPRESSIONS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace ddp::driver {

/// Answers whether a finding on a line is suppressed by NOLINT (on the
/// line), NOLINTNEXTLINE (on the line before) or a NOLINTBEGIN/NOLINTEND
/// region, with no check list or a list that names one of \p Names (globs
/// such as ddp-* allowed). Files are read once.
class Suppressions {
public:
  bool suppressed(llvm::StringRef File, unsigned Line,
                  llvm::ArrayRef<std::string> Names);

private:
  const std::vector<std::string> &lines(llvm::StringRef File);
  llvm::StringMap<std::vector<std::string>> Files;
};

} // namespace ddp::driver

#endif // DDP_DRIVER_SUPPRESSIONS_H
