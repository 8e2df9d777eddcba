//===--- SummaryFile.h - What phase 1 learns about one translation unit ---===//
//
// The per-TU summary that phase 1 writes and phase 2 links: the located
// collective summaries of the TU's functions (calls by USR), its rank-
// dependent branches (decided here, or deferred to the link because their
// sides call other TUs), the rank-dependence facts it exports to other TUs,
// and the files it read (for the cache). Stored as versioned JSON.
//
//===----------------------------------------------------------------------===//

#ifndef DDP_DRIVER_SUMMARYFILE_H
#define DDP_DRIVER_SUMMARYFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <cstdint>
#include <string>
#include <vector>

namespace ddp::driver {

/// The format's name and version; a reader rejects anything else.
inline constexpr llvm::StringLiteral SummaryFormat = "ddp-lint-summary";
inline constexpr unsigned SummaryVersion = 8;

/// A place in a source file (absolute path); Line 0 means none.
struct Location {
  std::string File;
  unsigned Line = 0;
  unsigned Column = 0;
  bool valid() const { return Line != 0; }
  bool operator==(const Location &O) const {
    return File == O.File && Line == O.Line && Column == O.Column;
  }
};

/// One link of an explanation: "'rank' is set from 'pg->getRank()'" there.
/// A step without a location stands for links left out of a long chain.
struct Step {
  Location At;
  std::string Message;
};

/// Explanations longer than this are shortened: their first links (what the
/// condition reads) and last links (the source of the rank) are kept, the
/// middle becomes one step "... N more steps ...".
inline constexpr size_t MaxChainSteps = 10;

/// \p Chain, shortened to at most MaxChainSteps steps. Steps that already
/// stand for left-out links (from another TU's chain) count as many.
std::vector<Step> shortenChain(std::vector<Step> Chain);

/// A node of a located summary. Kids index the TU's node table.
struct NodeRecord {
  enum class Kind { Empty, Op, Seq, Choice, LoopBack, Call };
  Kind K = Kind::Empty;
  /// Op: the collective; Call: the callee's USR, or for a virtual call
  /// "dispatch:" and the USR of the method the static type names; Choice:
  /// the uniform decision it is made by (a key of TUSummary::Decisions), or
  /// empty.
  std::string Name;
  Location At;
  std::vector<unsigned> Kids;
  /// A decision that is a loop's test: 1 + the index of the body's kid.
  unsigned LoopBody = 0;
};

/// A test with the same outcome on every rank, that choices are made by
/// (core/UniformDecisions.h).
struct DecisionRecord {
  std::string Key;
  Location At;
  /// The test as written, and what each of its outcomes means.
  std::string Text;
  std::vector<std::string> Values;
};

struct FunctionRecord {
  std::string Key; ///< USR
  std::string Name;
  Location At;
  unsigned Summary = 0; ///< Node index.
};

/// A virtual method defined in the TU and the methods it overrides, at any
/// depth: a virtual call of any of those can run its body.
struct OverrideRecord {
  std::string Key; ///< USR
  std::vector<std::string> Overrides;
  /// Its class is defined in the TU's main file and no object of it leaves
  /// that file (core/ConfinedClasses.h): only the TU's own calls can run it.
  bool Confined = false;
};

/// A rank-dependent branch with the sides' summaries up to their join.
struct BranchRecord {
  std::string Function; ///< Name of the enclosing function.
  std::string Shape;    ///< "branch", "loop" or "switch".
  Location Condition;
  std::string ConditionText;
  bool OverRange = false;
  std::vector<Step> Why;
  struct Side {
    unsigned Successor = 0; ///< 0: the true side, or the loop body.
    unsigned Summary = 0;
  };
  std::vector<Side> Sides;
  /// Decided in phase 1: the sides differ, reported at Site.
  bool Decided = false;
  std::string Op;
  bool IsBarrier = false;
  Location Site;
  Location EarlyExit;
  std::string EarlyExitKind;
  /// The collective's call did not compile and was matched by name: where,
  /// and why.
  Location ByNameAt;
  std::string ByNameNote;
  /// Decided in phase 1 for one outcome of a uniform test: that test.
  Step Uniform;
};

/// How a value depends on the rank and on a function's inputs, as phase 1
/// found it (core/Dependence.h): rank-dependent whoever calls (Divergent),
/// or rank-dependent where a call passes a rank-dependent argument for one
/// of the parameters in Params, or the name of a rank environment variable
/// for one in EnvKeys. Why explains it; for a conditional value it ends
/// where the input Root (an environment variable's name, with RootEnv) is
/// used, and the caller's explanation goes on from there.
struct DepRecord {
  bool Divergent = false;
  /// A buffer a collective made the same on every rank (a written
  /// parameter only).
  bool Synced = false;
  uint64_t Params = 0;
  uint64_t EnvKeys = 0;
  std::vector<Step> Why;
  int Root = -1;
  bool RootEnv = false;
  /// Only a container's elements depend on the rank: its length does not
  /// (core/Origin.h).
  bool ElementsOnly = false;
};

/// How a function's result and what it writes through its parameters
/// depend on its inputs (core/Dependence.h, DepSummary).
struct DepSummaryRecord {
  DepRecord Return;
  std::vector<std::pair<unsigned, DepRecord>> Writes;
};

/// A fact that crosses to another TU:
/// - Argument: some call passes parameter Index of Key a rank-dependent
///   argument (Why explains it, back to the rank);
/// - EnvName: some call passes parameter Index of Key the name of a rank
///   environment variable;
/// - Summary: the dependence summary of Key, which its callers in other TUs
///   instantiate with their own arguments.
struct FactRecord {
  enum class Kind { Argument, EnvName, Summary };
  Kind K = Kind::Argument;
  std::string Key;
  unsigned Index = 0;
  std::vector<Step> Why;
  /// Argument: the call passes a container whose elements alone depend on
  /// the rank (core/Origin.h); a fact without it replaces this one.
  bool ElementsOnly = false;
  DepSummaryRecord Summary;
  /// The key the driver uses to tell facts apart: "p:<usr>:<i>" (with
  /// ElementsOnly "q:<usr>:<i>", so that both kinds reach the importer),
  /// "e:<usr>:<i>", or "s:<usr>:<hash of the summary>".
  std::string id() const;
};

/// A file the TU read, to tell whether a cached summary is still valid.
struct Dependency {
  std::string Path;
  uint64_t Size = 0;
  int64_t MTime = 0;
  std::string Hash;
};

llvm::json::Value toJSON(const Dependency &D);
bool fromJSON(const llvm::json::Value &V, Dependency &D, llvm::json::Path P);

/// A function that was not analysed, so nothing in it is reported: its
/// analysis ran out of its budget (Reason empty), or its body did not
/// compile (Reason says how; Key is its USR, for calls from other TUs).
struct SkippedRecord {
  std::string Function;
  Location At;
  unsigned Budget = 0;
  unsigned Branches = 0;
  std::string Reason;
  std::string Key;
};

struct TUSummary {
  std::string MainFile;
  /// Hash of everything but the files' contents: the tool's version, the
  /// command line, the options and the facts imported.
  std::string Key;
  std::vector<Dependency> Dependencies;
  /// Set when the TU did not parse: no analysis was done.
  std::string Error;
  /// Compile errors of a TU that parsed: it was analysed anyway, and its
  /// functions that did not compile are in Skipped. The first error, and
  /// where it is.
  unsigned CompileErrors = 0;
  std::string FirstError;
  Location FirstErrorAt;
  std::vector<NodeRecord> Nodes;
  /// The uniform decisions the nodes name.
  std::vector<DecisionRecord> Decisions;
  std::vector<std::string> Barriers;
  std::vector<FunctionRecord> Functions;
  std::vector<BranchRecord> Branches;
  /// Facts this TU found that other TUs need.
  std::vector<FactRecord> Exports;
  /// Facts from other TUs this TU was analysed with (their ids).
  std::vector<std::string> Imports;
  /// USRs of the functions defined here, and of those called but defined
  /// elsewhere.
  std::vector<std::string> Defines;
  std::vector<std::string> Calls;
  /// The overrides defined here.
  std::vector<OverrideRecord> Overrides;
  /// Functions of other TUs that this TU, not having their summaries, took
  /// to return a rank-dependent value (they got a rank-dependent argument).
  std::vector<std::string> AssumedReturns;
  /// Functions skipped for the analysis budget or for compile errors.
  std::vector<SkippedRecord> Skipped;
};

std::string toJSON(const TUSummary &S);
/// Parses a summary; the error names what is wrong.
llvm::Expected<TUSummary> summaryFromJSON(llvm::StringRef Text);

llvm::Error writeSummary(const TUSummary &S, llvm::StringRef Path);
llvm::Expected<TUSummary> readSummary(llvm::StringRef Path);

} // namespace ddp::driver

#endif // DDP_DRIVER_SUMMARYFILE_H
