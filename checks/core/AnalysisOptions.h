//===--- AnalysisOptions.h - Settings of the analysis core ----------------===//

#ifndef DDP_CORE_ANALYSISOPTIONS_H
#define DDP_CORE_ANALYSISOPTIONS_H

#include <string>
#include <vector>

namespace ddp {

/// Everything a user can configure about the analysis. The clang-tidy checks
/// fill it from CheckOptions; the driver from the same .clang-tidy files.
struct AnalysisOptions {
  /// Extra catalogue entries, ';'-separated qualified names or globs
  /// ("MyComm::sync;my_allreduce"). A method pattern also matches the method
  /// on derived classes.
  std::string Collectives;
  std::string Barriers;
  std::string PointToPoint;
  /// Calls that return the rank; "name@N" names an out-parameter instead.
  std::string RankSources;
  /// Calls whose result is the same on every rank (world size, config).
  std::string UniformSources;
  /// Environment variables that hold a rank when read with getenv; with
  /// RankNameHeuristic, so do those named like a rank (GLOBAL_PROC_RANK).
  std::string RankEnvVars =
      "RANK;LOCAL_RANK;NODE_RANK;GROUP_RANK;ROLE_RANK;"
      "OMPI_COMM_WORLD_RANK;OMPI_COMM_WORLD_LOCAL_RANK;"
      "OMPI_COMM_WORLD_NODE_RANK;PMI_RANK;PMIX_RANK;MPI_LOCALRANKID;"
      "SLURM_PROCID;SLURM_LOCALID;MV2_COMM_WORLD_RANK;"
      "MV2_COMM_WORLD_LOCAL_RANK;FLUX_TASK_RANK;FLUX_TASK_LOCAL_ID;"
      "PALS_RANKID;PALS_LOCAL_RANKID;JSM_NAMESPACE_RANK;"
      "JSM_NAMESPACE_LOCAL_RANK;HOROVOD_RANK;HOROVOD_LOCAL_RANK;"
      "HOROVOD_CROSS_RANK";
  /// Treat values read from tensors this rank computed (loss.item()) as
  /// rank-dependent unless the tensor went through a collective: a NaN or
  /// an early-stopping test on one rank's loss.
  bool RankLocalData = true;
  /// Take parameters, fields and globals named like a rank as rank-dependent
  /// when their value is set outside the code being analysed.
  bool RankNameHeuristic = true;
  /// Steps (CFG blocks visited) the analysis of one function may take. A
  /// function that needs more (thousands of rank-dependent branches nested
  /// in one another) is skipped with a remark instead of taking unbounded
  /// time. 0: no limit.
  unsigned AnalysisBudget = 5000000;
  /// Case-insensitive regular expression for such names.
  std::string RankNamePattern =
      "^(m_|_)?((my|local|global|node|world|proc|process)_?)*rank(_?id)?_?$|"
      "^(m_|_)?is_?(master|main|main_?process|root|rank_?0|rank_?zero|chief|"
      "leader|coordinator)(_?rank)?_?$";
  /// DDP-like wrapper modules whose backward synchronises gradients:
  /// ';'-separated class names or globs, matched against the qualified name
  /// when the pattern has '::' and the plain name otherwise. Both the module
  /// class and its TORCH_MODULE holder match `*DistributedDataParallel*`.
  std::string SyncWrappers = "*DistributedDataParallel*;DDP;DDPImpl";
  /// Methods of a wrapper that turn synchronisation off for the scope of the
  /// guard they return.
  std::string NoSyncMethods = "no_sync";
  /// Guard types that turn synchronisation off while they live. A forward
  /// pass under torch::NoGradGuard builds no graph and arms no reduction.
  std::string NoSyncGuards = "*NoSyncGuard;*NoGradGuard";
  /// Flags (fields or variables) that turn synchronisation off when false.
  std::string SyncFlags = "require_backward_grad_sync";
  /// Top-level namespaces whose code is described by the catalogue rather
  /// than analysed (library code).
  std::string LibraryNamespaces =
      "std;c10;at;torch;c10d;caffe2;gloo;tensorpipe;fmt;google;pybind11;"
      "__gnu_cxx;boost;Eigen;llvm;clang";
};

/// An option value the analysis cannot use.
struct OptionProblem {
  std::string Option;
  std::string Value;
  std::string Problem;
};

/// The values of \p Opts that are not valid: a list item that is not a
/// valid glob or has a bad "@N" suffix, a regular expression that does not
/// compile. The analysis ignores them; the front ends report them.
std::vector<OptionProblem> problemsIn(const AnalysisOptions &Opts);

} // namespace ddp

#endif // DDP_CORE_ANALYSISOPTIONS_H
