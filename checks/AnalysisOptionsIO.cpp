//===--- AnalysisOptionsIO.cpp - The analysis core's options --------------===//

#include "AnalysisOptionsIO.h"

namespace clang::tidy::ddp {

::ddp::AnalysisOptions
readAnalysisOptions(const ClangTidyCheck &Check,
                    const ClangTidyCheck::OptionsView &Options) {
  ::ddp::AnalysisOptions Defaults, Analysis;
  Analysis.Collectives = Options.getLocalOrGlobal("Collectives", "").str();
  Analysis.Barriers = Options.getLocalOrGlobal("Barriers", "").str();
  Analysis.PointToPoint = Options.getLocalOrGlobal("PointToPoint", "").str();
  Analysis.RankSources = Options.getLocalOrGlobal("RankSources", "").str();
  Analysis.UniformSources =
      Options.getLocalOrGlobal("UniformSources", "").str();
  Analysis.RankEnvVars =
      Options.getLocalOrGlobal("RankEnvVars", Defaults.RankEnvVars).str();
  Analysis.RankLocalData =
      Options.getLocalOrGlobal("RankLocalData", Defaults.RankLocalData);
  Analysis.RankNameHeuristic = Options.getLocalOrGlobal(
      "RankNameHeuristic", Defaults.RankNameHeuristic);
  Analysis.AnalysisBudget =
      Options.getLocalOrGlobal("AnalysisBudget", Defaults.AnalysisBudget);
  Analysis.RankNamePattern =
      Options.getLocalOrGlobal("RankNamePattern", Defaults.RankNamePattern)
          .str();
  Analysis.LibraryNamespaces =
      Options.getLocalOrGlobal("LibraryNamespaces", Defaults.LibraryNamespaces)
          .str();
  Analysis.SyncWrappers =
      Options.getLocalOrGlobal("SyncWrappers", Defaults.SyncWrappers).str();
  Analysis.NoSyncMethods =
      Options.getLocalOrGlobal("NoSyncMethods", Defaults.NoSyncMethods).str();
  Analysis.NoSyncGuards =
      Options.getLocalOrGlobal("NoSyncGuards", Defaults.NoSyncGuards).str();
  Analysis.SyncFlags =
      Options.getLocalOrGlobal("SyncFlags", Defaults.SyncFlags).str();
  // Worded like clang-tidy's own "invalid configuration value" warnings;
  // the checks that read the same global option give the same message,
  // which clang-tidy shows once.
  for (const ::ddp::OptionProblem &P : ::ddp::problemsIn(Analysis))
    Check.configurationDiag("invalid configuration value '%0' for option "
                            "'%1': %2")
        << P.Value << P.Option << P.Problem;
  return Analysis;
}

void storeAnalysisOptions(const ClangTidyCheck::OptionsView &Options,
                          ClangTidyOptions::OptionMap &Opts,
                          const ::ddp::AnalysisOptions &Analysis) {
  Options.store(Opts, "Collectives", Analysis.Collectives);
  Options.store(Opts, "Barriers", Analysis.Barriers);
  Options.store(Opts, "PointToPoint", Analysis.PointToPoint);
  Options.store(Opts, "RankSources", Analysis.RankSources);
  Options.store(Opts, "UniformSources", Analysis.UniformSources);
  Options.store(Opts, "RankEnvVars", Analysis.RankEnvVars);
  Options.store(Opts, "RankLocalData", Analysis.RankLocalData);
  Options.store(Opts, "RankNameHeuristic", Analysis.RankNameHeuristic);
  Options.store(Opts, "AnalysisBudget", Analysis.AnalysisBudget);
  Options.store(Opts, "RankNamePattern", Analysis.RankNamePattern);
  Options.store(Opts, "LibraryNamespaces", Analysis.LibraryNamespaces);
  Options.store(Opts, "SyncWrappers", Analysis.SyncWrappers);
  Options.store(Opts, "NoSyncMethods", Analysis.NoSyncMethods);
  Options.store(Opts, "NoSyncGuards", Analysis.NoSyncGuards);
  Options.store(Opts, "SyncFlags", Analysis.SyncFlags);
}

} // namespace clang::tidy::ddp
