//===--- Baseline.h - Findings a team has accepted for now ----------------===//

#ifndef DDP_DRIVER_BASELINE_H
#define DDP_DRIVER_BASELINE_H

#include "Diagnostic.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"

namespace ddp::driver {

/// The fingerprints of recorded findings. A fingerprint leaves out line
/// numbers, so an entry holds while unrelated edits move the code.
class Baseline {
public:
  static llvm::Expected<Baseline> read(llvm::StringRef Path);
  /// The baseline in \p Text, the contents of \p Path.
  static llvm::Expected<Baseline> parse(llvm::StringRef Text,
                                        llvm::StringRef Path);
  static llvm::Error write(llvm::StringRef Path,
                           const std::vector<Diagnostic> &Findings,
                           llvm::StringRef SourceRoot);
  bool contains(const Diagnostic &D) const {
    return Fingerprints.contains(D.Fingerprint);
  }

private:
  llvm::StringSet<> Fingerprints;
};

} // namespace ddp::driver

#endif // DDP_DRIVER_BASELINE_H
