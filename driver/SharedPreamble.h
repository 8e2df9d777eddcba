//===--- SharedPreamble.h - One precompiled header for TUs that share it --===//
//
// Most TUs of a project parse the same headers first (a LibTorch TU spends
// nearly all of its parse in <torch/torch.h>). TUs whose flags are the same
// and whose leading #include block starts with the same headers are parsed
// against one precompiled header of that common prefix, built once in the
// cache directory. The prefix is exactly the TUs' leading includes, with
// nothing before or between them, each header guarded against a second
// inclusion: a TU that re-reads these directives after loading the PCH sees
// what its own parse would have seen at the end of the block.
//
//===----------------------------------------------------------------------===//

#ifndef DDP_DRIVER_SHAREDPREAMBLE_H
#define DDP_DRIVER_SHAREDPREAMBLE_H

#include "SummaryFile.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"
#include <optional>
#include <string>
#include <vector>

namespace ddp::driver {

/// TUs that can share one precompiled preamble.
struct PreambleGroup {
  /// Names the group's files in the preamble directory: a hash of the tool's
  /// and LLVM's versions, the working directory, the flags and the first
  /// #include, which all its TUs share.
  std::string Key;
  std::string Directory;
  /// The members' common flags, argv[0] first, without the source file and
  /// the outputs.
  std::vector<std::string> Arguments;
  /// "c++-header" or "c-header".
  std::string Language;
  /// The common leading directives, as the precompiled header spells them:
  /// `<vector>`, `"common/setup.h"`, or an absolute path for a header the
  /// members find beside themselves.
  std::vector<std::string> Includes;
  /// Indices of the members in the planned commands.
  std::vector<size_t> Members;
};

struct PreamblePlan {
  std::vector<PreambleGroup> Groups;
  /// Per command: its group's index, or -1.
  std::vector<int> GroupOf;
  /// Per command without a group: why (for --verbose).
  std::vector<std::string> Why;
};

/// Groups the TUs of \p Commands that can share a preamble. \p Dir is where
/// the preambles are kept (a quoted include must not be found there).
PreamblePlan
planPreambles(const std::vector<clang::tooling::CompileCommand> &Commands,
              llvm::StringRef Dir);

/// A group's precompiled preamble, as built or found valid on disk.
struct Preamble {
  std::string PCHPath;
  /// The directives it holds: the group's, or the part of them before the
  /// first header that could be included twice.
  std::vector<std::string> Includes;
  /// The headers it read: a TU parsed against it depends on them too.
  std::vector<Dependency> Dependencies;
  /// Why it cannot be used (a header did not compile, the first header has
  /// no include guard); empty if it can.
  std::string Error;
  /// Found valid on disk rather than built by this run.
  bool Reused = false;
  double Seconds = 0;

  bool usable() const { return Error.empty() && !PCHPath.empty(); }
  /// What a member's parse adds to its flags to load it.
  clang::tooling::ArgumentsAdjuster parseAdjuster() const;
  /// Adds the preamble's headers to \p TUDependencies (what a parse against
  /// it read), without the preamble's own files.
  void addDependencies(std::vector<Dependency> &TUDependencies) const;
};

/// What the preamble directory records beside a PCH (`<stem>.json`).
struct PreambleRecord {
  /// The group's key: its flags and first #include.
  std::string Key;
  /// The directives it was built for, and those it holds (fewer when one
  /// of them has no include guard).
  std::vector<std::string> Planned, Includes;
  /// Why it could not be built; empty if it was.
  std::string Error;
  /// The PCH file itself (its size and modification time).
  std::optional<Dependency> PCH;
  /// Every file it was built from.
  std::vector<Dependency> Dependencies;
};

/// Parses a record; the error says what is wrong.
llvm::Expected<PreambleRecord> preambleRecordFromJSON(llvm::StringRef Text);
std::string toJSON(const PreambleRecord &R);

/// The preamble of \p G in \p Dir: one there whose directives begin the
/// group's (its own, or one built for more TUs) if every file it was built
/// from is unchanged (size and modification time, or content), else built
/// now and recorded beside it. Never fails: a preamble that cannot be built
/// says why in Error.
Preamble obtainPreamble(const PreambleGroup &G, llvm::StringRef Dir);

/// For a TU that shares a preamble with no other TU of this run: the one an
/// earlier run built for TUs with its flags and first #include, if it is
/// still valid and holds only directives the TU starts with. Never builds.
std::optional<Preamble>
existingPreamble(const clang::tooling::CompileCommand &Command,
                 llvm::StringRef Dir);

} // namespace ddp::driver

#endif // DDP_DRIVER_SHAREDPREAMBLE_H
