//===--- TranslationUnitAnalysis.h - The analysis of one TU ---------------===//
//
// Finds the functions of a translation unit that belong to the user (not to
// a library or a system header), runs the rank-uniformity analysis on all of
// them until the TU-wide facts (rank-dependent fields, parameters, returns)
// settle, then summarises their collectives bottom-up over the call graph
// and reports the rank-dependent branches whose sides differ.
//
//===----------------------------------------------------------------------===//

#ifndef DDP_CORE_TRANSLATIONUNITANALYSIS_H
#define DDP_CORE_TRANSLATIONUNITANALYSIS_H

#include "core/AnalysisContext.h"
#include "core/Finding.h"
#include "core/FunctionAnalysis.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <memory>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
class LambdaExpr;
} // namespace clang

namespace ddp {

class TranslationUnitAnalysis : public FunctionIndex {
public:
  TranslationUnitAnalysis(clang::ASTContext &AST, const AnalysisOptions &Opts);
  /// For the whole-program driver: \p ExternalKey names functions (by USR),
  /// and calls of functions whose bodies are in other TUs are kept in the
  /// summaries for the driver to resolve.
  TranslationUnitAnalysis(
      clang::ASTContext &AST, const AnalysisOptions &Opts,
      std::function<std::string(const clang::FunctionDecl *)> ExternalKey);
  ~TranslationUnitAnalysis() override;

  /// Analyses the whole TU. Called again after facts were added (by the
  /// driver, from other TUs), it analyses again what they change.
  void run();

  const std::vector<Finding> &findings() const { return Findings; }
  /// About the memory the analysis holds, in bytes.
  size_t memoryBytes() const;
  /// After run(): the functions whose analysis ran out of its budget, in
  /// discovery order. Nothing in them is reported.
  std::vector<const FunctionAnalysis *> skipped() const;
  /// The user's functions with bodies that the analysis cannot trust (code
  /// that did not compile, see BrokenCode.h), in discovery order: none of
  /// them is analysed. Why: context().distrust(FD).
  const std::vector<const clang::FunctionDecl *> &broken() const {
    return Broken;
  }
  /// Rank-dependent branches whose sides call functions of other TUs: only
  /// the driver can compare them (driver mode only).
  const std::vector<Finding> &deferred() const { return Deferred; }

  /// The context, for the driver to add facts from other TUs before run()
  /// and to read what this TU exports after it.
  AnalysisContext &context() { return Ctx; }
  /// The user's functions with bodies, in discovery order (after run()).
  const std::vector<const clang::FunctionDecl *> &functions() const {
    return Roots;
  }
  /// The analysis of \p FD if it has one.
  FunctionAnalysis *analysis(const clang::FunctionDecl *FD) { return get(FD); }
  /// After run(): why \p E, in the body of \p FD, depends on the rank.
  const Origin *divergenceOf(const clang::FunctionDecl *FD, const clang::Expr *E);
  /// After run(): why the branch that decides whether \p S, in the body of
  /// \p FD, runs depends on the rank; null if it runs on every rank.
  const Origin *controllingBranch(const clang::FunctionDecl *FD,
                                  const clang::Stmt *S);

  const SummaryNode *summaryOf(const clang::FunctionDecl *Callee) override;
  const FunctionAnalysis *
  analysisOf(const clang::FunctionDecl *Callee) override;
  const SummaryNode *
  dispatchSummaryOf(const clang::CXXMethodDecl *Method) override;
  std::vector<const clang::FunctionDecl *>
  dispatchTargets(const clang::CXXMethodDecl *Method) override;

private:
  void discover();
  FunctionAnalysis *get(const clang::FunctionDecl *FD);
  /// The analysed functions, each after the functions it calls.
  std::vector<const clang::FunctionDecl *> bottomUp();
  /// The parameters that calls pass rank-dependent arguments, and the
  /// fields and globals that become rank-dependent through them.
  void resolveInputs();

  AnalysisContext Ctx;
  std::vector<const clang::FunctionDecl *> Roots;
  std::vector<const clang::FunctionDecl *> Broken;
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<FunctionAnalysis>>
      Functions;
  llvm::DenseSet<const clang::FunctionDecl *> InProgress;
  llvm::DenseSet<const clang::FunctionDecl *> Summarised;
  llvm::DenseMap<const clang::FunctionDecl *, const SummaryNode *>
      PreviousRound;
  /// The methods defined in the TU that override each virtual method
  /// (canonical declarations), directly or further down.
  llvm::DenseMap<const clang::CXXMethodDecl *,
                 std::vector<const clang::FunctionDecl *>>
      Overriders;
  /// Lambdas given to register_hook: gradient hooks.
  std::vector<const clang::FunctionDecl *> Hooks;
  bool ReducerSeen = false;
  bool Discovered = false;
  std::vector<Finding> Findings;
  std::vector<Finding> Deferred;
};

} // namespace ddp

#endif // DDP_CORE_TRANSLATIONUNITANALYSIS_H
