//===--- Diagnostic.h - One finding of the whole-program driver -----------===//

#ifndef DDP_DRIVER_DIAGNOSTIC_H
#define DDP_DRIVER_DIAGNOSTIC_H

#include "SummaryFile.h"
#include <optional>
#include <string>
#include <vector>

namespace ddp::driver {

struct Note {
  Location At;
  std::string Message;
};

/// What one side of a rank-dependent branch issues, rendered.
struct SideText {
  std::string Label; ///< "when true"
  std::string Text;  ///< "allreduce (a.cpp:4:3) -> barrier (b.cpp:9:5, via save)"
};

struct Diagnostic {
  /// Stable rule id: ddp-collective-order, or ddp-rank-dependent-loop.
  std::string Rule;
  /// The clang-tidy check that reports the same cause (for NOLINT).
  std::string Check;
  std::string Message;
  /// The rank-dependent condition.
  Location At;
  /// The first collective (or call) where the sides differ.
  Location Site;
  std::string Function;
  /// Why the condition depends on the rank, back to the source.
  std::vector<Note> Why;
  std::vector<SideText> Sides;
  /// Where the ranks on one side leave early, if they do.
  std::optional<Note> EarlyExit;
  /// The collective's call did not compile and was matched by name.
  std::optional<Note> ByName;
  /// The collectives of the sides.
  std::vector<Note> Related;
  /// Where the sides differ only for one outcome of a test that is the same
  /// on every rank: that test.
  std::optional<Note> Uniform;
  /// Every location worth showing beside the finding: the collectives of
  /// the sides, then the early exit, the uniform test and the call matched
  /// by name.
  std::vector<Note> related() const {
    std::vector<Note> All = Related;
    if (EarlyExit)
      All.push_back(*EarlyExit);
    if (Uniform)
      All.push_back(*Uniform);
    if (ByName)
      All.push_back(*ByName);
    return All;
  }
  /// Identifies the finding across edits that move lines: hashes what it
  /// says (rule, file, function, condition, sides) but no line numbers.
  std::string Fingerprint;
};

} // namespace ddp::driver

#endif // DDP_DRIVER_DIAGNOSTIC_H
