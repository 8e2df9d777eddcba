//===--- Configuration.h - The checks' options, read for the driver -------===//

#ifndef DDP_DRIVER_CONFIGURATION_H
#define DDP_DRIVER_CONFIGURATION_H

#include "core/AnalysisOptions.h"
#include "llvm/Support/Error.h"
#include <memory>

namespace clang::tidy {
class ClangTidyOptionsProvider;
}

namespace ddp::driver {

/// Reads the CheckOptions of the ddp checks from the .clang-tidy files that
/// apply to a source file, as clang-tidy does: an option set for either
/// check (ddp-collective-in-rank-branch.Collectives) or globally
/// (Collectives).
class Configuration {
public:
  /// \p ConfigFile, if not empty, replaces the .clang-tidy search.
  static llvm::Expected<Configuration> create(llvm::StringRef ConfigFile);
  /// The configuration in \p Text (YAML, as in .clang-tidy), the contents
  /// of \p Name.
  static llvm::Expected<Configuration> fromText(llvm::StringRef Text,
                                                llvm::StringRef Name);
  Configuration(Configuration &&);
  ~Configuration();

  /// The options for \p File; the error names the file and the option.
  llvm::Expected<AnalysisOptions> optionsFor(llvm::StringRef File) const;

private:
  Configuration() = default;
  std::unique_ptr<clang::tidy::ClangTidyOptionsProvider> Provider;
};

} // namespace ddp::driver

#endif // DDP_DRIVER_CONFIGURATION_H
