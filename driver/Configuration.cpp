//===--- Configuration.cpp - The checks' options, read for the driver -----===//

#include "Configuration.h"
#include "InputNesting.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

namespace ddp::driver {

using clang::tidy::ClangTidyGlobalOptions;
using clang::tidy::ClangTidyOptions;

static constexpr llvm::StringLiteral Checks[] = {
    "ddp-collective-in-rank-branch", "ddp-rank-gated-barrier"};

Configuration::Configuration(Configuration &&) = default;
Configuration::~Configuration() = default;

/// clang-tidy's parser of .clang-tidy files, after the nesting bound; an
/// error is printed as clang-tidy prints its own (file:line: error: ...), and
/// the file is then skipped as clang-tidy skips one that does not parse.
static llvm::ErrorOr<ClangTidyOptions>
parseBoundedConfiguration(llvm::MemoryBufferRef Config) {
  if (llvm::Error Err = checkYAMLNesting(Config.getBuffer())) {
    llvm::errs() << Config.getBufferIdentifier() << ": error: "
                 << llvm::toString(std::move(Err)) << "\n";
    return std::make_error_code(std::errc::invalid_argument);
  }
  return clang::tidy::parseConfiguration(Config);
}

namespace {
/// clang-tidy's search for .clang-tidy files, with the parser above. (The
/// constructor of FileOptionsProvider that takes handlers leaves its file
/// system unset, so the handlers are replaced here.)
class BoundedFileOptionsProvider : public clang::tidy::FileOptionsProvider {
public:
  explicit BoundedFileOptionsProvider(ClangTidyOptions Defaults)
      : FileOptionsProvider(ClangTidyGlobalOptions(), std::move(Defaults),
                            ClangTidyOptions(),
                            llvm::vfs::getRealFileSystem()) {
    ConfigHandlers = {{".clang-tidy", parseBoundedConfiguration}};
  }
};
} // namespace

llvm::Expected<Configuration> Configuration::create(llvm::StringRef ConfigFile) {
  Configuration C;
  ClangTidyOptions Defaults = ClangTidyOptions::getDefaults();
  if (ConfigFile.empty()) {
    C.Provider = std::make_unique<BoundedFileOptionsProvider>(Defaults);
    return C;
  }
  auto Buffer = llvm::MemoryBuffer::getFile(ConfigFile);
  if (!Buffer)
    return llvm::createStringError(Buffer.getError(), "cannot read '%s': %s",
                                   ConfigFile.str().c_str(),
                                   Buffer.getError().message().c_str());
  return fromText((*Buffer)->getBuffer(), ConfigFile);
}

llvm::Expected<Configuration> Configuration::fromText(llvm::StringRef Text,
                                                      llvm::StringRef Name) {
  Configuration C;
  if (llvm::Error Err = checkYAMLNesting(Text))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "'%s' is not a valid configuration: %s",
                                   Name.str().c_str(),
                                   llvm::toString(std::move(Err)).c_str());
  auto Parsed = clang::tidy::parseConfiguration(
      llvm::MemoryBufferRef(Text, Name));
  if (!Parsed)
    return llvm::createStringError(Parsed.getError(),
                                   "'%s' is not a valid configuration: %s",
                                   Name.str().c_str(),
                                   Parsed.getError().message().c_str());
  C.Provider = std::make_unique<clang::tidy::DefaultOptionsProvider>(
      ClangTidyGlobalOptions(),
      ClangTidyOptions::getDefaults().merge(*Parsed, 0));
  return C;
}

llvm::Expected<AnalysisOptions>
Configuration::optionsFor(llvm::StringRef File) const {
  // The sources in order of precedence, lowest first: defaults, then the
  // .clang-tidy files from the root down. Remember which file set a value,
  // to name it in errors.
  auto Sources = Provider->getRawOptions(File);
  AnalysisOptions Out;
  std::string Error;
  auto Get = [&](llvm::StringRef Name, std::string &Into,
                 std::string *From = nullptr) {
    for (const auto &Entry : Sources) {
      const auto &Opts = Entry.first;
      const auto &Source = Entry.second;
      auto Find = [&](const std::string &Key) {
        auto It = Opts.CheckOptions.find(Key);
        if (It == Opts.CheckOptions.end())
          return false;
        Into = It->second.Value;
        if (From)
          *From = Source;
        return true;
      };
      bool Local = false;
      for (llvm::StringRef Check : Checks)
        Local = Local || Find((Check + "." + Name).str());
      if (!Local)
        Find(Name.str());
    }
  };
  auto Complain = [&](const std::string &Source, const std::string &Why) {
    if (Error.empty())
      Error = "'" + Source + "': " + Why;
  };
  auto GetBool = [&](llvm::StringRef Name, bool &Into) {
    std::string Value, Source;
    Get(Name, Value, &Source);
    if (Value.empty())
      return;
    llvm::StringRef V(Value);
    if (V.equals_insensitive("true") || V == "1")
      Into = true;
    else if (V.equals_insensitive("false") || V == "0")
      Into = false;
    else
      Complain(Source, "option '" + Name.str() +
                           "' must be true or false, not '" + Value + "'");
  };
  // Where each string option was set, to name the file in errors.
  llvm::StringMap<std::string> SourceOf;
  auto GetText = [&](llvm::StringRef Name, std::string &Into) {
    Get(Name, Into, &SourceOf[Name]);
  };
  GetText("Collectives", Out.Collectives);
  GetText("Barriers", Out.Barriers);
  GetText("PointToPoint", Out.PointToPoint);
  GetText("RankSources", Out.RankSources);
  GetText("UniformSources", Out.UniformSources);
  GetText("RankEnvVars", Out.RankEnvVars);
  GetText("RankNamePattern", Out.RankNamePattern);
  GetText("LibraryNamespaces", Out.LibraryNamespaces);
  GetText("SyncWrappers", Out.SyncWrappers);
  GetText("NoSyncMethods", Out.NoSyncMethods);
  GetText("NoSyncGuards", Out.NoSyncGuards);
  GetText("SyncFlags", Out.SyncFlags);
  GetBool("RankLocalData", Out.RankLocalData);
  {
    std::string Value, Source;
    Get("AnalysisBudget", Value, &Source);
    unsigned Budget = 0;
    if (!Value.empty()) {
      if (llvm::StringRef(Value).trim().getAsInteger(10, Budget))
        Complain(Source, "option 'AnalysisBudget' must be a number of steps "
                         "(0 for no limit), not '" + Value + "'");
      else
        Out.AnalysisBudget = Budget;
    }
  }
  GetBool("RankNameHeuristic", Out.RankNameHeuristic);
  for (const OptionProblem &P : problemsIn(Out))
    Complain(SourceOf[P.Option], "option '" + P.Option + "' has a bad value '" +
                                     P.Value + "': " + P.Problem);
  if (!Error.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s",
                                   Error.c_str());
  return Out;
}

} // namespace ddp::driver
