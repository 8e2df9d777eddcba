//===--- SummaryCache.h - Phase 1 results kept between runs ---------------===//
//
// A TU is not parsed again when its command, the options, the facts it was
// analysed with and every file it read are unchanged. Entries are summary
// files named by a hash of the first three; the files are checked by size
// and modification time, and by content hash when those differ (a checkout
// that touched a file without changing it).
//
//===----------------------------------------------------------------------===//

#ifndef DDP_DRIVER_SUMMARYCACHE_H
#define DDP_DRIVER_SUMMARYCACHE_H

#include "SummaryFile.h"
#include "core/AnalysisOptions.h"
#include "clang/Tooling/CompilationDatabase.h"
#include <optional>

namespace clang {
class SourceManager;
}

namespace ddp::driver {

/// The key of a TU's analysis: tool version, command, options and imports.
std::string analysisKey(const clang::tooling::CompileCommand &Command,
                        const AnalysisOptions &Opts,
                        const std::vector<FactRecord> &Imports);

/// Every file the TU read, with what identifies its content.
std::vector<Dependency> dependenciesOf(clang::SourceManager &SM);

/// True if \p D still has the content it had: the same size, and the same
/// modification time or content hash.
bool isUnchanged(const Dependency &D);

class SummaryCache {
public:
  /// An empty directory disables the cache.
  explicit SummaryCache(std::string Directory)
      : Directory(std::move(Directory)) {}

  bool enabled() const { return !Directory.empty(); }
  /// Creates the directory; the error names it.
  llvm::Error prepare() const;
  std::optional<TUSummary> lookup(llvm::StringRef Key) const;
  /// Stores \p S under its key. Failures only cost a later parse.
  void store(const TUSummary &S) const;

private:
  std::string pathOf(llvm::StringRef Key) const;
  std::string Directory;
};

} // namespace ddp::driver

#endif // DDP_DRIVER_SUMMARYCACHE_H
