//===--- DdpLintMain.cpp - ddp-lint, the whole-program driver -------------===//
//
// Phase 1 summarises every TU of the compile database (in parallel, cached),
// carrying rank-dependence facts between TUs until they settle; phase 2
// links the summaries and reports where ranks can issue different
// collective sequences.
//
// Exit codes: 0 no findings, 1 findings, 2 usage or input error (including a
// TU that could not be parsed; the others are still analysed).
//
//===----------------------------------------------------------------------===//

#include "Baseline.h"
#include "CompileDatabase.h"
#include "Configuration.h"
#include "Linker.h"
#include "Reporters.h"
#include "SummaryCache.h"
#include "Suppressions.h"
#include "TUParser.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/WithColor.h"
#include <atomic>
#include <chrono>
#include <fstream>
#include <fmt/format.h>
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
cl::opt<std::string> OutputFile("o", cl::desc("Write the report to <file>"),
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
cl::opt<bool> SummarizeOnly(
    "summarize-only",
    cl::desc("Run phase 1 only, filling the cache (for build systems that "
             "run it as separate actions); report nothing"),
    cl::cat(Category));
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
  /// Parsed at least once in this run (else every round came from the
  /// cache).
  bool WasParsed = false;
};

/// How phase 1 went: how many parsed TUs are kept in memory.
struct Phase1State {
  std::atomic<unsigned> Kept{0};
  unsigned MaxKept = 0;
};

/// How many parsed TUs to keep between rounds: a LibTorch TU takes about
/// 0.6 GB, so a quarter of the memory at 0.75 GB each, at most 64.
unsigned keptTUBudget() {
  std::ifstream MemInfo("/proc/meminfo");
  std::string Key;
  uint64_t KiB = 0;
  while (MemInfo >> Key >> KiB)
    if (Key == "MemTotal:")
      return unsigned(std::min<uint64_t>(64, KiB / 4 / (768 * 1024)));
  return 4;
}

/// Runs phase 1 on \p Which units, \p Workers at a time.
void summarize(std::vector<Unit> &Units, const std::vector<size_t> &Which,
               const SummaryCache &Cache, unsigned Workers, bool Progress,
               Phase1State &State) {
  std::atomic<size_t> Next{0}, Finished{0};
  std::mutex Print;
  auto Work = [&] {
    for (size_t I; (I = Next++) < Which.size();) {
      Unit &U = Units[Which[I]];
      std::string Key = analysisKey(U.Command, U.Options, U.Imports);
      if (std::optional<TUSummary> Cached = Cache.lookup(Key)) {
        U.Summary = std::move(*Cached);
      } else {
        std::unique_ptr<ParsedTU> Parsed = std::move(U.Parsed);
        auto Start = std::chrono::steady_clock::now();
        if (!Parsed) {
          Parsed = std::make_unique<ParsedTU>(ParsedTU::parse(U.Command));
          U.WasParsed = true;
        }
        auto Parsed_ = std::chrono::steady_clock::now();
        U.Summary = Parsed->summarize(U.Options, U.Imports);
        if (Verbose) {
          std::lock_guard<std::mutex> Lock(Print);
          llvm::errs() << fmt::format(
              "ddp-lint: {}: parse {:.2f} s, analysis {:.3f} s, {} facts "
              "from other TUs\n",
              U.File, std::chrono::duration<double>(Parsed_ - Start).count(),
              std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                            Parsed_)
                  .count(),
              U.Imports.size());
        }
        U.Summary.MainFile = U.File;
        U.Summary.Key = Key;
        Cache.store(U.Summary);
        if (Parsed->error().empty() && State.Kept++ < State.MaxKept)
          U.Parsed = std::move(Parsed);
        else if (Parsed->error().empty())
          --State.Kept;
      }
      size_t Done = ++Finished;
      if (Progress) {
        std::lock_guard<std::mutex> Lock(Print);
        llvm::errs() << fmt::format("\r\033[K[{}/{}] {}", Done, Which.size(),
                                    llvm::sys::path::filename(U.File).str());
      }
    }
  };
  std::vector<std::thread> Threads;
  for (unsigned T = 1; T < std::min<size_t>(Workers, Which.size()); ++T)
    Threads.emplace_back(Work);
  Work();
  for (std::thread &T : Threads)
    T.join();
  if (Progress)
    llvm::errs() << "\r\033[K";
}

/// Phase 1 for every unit, then again for the units whose facts from other
/// TUs changed (the summaries of the functions they call there, and the
/// parameters of their own functions that calls there pass the rank), until
/// they settle.
void runPhase1(std::vector<Unit> &Units, const SummaryCache &Cache,
               unsigned Workers, bool Progress, Phase1State &State) {
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
    summarize(Units, Which, Cache, Workers, Progress, State);
    std::vector<TUSummary> All;
    for (const Unit &U : Units)
      All.push_back(U.Summary);
    Which.clear();
    for (size_t I = 0; I < Units.size(); ++I) {
      if (!Units[I].Summary.Error.empty())
        continue;
      std::vector<FactRecord> Wanted = importsFor(Units[I].Summary, All);
      if (Ids(Wanted) == Ids(Units[I].Imports))
        continue;
      Units[I].Imports = std::move(Wanted);
      Which.push_back(I);
    }
  }
  for (Unit &U : Units)
    U.Parsed.reset();
}

} // namespace

int main(int argc, const char **argv) {
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
  if (Files.empty())
    Files = Database->getAllFiles();
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
  bool Progress = llvm::sys::Process::StandardErrIsDisplayed();
  Phase1State State;
  State.MaxKept = keptTUBudget();
  runPhase1(Units, Cache, Workers, Progress, State);
  if (SummarizeOnly) {
    bool Failed = false;
    for (const Unit &U : Units)
      if (!U.Summary.Error.empty()) {
        fail("'" + U.File + "': could not analyse: " + U.Summary.Error);
        Failed = true;
      }
    return Failed ? InputFailure : NoFindings;
  }

  Run R;
  R.SourceRoot = Root;
  R.TranslationUnits = Units.size();
  // Per TU, whatever the rounds: parsed at least once, or answered from the
  // cache every time.
  R.Parsed = unsigned(
      llvm::count_if(Units, [](const Unit &U) { return U.WasParsed; }));
  R.Cached = unsigned(Units.size()) - R.Parsed;
  std::vector<TUSummary> Summaries;
  for (Unit &U : Units) {
    if (!U.Summary.Error.empty()) {
      R.Errors.push_back({U.File, U.Summary.Error});
      continue;
    }
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
  if (Format != OutputFormat::Text)
    for (const InputError &E : R.Errors)
      fail("'" + E.File + "': could not analyse: " + E.Message);
  if (!R.Errors.empty())
    return InputFailure;
  return R.Findings.empty() ? NoFindings : Findings;
}
