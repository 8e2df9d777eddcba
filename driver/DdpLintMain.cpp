//===--- DdpLintMain.cpp - ddp-lint, the whole-program driver -------------===//
//
// Phase 1 summarises every TU of the compile database (in parallel, cached),
// carrying rank-dependence facts between TUs until they settle; phase 2
// links the summaries and reports where ranks can issue different
// collective sequences.
//
// Exit codes: 0 no findings, 1 findings, 2 usage or input error (including a
// TU that could not be parsed; the others are still analysed). A TU with
// compile errors is analysed as far as it compiled and does not change the
// exit code, unless --fail-on-compile-errors makes it an input error.
//
//===----------------------------------------------------------------------===//

#include "Baseline.h"
#include "CompileDatabase.h"
#include "Configuration.h"
#include "Linker.h"
#include "Phase1Queue.h"
#include "ProgressLine.h"
#include "Reporters.h"
#include "SharedPreamble.h"
#include "SummaryCache.h"
#include "Suppressions.h"
#include "TUParser.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/WithColor.h"
#include <algorithm>
#include <atomic>
#include <chrono>
#include <deque>
#include <fmt/format.h>
#include <fstream>
#include <malloc.h>
#include <map>
#include <mutex>
#include <thread>

using namespace ddp::driver;
namespace cl = llvm::cl;

namespace {

enum ExitCode { NoFindings = 0, Findings = 1, InputFailure = 2 };

cl::OptionCategory Category("ddp-lint options");

cl::opt<std::string> BuildPath("p", cl::desc("The build directory that holds "
                                             "compile_commands.json"),
                               cl::value_desc("build dir"), cl::cat(Category));
cl::list<std::string> SourcePaths(cl::Positional,
                                  cl::desc("[<file> ...] [-- <flags>]"),
                                  cl::cat(Category));

enum class OutputFormat { Text, SARIF, JSON, GitHub };
cl::opt<OutputFormat> Format(
    "format", cl::desc("Output format"), cl::init(OutputFormat::Text),
    cl::values(clEnumValN(OutputFormat::Text, "text", "clang-style text"),
               clEnumValN(OutputFormat::SARIF, "sarif", "SARIF 2.1.0"),
               clEnumValN(OutputFormat::JSON, "json", "JSON"),
               clEnumValN(OutputFormat::GitHub, "github",
                          "GitHub workflow annotations")),
    cl::cat(Category));
cl::opt<std::string> OutputFile("o",
                                cl::desc("Write the report to <file> (with "
                                         "--summarize-only, the TU's "
                                         "summary; with --preamble-only, the "
                                         "list of preambles)"),
                                cl::value_desc("file"), cl::cat(Category));
cl::opt<std::string> BaselineFile(
    "baseline", cl::desc("Report only findings that are not in <file>"),
    cl::value_desc("file"), cl::cat(Category));
cl::opt<std::string> WriteBaselineFile(
    "write-baseline", cl::desc("Record the current findings in <file>"),
    cl::value_desc("file"), cl::cat(Category));
cl::opt<unsigned> Jobs("j", cl::desc("Translation units analysed at once "
                                     "(default: all cores)"),
                       cl::init(0), cl::Prefix, cl::cat(Category));
cl::opt<std::string> CacheDir(
    "cache-dir",
    cl::desc("Where phase 1 keeps its summaries (default: "
             "<build dir>/.ddp-lint-cache with -p, else .ddp-lint-cache)"),
    cl::value_desc("dir"), cl::cat(Category));
cl::opt<bool> Verbose("verbose",
                      cl::desc("Print each TU's parse and analysis time"),
                      cl::cat(Category));
cl::opt<bool> NoCache("no-cache", cl::desc("Parse every TU again"),
                      cl::cat(Category));
cl::opt<bool> NoPreamble(
    "no-preamble",
    cl::desc("Parse every TU from its first line, without the precompiled "
             "preamble TUs that start with the same #includes share"),
    cl::cat(Category));
cl::opt<bool> SummarizeOnly(
    "summarize-only",
    cl::desc("Run phase 1 only, filling the cache (for build systems that "
             "run it as separate actions); report nothing"),
    cl::cat(Category));
cl::opt<bool> PreambleOnly(
    "preamble-only",
    cl::desc("Build the precompiled preambles the TUs share, in the cache "
             "directory, and stop (a build system's first action)"),
    cl::cat(Category));
cl::opt<std::string> DepFile(
    "depfile",
    cl::desc("With -o and --summarize-only or --preamble-only: write to "
             "<file> the files the output depends on, as a Makefile rule"),
    cl::value_desc("file"), cl::cat(Category));
cl::opt<std::string> ConfigFile(
    "config-file",
    cl::desc("Read the check options from <file> instead of the "
             ".clang-tidy files beside the sources"),
    cl::value_desc("file"), cl::cat(Category));
cl::opt<std::string> SourceRoot(
    "source-root",
    cl::desc("Report paths relative to <dir> (default: the current "
             "directory)"),
    cl::value_desc("dir"), cl::cat(Category));
cl::opt<bool> FailOnCompileErrors(
    "fail-on-compile-errors",
    cl::desc("Exit with 2 when a translation unit has compile errors (it is "
             "analysed as far as it compiled either way)"),
    cl::cat(Category));
cl::opt<cl::boolOrDefault> Color("use-color",
                                 cl::desc("Colours in text output (default: "
                                          "on a terminal)"),
                                 cl::cat(Category));

const char Overview[] =
    "ddp-lint: finds where the ranks of a distributed program can issue "
    "different sequences of collectives, across translation units.\n";

int fail(const llvm::Twine &Message) {
  llvm::WithColor::error(llvm::errs(), "ddp-lint") << Message << "\n";
  return InputFailure;
}

std::string absolute(llvm::StringRef Path, llvm::StringRef Base = "") {
  llvm::SmallString<256> Abs(Path);
  if (!llvm::sys::path::is_absolute(Abs)) {
    if (Base.empty())
      llvm::sys::fs::make_absolute(Abs);
    else
      Abs = (Base + "/" + Path).str();
  }
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return std::string(Abs);
}

/// A directory removed with everything in it when it goes out of scope.
struct TemporaryDirectory {
  std::string Path;
  ~TemporaryDirectory() {
    if (!Path.empty())
      llvm::sys::fs::remove_directories(Path);
  }
};

/// One TU's work item.
struct Unit {
  clang::tooling::CompileCommand Command;
  std::string File;
  ddp::AnalysisOptions Options;
  /// The facts of other TUs its summary was made with.
  std::vector<FactRecord> Imports;
  TUSummary Summary;
  /// The parsed TU, kept for later rounds while the memory budget allows.
  std::unique_ptr<ParsedTU> Parsed;
  /// The memory it holds, while kept.
  size_t ParsedBytes = 0;
  /// Parsed at least once in this run (else every round came from the
  /// cache).
  bool WasParsed = false;
  /// The preamble it was parsed against, for a later round's parse.
  const Preamble *Against = nullptr;
  /// How long its last parse and analysis took, in seconds.
  double LastSeconds = 0;
};

/// How phase 1 went: the memory the parsed TUs kept for later rounds hold.
struct Phase1State {
  std::mutex KeptLock;
  size_t KeptBytes = 0;
  size_t MaxKeptBytes = 0;
  /// Where preambles are kept; empty with --no-preamble.
  std::string PreambleDir;
  /// Every preamble this run obtained (a deque, whose elements stay where
  /// they are), and those of groups by their key and includes.
  std::deque<Preamble> Preambles;
  std::map<std::string, const Preamble *> ByGroup;
};

/// How much memory the parsed TUs kept between rounds, with their analyses,
/// may hold: a quarter of the machine's (a later round goes on with a kept
/// TU's analysis, where it would parse and analyse it again), 3 GB where
/// that is unknown. The process's heap in use is held to it as well as
/// what ParsedTU::memoryBytes counts (the heap grows by more: InfiniTrain's
/// 128 TUs, budget 5.9 GB counted that way: 7.6 GB more resident), so
/// keptCost adds half again.
size_t keptBytesBudget() {
  std::ifstream MemInfo("/proc/meminfo");
  std::string Key;
  uint64_t KiB = 0;
  while (MemInfo >> Key >> KiB)
    if (Key == "MemTotal:")
      return size_t(KiB / 4 * 1024);
  return size_t(3) << 30;
}

/// The bytes the process's heap has in use (0 where that is unknown).
size_t heapInUse() {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33)
  struct mallinfo2 Info = mallinfo2();
  return Info.uordblks + Info.hblkhd;
#else
  return 0;
#endif
}

/// Keeps freed memory in the heap: each parse allocates and frees hundreds
/// of MB, and glibc's defaults hand large blocks back to the kernel, which
/// zeroes the pages again for the next parse (hypre: 4% of the run).
void keepFreedMemory() {
#if defined(__GLIBC__)
  mallopt(M_MMAP_THRESHOLD, 256 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
}

size_t keptCost(size_t MemoryBytes) { return MemoryBytes + MemoryBytes / 2; }

double secondsSince(std::chrono::steady_clock::time_point Start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
      .count();
}

/// "<vector>, "common/setup.h" and 2 more".
std::string includeList(const std::vector<std::string> &Includes) {
  std::string Out;
  for (size_t I = 0; I < Includes.size() && I < 3; ++I)
    Out += (I ? ", " : "") + Includes[I];
  if (Includes.size() > 3)
    Out += fmt::format(" and {} more", Includes.size() - 3);
  return Out;
}

/// The --verbose line about a group's preamble.
std::string describe(const PreambleGroup &G, const Preamble &P) {
  if (!P.usable())
    return fmt::format("ddp-lint: preamble of {} TUs ({}) not used: {}",
                       G.Members.size(), includeList(G.Includes), P.Error);
  return fmt::format("ddp-lint: preamble of {} TUs {}: {}", G.Members.size(),
                     P.Reused ? "reused from the cache"
                              : fmt::format("built in {:.2f} s", P.Seconds),
                     includeList(P.Includes));
}

/// Writes \p Deps as a Makefile rule for \p Target, as Ninja reads it.
llvm::Error writeDepFile(llvm::StringRef Path, llvm::StringRef Target,
                         const std::vector<Dependency> &Deps) {
  auto Escape = [](llvm::StringRef File) {
    std::string Out;
    for (char C : File) {
      if (C == ' ' || C == '#' || C == '\\')
        Out += '\\';
      else if (C == '$')
        Out += '$';
      Out += C;
    }
    return Out;
  };
  return llvm::writeToOutput(Path, [&](llvm::raw_ostream &OS) {
    OS << Escape(Target) << ":";
    for (const Dependency &D : Deps)
      OS << " \\\n  " << Escape(D.Path);
    OS << "\n";
    return llvm::Error::success();
  });
}

/// Tells apart the groups of all rounds.
std::string groupName(const PreambleGroup &G) {
  std::string Name = G.Key;
  for (const std::string &I : G.Includes)
    Name += "\n" + I;
  return Name;
}

/// Runs \p Work(I) for I in [0, N), \p Workers at a time.
template <typename Fn> void parallelFor(size_t N, unsigned Workers, Fn Work) {
  std::atomic<size_t> Next{0};
  auto Loop = [&] {
    for (size_t I; (I = Next++) < N;)
      Work(I);
  };
  std::vector<std::thread> Threads;
  for (unsigned T = 1; T < std::min<size_t>(Workers, N); ++T)
    Threads.emplace_back(Loop);
  Loop();
  for (std::thread &T : Threads)
    T.join();
}

/// Runs phase 1 on \p Which units, \p Workers at a time: the cache answers
/// what it can; the TUs left to parse that share their leading includes
/// are parsed against a preamble of them, built first.
void summarize(std::vector<Unit> &Units, const std::vector<size_t> &Which,
               unsigned Round, const SummaryCache &Cache, unsigned Workers,
               ProgressLine &Progress, Phase1State &State) {
  Progress.startRound(Round, Which.size());
  std::vector<std::string> Keys(Which.size());
  std::vector<char> Answered(Which.size(), false);
  parallelFor(Which.size(), Workers, [&](size_t I) {
    Unit &U = Units[Which[I]];
    Keys[I] = analysisKey(U.Command, U.Options, U.Imports);
    if (std::optional<TUSummary> Cached = Cache.lookup(Keys[I])) {
      U.Summary = std::move(*Cached);
      Answered[I] = true;
      Progress.cached();
    }
  });
  std::vector<size_t> Left;
  for (size_t I = 0; I < Which.size(); ++I)
    if (!Answered[I])
      Left.push_back(I);

  // Preambles for the TUs to parse that were not parsed against one before.
  std::vector<size_t> ToPlan;
  for (size_t K = 0; K < Left.size(); ++K) {
    const Unit &U = Units[Which[Left[K]]];
    if (!State.PreambleDir.empty() && !U.Parsed && !U.Against)
      ToPlan.push_back(K);
  }
  std::vector<clang::tooling::CompileCommand> Commands;
  for (size_t K : ToPlan)
    Commands.push_back(Units[Which[Left[K]]].Command);
  PreamblePlan Plan;
  if (!Commands.empty())
    Plan = planPreambles(Commands, State.PreambleDir);
  std::vector<int> GroupOf(Left.size(), -1);
  std::vector<std::string> Why(Left.size());
  for (size_t P = 0; P < ToPlan.size(); ++P) {
    GroupOf[ToPlan[P]] = Plan.GroupOf[P];
    Why[ToPlan[P]] = Plan.Why[P];
    // A TU alone here may fit a preamble an earlier run built.
    if (Plan.GroupOf[P] < 0)
      if (std::optional<Preamble> Found =
              existingPreamble(Commands[P], State.PreambleDir)) {
        State.Preambles.push_back(std::move(*Found));
        Units[Which[Left[ToPlan[P]]]].Against = &State.Preambles.back();
      }
  }
  if (State.PreambleDir.empty())
    std::fill(Why.begin(), Why.end(), "--no-preamble");
  std::vector<size_t> BuildOrder(Plan.Groups.size());
  for (size_t G = 0; G < BuildOrder.size(); ++G)
    BuildOrder[G] = G;
  llvm::sort(BuildOrder, [&](size_t A, size_t B) {
    size_t SizeA = Plan.Groups[A].Members.size();
    size_t SizeB = Plan.Groups[B].Members.size();
    return SizeA != SizeB ? SizeA > SizeB : A < B;
  });
  std::vector<const Preamble *> Obtained(Plan.Groups.size(), nullptr);
  std::mutex PreamblesLock;

  Phase1Queue Queue(GroupOf, BuildOrder);
  auto BuildPreamble = [&](size_t G) {
    const PreambleGroup &Group = Plan.Groups[G];
    {
      // Obtained in an earlier round (when its build failed, its TUs come
      // back here).
      std::lock_guard<std::mutex> Lock(PreamblesLock);
      auto It = State.ByGroup.find(groupName(Group));
      if (It != State.ByGroup.end()) {
        Obtained[G] = It->second;
        return;
      }
    }
    Progress.preambleStarted(Group.Members.size());
    Preamble P = obtainPreamble(Group, State.PreambleDir);
    Progress.preambleFinished(Group.Members.size());
    if (Verbose)
      Progress.print(describe(Group, P));
    std::lock_guard<std::mutex> Lock(PreamblesLock);
    State.Preambles.push_back(std::move(P));
    Obtained[G] = State.ByGroup[groupName(Group)] = &State.Preambles.back();
  };
  auto Analyse = [&](size_t K) {
    size_t I = Left[K];
    Unit &U = Units[Which[I]];
    std::unique_ptr<ParsedTU> Parsed = std::move(U.Parsed);
    auto Start = std::chrono::steady_clock::now();
    bool Kept = Parsed != nullptr;
    if (Kept) {
      std::lock_guard<std::mutex> Lock(State.KeptLock);
      State.KeptBytes -= U.ParsedBytes;
    }
    std::string How = "kept in memory";
    if (!Kept) {
      const Preamble *Against = U.Against;
      if (GroupOf[K] >= 0) {
        std::lock_guard<std::mutex> Lock(PreamblesLock);
        Against = Obtained[GroupOf[K]];
      }
      if (Against && Against->usable()) {
        Parsed =
            std::make_unique<ParsedTU>(ParsedTU::parse(U.Command, Against));
        How = "with the shared preamble";
        // A preamble that does not load (a header changed since it was
        // checked), or a TU with errors, is parsed as it is: its result is
        // then exactly the plain parse's.
        if (!Parsed->error().empty() || Parsed->compileErrors()) {
          Parsed = std::make_unique<ParsedTU>(ParsedTU::parse(U.Command));
          How = "without a preamble: the parse against it had errors";
          Against = nullptr;
        }
      } else {
        Parsed = std::make_unique<ParsedTU>(ParsedTU::parse(U.Command));
        How = "without a preamble: " +
              (Against ? "it could not be built" : Why[K]);
        Against = nullptr;
      }
      U.Against = Against;
      U.WasParsed = true;
    }
    auto ParseEnd = std::chrono::steady_clock::now();
    U.Summary = Parsed->summarize(U.Options, U.Imports);
    U.LastSeconds = secondsSince(Start);
    size_t Bytes = Parsed->error().empty() ? Parsed->memoryBytes() : 0;
    if (Verbose)
      Progress.print(fmt::format(
          "ddp-lint: {}: parse {:.2f} s {}, analysis {:.3f} s, {} facts "
          "from other TUs, {} MB parsed",
          U.File, std::chrono::duration<double>(ParseEnd - Start).count(), How,
          secondsSince(ParseEnd), U.Imports.size(), Bytes >> 20));
    U.Summary.MainFile = U.File;
    U.Summary.Key = Keys[I];
    Cache.store(U.Summary);
    if (Kept)
      Progress.reanalysed();
    else
      Progress.parsed();
    if (!Parsed->error().empty())
      return;
    size_t Cost = keptCost(Bytes);
    std::lock_guard<std::mutex> Lock(State.KeptLock);
    if (State.KeptBytes + Cost <= State.MaxKeptBytes &&
        heapInUse() <= State.MaxKeptBytes) {
      State.KeptBytes += Cost;
      U.ParsedBytes = Cost;
      U.Parsed = std::move(Parsed);
    }
  };
  std::vector<std::thread> Threads;
  auto Work = [&] {
    for (Phase1Queue::Task T;
         (T = Queue.next()).K != Phase1Queue::Task::Done;) {
      if (T.K == Phase1Queue::Task::Build) {
        BuildPreamble(T.Index);
        Queue.built(T.Index);
      } else {
        Analyse(T.Index);
      }
    }
  };
  for (unsigned T = 1;
       T < std::min<size_t>(Workers, Left.size() + BuildOrder.size()); ++T)
    Threads.emplace_back(Work);
  Work();
  for (std::thread &T : Threads)
    T.join();
}

/// Phase 1 for every unit, then again for the units whose facts from other
/// TUs changed (the summaries of the functions they call there, and the
/// parameters of their own functions that calls there pass the rank), until
/// they settle.
void runPhase1(std::vector<Unit> &Units, const SummaryCache &Cache,
               unsigned Workers, ProgressLine &Progress, Phase1State &State) {
  std::vector<size_t> Which(Units.size());
  for (size_t I = 0; I < Units.size(); ++I)
    Which[I] = I;
  auto Ids = [](const std::vector<FactRecord> &Facts) {
    std::vector<std::string> Out;
    for (const FactRecord &F : Facts)
      Out.push_back(F.id());
    return Out;
  };
  for (unsigned Round = 0; Round < 8 && !Which.empty(); ++Round) {
    summarize(Units, Which, Round, Cache, Workers, Progress, State);
    // Every TU's imports, found in parallel (the summaries are lent to
    // All meanwhile).
    std::vector<TUSummary> All;
    for (Unit &U : Units)
      All.push_back(std::move(U.Summary));
    std::vector<std::vector<FactRecord>> Wanted(Units.size());
    ExportIndex Exports(All);
    parallelFor(Units.size(), Workers, [&](size_t I) {
      if (All[I].Error.empty())
        Wanted[I] = importsFor(I, All, Exports);
    });
    for (size_t I = 0; I < Units.size(); ++I)
      Units[I].Summary = std::move(All[I]);
    Which.clear();
    for (size_t I = 0; I < Units.size(); ++I) {
      if (!Units[I].Summary.Error.empty() ||
          Ids(Wanted[I]) == Ids(Units[I].Imports))
        continue;
      Units[I].Imports = std::move(Wanted[I]);
      Which.push_back(I);
    }
    // The longest first, as they took last time: a long TU started last
    // would leave the other workers idle at the end of the round.
    llvm::stable_sort(Which, [&](size_t A, size_t B) {
      return Units[A].LastSeconds > Units[B].LastSeconds;
    });
  }
  // Freed on every worker: the kept ASTs and analyses can be gigabytes.
  parallelFor(Units.size(), Workers,
              [&](size_t I) { Units[I].Parsed.reset(); });
  Progress.clear();
}

} // namespace

int main(int argc, const char **argv) {
  // A crash prints its stack. LLVM registers its signal handlers once, on
  // the thread that first needs them, and gives that thread an alternate
  // signal stack from malloc: here, the main thread. Left to the first
  // worker to write a file (a summary, a preamble), the stack went to that
  // worker, and AddressSanitizer, which unmaps a thread's alternate stack
  // when the thread exits, failed on it in about 1 run in 50.
  llvm::sys::PrintStackTraceOnErrorSignal(argv[0]);
  cl::HideUnrelatedOptions(Category);
  // Flags after "--" are the compile command for every file given.
  std::string FixedError;
  std::unique_ptr<clang::tooling::CompilationDatabase> Database =
      clang::tooling::FixedCompilationDatabase::loadFromCommandLine(
          argc, argv, FixedError);
  if (!FixedError.empty())
    return fail(FixedError);
  std::string ParseErrors;
  llvm::raw_string_ostream ParseErrorStream(ParseErrors);
  if (!cl::ParseCommandLineOptions(argc, argv, Overview, &ParseErrorStream)) {
    llvm::StringRef M = llvm::StringRef(ParseErrors).trim();
    // Errors in option values are printed by the parser itself, on one line.
    if (M.empty())
      return InputFailure;
    M.consume_front("ddp-lint: ");
    // The parser's messages can span lines; keep the first.
    return fail(M.split('\n').first);
  }
  if (!Database) {
    std::string Error;
    if (!BuildPath.empty()) {
      // -p names the build directory, or the database file itself.
      llvm::SmallString<256> Json(BuildPath);
      if (llvm::sys::fs::is_directory(Json))
        llvm::sys::path::append(Json, "compile_commands.json");
      if (!llvm::sys::fs::exists(Json))
        return fail("'" + Json + "': no such file (-p names the build "
                    "directory that holds compile_commands.json)");
      auto Read = readCompileDatabase(Json);
      if (!Read)
        return fail(llvm::toString(Read.takeError()));
      Database = std::move(*Read);
    } else if (!SourcePaths.empty()) {
      Database = clang::tooling::CompilationDatabase::autoDetectFromSource(
          SourcePaths.front(), Error);
      if (!Database)
        return fail("no compile database for '" + SourcePaths.front() +
                    "': give one with -p <build dir>, or the flags after --");
    } else {
      return fail("nothing to analyse: give -p <build dir>, or files and "
                  "their flags after --");
    }
  }

  std::vector<std::string> Files(SourcePaths.begin(), SourcePaths.end());
  if (Files.empty()) {
    // The database lists its files in hash order, which changes with the
    // checkout's path; the report's order must not.
    Files = Database->getAllFiles();
    llvm::sort(Files);
  }
  if (Files.empty())
    return fail("no files to analyse: the compile database lists none");

  auto Config = Configuration::create(ConfigFile);
  if (!Config)
    return fail(llvm::toString(Config.takeError()));

  std::vector<Unit> Units;
  llvm::StringSet<> Seen;
  for (const std::string &Given : Files) {
    std::string File = absolute(Given);
    if (!llvm::sys::fs::exists(File))
      return fail("'" + Given + "': no such file");
    if (!Seen.insert(File).second)
      continue;
    std::vector<clang::tooling::CompileCommand> Commands =
        Database->getCompileCommands(File);
    if (Commands.empty())
      return fail("'" + Given + "': no compile command for this file");
    auto Options = Config->optionsFor(File);
    if (!Options)
      return fail(llvm::toString(Options.takeError()));
    Unit U;
    U.Command = Commands.front();
    U.File = File;
    U.Options = std::move(*Options);
    Units.push_back(std::move(U));
  }

  std::string Root = absolute(SourceRoot.empty() ? "." : SourceRoot.getValue());
  if (!llvm::sys::fs::is_directory(Root))
    return fail("'" + SourceRoot + "': the source root is not a directory");

  std::string CachePath;
  if (!NoCache) {
    if (!CacheDir.empty())
      CachePath = absolute(CacheDir);
    else if (!BuildPath.empty() && llvm::sys::fs::is_directory(BuildPath))
      CachePath = absolute(BuildPath) + "/.ddp-lint-cache";
    else
      CachePath = absolute(".ddp-lint-cache");
  }
  SummaryCache Cache(CachePath);
  if (llvm::Error E = Cache.prepare())
    return fail(llvm::toString(std::move(E)));

  if (SummarizeOnly && PreambleOnly)
    return fail("--summarize-only and --preamble-only exclude each other");
  if (!DepFile.empty() &&
      (OutputFile.empty() || !(SummarizeOnly || PreambleOnly)))
    return fail("--depfile needs -o and --summarize-only or --preamble-only");
  if (SummarizeOnly && !OutputFile.empty() && Units.size() != 1)
    return fail("--summarize-only writes one TU's summary to -o: give one "
                "file");
  if (PreambleOnly && (NoPreamble || !Cache.enabled()))
    return fail("--preamble-only builds the preambles in the cache: it "
                "excludes --no-preamble and --no-cache");

  // Check that the outputs can be written before spending time on parsing.
  std::unique_ptr<llvm::raw_fd_ostream> Out;
  if (!OutputFile.empty() && !SummarizeOnly) {
    std::error_code EC;
    Out = std::make_unique<llvm::raw_fd_ostream>(OutputFile, EC);
    if (EC)
      return fail("cannot write '" + OutputFile + "': " + EC.message());
  }
  std::optional<Baseline> Known;
  if (!BaselineFile.empty()) {
    auto B = Baseline::read(BaselineFile);
    if (!B)
      return fail(llvm::toString(B.takeError()));
    Known = std::move(*B);
  }

  unsigned Workers =
      Jobs ? Jobs.getValue() : llvm::hardware_concurrency().compute_thread_count();
  ProgressLine Progress(llvm::sys::Process::StandardErrIsDisplayed());
  Phase1State State;
  State.MaxKeptBytes = keptBytesBudget();
  keepFreedMemory();
  // Preambles live beside the summaries; without a cache, in a directory of
  // this run's own.
  TemporaryDirectory NoCacheDir;
  if (!NoPreamble) {
    if (Cache.enabled()) {
      State.PreambleDir = CachePath + "/preambles";
      if (std::error_code EC =
              llvm::sys::fs::create_directories(State.PreambleDir))
        return fail("cannot create '" + State.PreambleDir +
                    "': " + EC.message());
    } else {
      llvm::SmallString<256> Dir;
      if (std::error_code EC =
              llvm::sys::fs::createUniqueDirectory("ddp-lint-preamble", Dir))
        return fail("cannot create a directory for the preambles: " +
                    EC.message());
      NoCacheDir.Path = std::string(Dir);
      State.PreambleDir = NoCacheDir.Path;
    }
  }
  if (PreambleOnly) {
    std::vector<clang::tooling::CompileCommand> Commands;
    for (const Unit &U : Units)
      Commands.push_back(U.Command);
    PreamblePlan Plan = planPreambles(Commands, State.PreambleDir);
    std::vector<Preamble> Built(Plan.Groups.size());
    parallelFor(Plan.Groups.size(), Workers, [&](size_t G) {
      Progress.preambleStarted(Plan.Groups[G].Members.size());
      Built[G] = obtainPreamble(Plan.Groups[G], State.PreambleDir);
      Progress.preambleFinished(Plan.Groups[G].Members.size());
      if (Verbose)
        Progress.print(describe(Plan.Groups[G], Built[G]));
    });
    Progress.clear();
    std::vector<Dependency> Deps;
    llvm::raw_ostream &List = Out ? *Out : llvm::outs();
    for (size_t G = 0; G < Built.size(); ++G) {
      List << describe(Plan.Groups[G], Built[G]).substr(strlen("ddp-lint: "))
           << "\n";
      Deps.insert(Deps.end(), Built[G].Dependencies.begin(),
                  Built[G].Dependencies.end());
    }
    if (Plan.Groups.empty())
      List << "no TUs share a preamble\n";
    List.flush();
    Out.reset();
    llvm::sort(Deps, [](const Dependency &A, const Dependency &B) {
      return A.Path < B.Path;
    });
    Deps.erase(std::unique(Deps.begin(), Deps.end(),
                           [](const Dependency &A, const Dependency &B) {
                             return A.Path == B.Path;
                           }),
               Deps.end());
    if (!DepFile.empty())
      if (llvm::Error E = writeDepFile(DepFile, OutputFile, Deps))
        return fail(llvm::toString(std::move(E)));
    return NoFindings;
  }
  runPhase1(Units, Cache, Workers, Progress, State);
  if (SummarizeOnly) {
    bool Failed = false;
    for (const Unit &U : Units)
      if (!U.Summary.Error.empty()) {
        fail("'" + U.File + "': could not analyse: " + U.Summary.Error);
        Failed = true;
      } else if (FailOnCompileErrors && U.Summary.CompileErrors) {
        fail("'" + U.File + "': " + std::to_string(U.Summary.CompileErrors) +
             " compile errors: " + U.Summary.FirstError);
        Failed = true;
      }
    if (Failed)
      return InputFailure;
    // The summary as a build system's output, and what it was made from.
    if (!OutputFile.empty()) {
      if (llvm::Error E = writeSummary(Units.front().Summary, OutputFile))
        return fail(llvm::toString(std::move(E)));
      if (!DepFile.empty())
        if (llvm::Error E = writeDepFile(DepFile, OutputFile,
                                         Units.front().Summary.Dependencies))
          return fail(llvm::toString(std::move(E)));
    }
    return NoFindings;
  }

  Run R;
  R.SourceRoot = Root;
  R.TranslationUnits = Units.size();
  // Per TU, whatever the rounds: parsed at least once, or answered from the
  // cache every time.
  R.Parsed = unsigned(
      llvm::count_if(Units, [](const Unit &U) { return U.WasParsed; }));
  R.Cached = unsigned(Units.size()) - R.Parsed;
  R.CompileErrorsFail = FailOnCompileErrors;
  std::vector<TUSummary> Summaries;
  for (Unit &U : Units) {
    if (!U.Summary.Error.empty()) {
      R.Errors.push_back({U.File, U.Summary.Error});
      continue;
    }
    if (U.Summary.CompileErrors)
      R.Incomplete.push_back({U.File, U.Summary.CompileErrors,
                              U.Summary.FirstError, U.Summary.FirstErrorAt,
                              unsigned(U.Summary.Skipped.size())});
    // A function skipped in a header is listed by each TU that includes it.
    for (const SkippedRecord &S : U.Summary.Skipped)
      if (llvm::none_of(R.Skipped, [&](const SkippedRecord &Seen) {
            return Seen.At == S.At;
          }))
        R.Skipped.push_back(S);
    Summaries.push_back(std::move(U.Summary));
  }
  std::vector<Diagnostic> Found =
      link(Summaries, [&](const Location &L) {
        return fmt::format("{}:{}:{}", relativePath(L.File, Root), L.Line,
                           L.Column);
      });

  Suppressions NoLint;
  std::vector<Diagnostic> Kept;
  for (Diagnostic &D : Found) {
    std::vector<std::string> Names{D.Rule, D.Check};
    if (NoLint.suppressed(D.At.File, D.At.Line, Names) ||
        NoLint.suppressed(D.Site.File, D.Site.Line, Names)) {
      ++R.Suppressed;
      continue;
    }
    Kept.push_back(std::move(D));
  }
  if (!WriteBaselineFile.empty())
    if (llvm::Error E = Baseline::write(WriteBaselineFile, Kept, Root))
      return fail(llvm::toString(std::move(E)));
  for (Diagnostic &D : Kept) {
    if (Known && Known->contains(D)) {
      ++R.Baselined;
      continue;
    }
    R.Findings.push_back(std::move(D));
  }

  llvm::raw_ostream &OS = Out ? *Out : llvm::outs();
  switch (Format) {
  case OutputFormat::Text: {
    bool Colors = Color == cl::BOU_UNSET
                      ? !Out && llvm::sys::Process::StandardOutIsDisplayed()
                      : Color == cl::BOU_TRUE;
    writeText(OS, R, Colors);
    break;
  }
  case OutputFormat::SARIF:
    writeSARIF(OS, R);
    break;
  case OutputFormat::JSON:
    writeJSON(OS, R);
    break;
  case OutputFormat::GitHub:
    writeGitHub(OS, R);
    break;
  }
  OS.flush();
  if (Format != OutputFormat::Text) {
    for (const InputError &E : R.Errors)
      fail("'" + E.File + "': could not analyse: " + E.Message);
    if (FailOnCompileErrors)
      for (const IncompleteTU &T : R.Incomplete)
        fail("'" + T.File + "': " + incompleteMessage(T, R));
  }
  if (!R.Errors.empty() || (FailOnCompileErrors && !R.Incomplete.empty()))
    return InputFailure;
  return R.Findings.empty() ? NoFindings : Findings;
}
