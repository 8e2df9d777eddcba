//===--- Configuration.cpp - The checks' options, read for the driver -----===//

#include "Configuration.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/VirtualFileSystem.h"

namespace ddp::driver {

using clang::tidy::ClangTidyGlobalOptions;
using clang::tidy::ClangTidyOptions;

static constexpr llvm::StringLiteral Checks[] = {
    "ddp-collective-in-rank-branch", "ddp-rank-gated-barrier"};

Configuration::Configuration(Configuration &&) = default;
Configuration::~Configuration() = default;

llvm::Expected<Configuration> Configuration::create(llvm::StringRef ConfigFile) {
  Configuration C;
  ClangTidyOptions Defaults = ClangTidyOptions::getDefaults();
  if (ConfigFile.empty()) {
    C.Provider = std::make_unique<clang::tidy::FileOptionsProvider>(
        ClangTidyGlobalOptions(), Defaults, ClangTidyOptions(),
        llvm::vfs::getRealFileSystem());
    return C;
  }
  auto Buffer = llvm::MemoryBuffer::getFile(ConfigFile);
  if (!Buffer)
    return llvm::createStringError(Buffer.getError(), "cannot read '%s': %s",
                                   ConfigFile.str().c_str(),
                                   Buffer.getError().message().c_str());
  auto Parsed = clang::tidy::parseConfiguration(**Buffer);
  if (!Parsed)
    return llvm::createStringError(Parsed.getError(),
                                   "'%s' is not a valid configuration: %s",
                                   ConfigFile.str().c_str(),
                                   Parsed.getError().message().c_str());
  C.Provider = std::make_unique<clang::tidy::DefaultOptionsProvider>(
      ClangTidyGlobalOptions(), Defaults.merge(*Parsed, 0));
  return C;
}

llvm::Expected<AnalysisOptions>
Configuration::optionsFor(llvm::StringRef File) const {
  ClangTidyOptions Opts = Provider->getOptions(File);
  AnalysisOptions Out;
  std::string Error;
  auto Get = [&](llvm::StringRef Name, std::string &Into) {
    for (llvm::StringRef Check : Checks) {
      auto It = Opts.CheckOptions.find((Check + "." + Name).str());
      if (It != Opts.CheckOptions.end()) {
        Into = It->second.Value;
        return;
      }
    }
    auto It = Opts.CheckOptions.find(Name);
    if (It != Opts.CheckOptions.end())
      Into = It->second.Value;
  };
  auto GetBool = [&](llvm::StringRef Name, bool &Into) {
    std::string Value;
    Get(Name, Value);
    if (Value.empty())
      return;
    llvm::StringRef V(Value);
    if (V.equals_insensitive("true") || V == "1")
      Into = true;
    else if (V.equals_insensitive("false") || V == "0")
      Into = false;
    else if (Error.empty())
      Error = "option '" + Name.str() + "' must be true or false, not '" +
              Value + "'";
  };
  Get("Collectives", Out.Collectives);
  Get("Barriers", Out.Barriers);
  Get("PointToPoint", Out.PointToPoint);
  Get("RankSources", Out.RankSources);
  Get("UniformSources", Out.UniformSources);
  Get("RankEnvVars", Out.RankEnvVars);
  Get("RankNamePattern", Out.RankNamePattern);
  Get("LibraryNamespaces", Out.LibraryNamespaces);
  GetBool("RankLocalData", Out.RankLocalData);
  GetBool("RankNameHeuristic", Out.RankNameHeuristic);
  std::string RegexError;
  if (Error.empty() && !Out.RankNamePattern.empty() &&
      !llvm::Regex(Out.RankNamePattern).isValid(RegexError))
    Error = "option 'RankNamePattern' is not a valid regular expression: " +
            RegexError;
  if (!Error.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "configuration for '%s': %s",
                                   File.str().c_str(), Error.c_str());
  return Out;
}

} // namespace ddp::driver
