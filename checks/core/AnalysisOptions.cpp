//===--- AnalysisOptions.cpp - Checking the settings of the analysis ------===//

#include "core/AnalysisOptions.h"
#include "core/OptionList.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/Regex.h"

namespace ddp {

/// The first item of \p List that is not a valid pattern, and why.
static std::optional<OptionProblem> badPattern(llvm::StringRef Option,
                                               llvm::StringRef List,
                                               bool ArgSuffix) {
  for (llvm::StringRef Item : splitList(List)) {
    llvm::StringRef Pattern = Item;
    size_t At = Item.rfind('@');
    if (ArgSuffix && At != llvm::StringRef::npos) {
      unsigned Arg;
      if (Item.substr(At + 1).getAsInteger(10, Arg))
        return OptionProblem{Option.str(), Item.str(),
                             "the part after '@' must be an argument number"};
      Pattern = Item.substr(0, At);
    }
    // Qualifier and name are matched apart: check each.
    llvm::SmallVector<llvm::StringRef, 4> Parts;
    Pattern.split(Parts, "::");
    for (llvm::StringRef Part : Parts) {
      if (!hasGlobChars(Part))
        continue;
      llvm::Expected<llvm::GlobPattern> Glob = llvm::GlobPattern::create(Part);
      if (!Glob)
        return OptionProblem{Option.str(), Item.str(),
                             llvm::toString(Glob.takeError())};
    }
  }
  return std::nullopt;
}

std::vector<OptionProblem> problemsIn(const AnalysisOptions &Opts) {
  std::vector<OptionProblem> Problems;
  struct {
    llvm::StringRef Name;
    const std::string &Value;
    bool ArgSuffix;
  } Lists[] = {{"Collectives", Opts.Collectives, true},
               {"Barriers", Opts.Barriers, true},
               {"PointToPoint", Opts.PointToPoint, true},
               {"RankSources", Opts.RankSources, true},
               {"UniformSources", Opts.UniformSources, true},
               {"SyncWrappers", Opts.SyncWrappers, false},
               {"NoSyncGuards", Opts.NoSyncGuards, false}};
  for (const auto &List : Lists)
    if (auto Problem = badPattern(List.Name, List.Value, List.ArgSuffix))
      Problems.push_back(std::move(*Problem));
  std::string RegexError;
  if (!Opts.RankNamePattern.empty() &&
      !llvm::Regex(Opts.RankNamePattern).isValid(RegexError))
    Problems.push_back({"RankNamePattern", Opts.RankNamePattern,
                        "not a valid regular expression: " + RegexError});
  return Problems;
}

} // namespace ddp
