//===--- Reporters.h - Text, JSON, SARIF and GitHub output ----------------===//

#ifndef DDP_DRIVER_REPORTERS_H
#define DDP_DRIVER_REPORTERS_H

#include "Diagnostic.h"
#include "llvm/Support/raw_ostream.h"

namespace ddp::driver {

/// A TU that could not be analysed.
struct InputError {
  std::string File;
  std::string Message;
};

/// A TU with compile errors, analysed as far as it compiled.
struct IncompleteTU {
  std::string File;
  unsigned Errors = 0;
  std::string FirstError;
  Location FirstErrorAt;
  /// Its functions that were not analysed (all reasons).
  unsigned FunctionsSkipped = 0;
};

struct Run {
  std::vector<Diagnostic> Findings;
  std::vector<InputError> Errors;
  std::vector<IncompleteTU> Incomplete;
  /// --fail-on-compile-errors: a TU with compile errors is an error, not a
  /// remark.
  bool CompileErrorsFail = false;
  /// Functions skipped for the analysis budget or for compile errors.
  std::vector<SkippedRecord> Skipped;
  /// Findings left out because the baseline holds them.
  unsigned Baselined = 0;
  unsigned Suppressed = 0;
  unsigned TranslationUnits = 0;
  /// Phase 1 runs that parsed a TU, and those the cache answered.
  unsigned Parsed = 0;
  unsigned Cached = 0;
  /// Absolute directory that SARIF and GitHub paths are relative to.
  std::string SourceRoot;
};

/// "train.cpp" for a file under the root, else the absolute path.
std::string relativePath(llvm::StringRef File, llvm::StringRef Root);

/// "the analysis of 'f' was skipped: ...", for every reporter.
std::string skippedMessage(const SkippedRecord &S);
/// "3 compile errors (the first: ...); ...", for every reporter.
std::string incompleteMessage(const IncompleteTU &T, const Run &R);

void writeText(llvm::raw_ostream &OS, const Run &R, bool Colors);
void writeJSON(llvm::raw_ostream &OS, const Run &R);
void writeSARIF(llvm::raw_ostream &OS, const Run &R);
void writeGitHub(llvm::raw_ostream &OS, const Run &R);

} // namespace ddp::driver

#endif // DDP_DRIVER_REPORTERS_H
