//===--- AnalysisContext.h - What the analysis of one TU shares -----------===//

#ifndef DDP_CORE_ANALYSISCONTEXT_H
#define DDP_CORE_ANALYSISCONTEXT_H

#include "core/AnalysisOptions.h"
#include "core/BrokenCode.h"
#include "core/CollectiveCatalogue.h"
#include "core/CollectiveSummary.h"
#include "core/Dependence.h"
#include "core/GradientSync.h"
#include "core/Origin.h"
#include "core/UniformDecisions.h"
#include "core/UnresolvedCalls.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Regex.h"
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include "clang/AST/Type.h"

namespace clang {
class ASTContext;
class CallExpr;
class Decl;
class Expr;
class CXXMethodDecl;
class FunctionDecl;
class ParmVarDecl;
class RecordDecl;
class VarDecl;
class ValueDecl;
class SourceRange;
} // namespace clang

namespace ddp {

class CallSites;
class SoleObjects;

/// Facts that hold across the translation unit and grow monotonically while
/// the functions are analysed: fields, globals and captured variables that
/// hold a rank-dependent value, the dependence summaries of the functions,
/// and the parameters that some call passes a rank-dependent argument (in
/// this TU or, by the whole-program driver, in another).
class RankFacts {
public:
  /// What a fact is about: a function's summary, a parameter's actual
  /// argument (or rank variable's name), a field, global or captured
  /// variable, or a variable that holds the world size.
  enum class About : unsigned { Summary, Actual, EnvActual, Decl, WorldSize };
  using Key = std::pair<const void *, unsigned>;
  /// The facts an analysis looked up, whether it found them or not.
  using ReadSet = llvm::DenseSet<Key>;

  /// While alive, every lookup goes into \p Into (as well as into the
  /// reader it replaced, which may have started the nested analysis).
  class Recorder {
  public:
    Recorder(const RankFacts &Facts, ReadSet &Into)
        : Facts(Facts), Saved(Facts.Reader) {
      Facts.Reader = &Into;
      Into.clear();
    }
    ~Recorder() {
      if (Saved)
        Saved->insert(Facts.Reader->begin(), Facts.Reader->end());
      Facts.Reader = Saved;
    }

  private:
    const RankFacts &Facts;
    ReadSet *Saved;
  };
  /// Whether a fact in \p Read changed after generation \p Since.
  bool changedSince(const ReadSet &Read, unsigned Since) const;
  /// Counts \p Read as looked up again (an answer cached from them is used).
  void reread(const ReadSet &Read) const {
    if (Reader)
      Reader->insert(Read.begin(), Read.end());
  }

  /// The dependence summary of \p FD, if it was analysed here (or, by the
  /// whole-program driver, in another TU).
  const DepSummary *summary(const clang::FunctionDecl *FD) const;
  /// Joins \p S into \p FD's summary (summaries only grow).
  void mergeSummary(const clang::FunctionDecl *FD, const DepSummary &S) {
    auto It = Summaries.find(canonical(FD));
    replaceSummary(FD, It == Summaries.end() ? S : join(It->second, S));
  }
  /// Replaces \p FD's summary with \p S, which depends on at least what it
  /// replaces (a function of another TU, as the driver learns more of it).
  void replaceSummary(const clang::FunctionDecl *FD, const DepSummary &S) {
    auto [It, New] = Summaries.try_emplace(canonical(FD), S);
    if (New || It->second != S) {
      It->second = S;
      changed(key(About::Summary, canonical(FD)));
    }
  }
  /// Why some call passes parameter \p P a rank-dependent argument (with
  /// \p Env: the name of a rank environment variable), or null.
  const Origin *actual(const clang::ParmVarDecl *P, bool Env) const {
    read(key(Env ? About::EnvActual : About::Actual, P));
    return Actuals.lookup({P, unsigned(Env)});
  }
  /// A call that passes a whole rank-dependent argument replaces one that
  /// passes a container whose elements alone depend on the rank.
  bool setActual(const clang::ParmVarDecl *P, bool Env, const Origin *Why) {
    if (!Why)
      return false;
    auto [It, New] = Actuals.try_emplace({P, unsigned(Env)}, Why);
    if (!New) {
      if (!It->second->ElementsOnly || Why->ElementsOnly)
        return false;
      It->second = Why;
    }
    changed(key(Env ? About::EnvActual : About::Actual, P));
    return true;
  }
  const Origin *decl(const clang::ValueDecl *D) const {
    read(key(About::Decl, D));
    return Decls.lookup(D);
  }
  void addDecl(const clang::ValueDecl *D, const Origin *Why) {
    if (Why && Decls.try_emplace(D, Why).second)
      changed(key(About::Decl, D));
  }
  /// Variables written with the world size by an out-parameter
  /// (MPI_Comm_size(comm, &np)).
  bool isWorldSize(const clang::ValueDecl *D) const {
    read(key(About::WorldSize, D));
    return WorldSizes.contains(D);
  }
  void addWorldSize(const clang::ValueDecl *D) {
    if (WorldSizes.insert(D).second)
      changed(key(About::WorldSize, D));
  }
  /// A function whose body is in another TU, and whose summary the driver
  /// has not brought, was taken to return a rank-dependent value because it
  /// got a rank-dependent argument: its summary may correct the guess.
  void assumeReturn(const clang::FunctionDecl *FD) {
    AssumedReturns.insert(canonical(FD));
  }
  const llvm::DenseSet<const clang::FunctionDecl *> &assumedReturns() const {
    return AssumedReturns;
  }
  /// Changes whenever a fact is added.
  unsigned generation() const { return Generation; }

private:
  static const clang::FunctionDecl *canonical(const clang::FunctionDecl *FD);
  static Key key(About A, const void *P) { return {P, unsigned(A)}; }
  void read(Key K) const {
    if (Reader)
      Reader->insert(K);
  }
  void changed(Key K) { ChangedAt[K] = ++Generation; }
  llvm::DenseMap<const clang::FunctionDecl *, DepSummary> Summaries;
  llvm::DenseSet<const clang::FunctionDecl *> AssumedReturns;
  llvm::DenseMap<std::pair<const clang::ParmVarDecl *, unsigned>,
                 const Origin *>
      Actuals;
  llvm::DenseMap<const clang::ValueDecl *, const Origin *> Decls;
  llvm::DenseSet<const clang::ValueDecl *> WorldSizes;
  /// The generation at which each fact last changed.
  llvm::DenseMap<Key, unsigned> ChangedAt;
  mutable ReadSet *Reader = nullptr;
  unsigned Generation = 0;
};

/// True for names that conventionally hold the number of ranks
/// (world_size, nranks, num_replicas, ...).
bool isWorldSizeName(llvm::StringRef Name);
/// True for std::move(x) and std::forward<T>(x): they name x and write
/// nothing.
bool isStdMove(const clang::CallExpr *Call);

class AnalysisContext {
public:
  AnalysisContext(clang::ASTContext &AST, const AnalysisOptions &Opts);
  ~AnalysisContext();

  clang::ASTContext &AST;
  const AnalysisOptions &Opts;
  CollectiveCatalogue Catalogue;
  /// DDP-like wrappers, their no-sync guards and flags.
  GradientSyncModel Sync;
  /// backward() calls made while synchronisation is off (under a no-sync
  /// guard, or with the sync flag false): never collectives.
  llvm::DenseSet<const clang::CallExpr *> UnsyncedBackwards;
  SummaryContext Summaries;
  /// The uniform decisions summaries name, and what each tests.
  DecisionTable Decisions;
  RankFacts Facts;
  /// Gradient synchronisation is armed somewhere in the TU (a c10d::Reducer,
  /// or a parameter hook that issues collectives): backward() synchronises.
  bool GradientSyncArmed = false;
  /// Set by the whole-program driver: the stable key (USR) of a function.
  /// When set, a call of a user function whose body is elsewhere becomes a
  /// Call node in summaries instead of issuing nothing.
  std::function<std::string(const clang::FunctionDecl *)> ExternalKey;
  /// Driver mode: the key of a virtual call of \p Method, which the driver
  /// resolves to every body the call can dispatch to, in any TU.
  static constexpr llvm::StringLiteral DispatchPrefix = "dispatch:";
  std::string dispatchKey(const clang::FunctionDecl *Method) const {
    return DispatchPrefix.str() + ExternalKey(Method);
  }
  /// Set by the TU analysis: the bodies in this TU a virtual call of
  /// \p Method can run.
  std::function<std::vector<const clang::FunctionDecl *>(
      const clang::CXXMethodDecl *)>
      DispatchTargets;
  /// What a virtual call of the pure method \p Method returns and leaves in
  /// its parameters: what one of its overrides here does (a parameter is
  /// synchronised only if every override synchronises it; one that an
  /// override leaves alone keeps the caller's value). Null in driver mode
  /// (the driver brings this from every TU), or while an override has no
  /// summary yet.
  const DepSummary *dispatchSummary(const clang::CXXMethodDecl *Method);
  /// True if \p FD is a user function whose body is not in this TU: the
  /// driver finds it in another.
  bool isExternalUserFunction(const clang::FunctionDecl *FD) const;
  /// Driver mode: summaries whose collectives and calls carry where they
  /// are, for reports. Never compared.
  SummaryContext Located;
  /// A tag for \p Loc in located summaries, and back.
  unsigned tag(clang::SourceLocation Loc) {
    auto [It, New] =
        Tags.try_emplace(Loc.getRawEncoding(), unsigned(TagLocs.size() + 1));
    if (New)
      TagLocs.push_back(Loc);
    return It->second;
  }
  clang::SourceLocation tagLoc(unsigned Tag) const {
    return Tag && Tag <= TagLocs.size() ? TagLocs[Tag - 1]
                                        : clang::SourceLocation();
  }

  /// An explanation link, created once per (anchor, key) so that repeated
  /// passes of a fixed-point iteration see the same pointer. One that says
  /// only a container's elements depend on the rank (\p ElementsOnly) is
  /// another link: a later pass may find the length rank-dependent too.
  const Origin *origin(const void *Anchor, const void *Key,
                       clang::SourceLocation Loc,
                       llvm::function_ref<std::string()> Message,
                       const Origin *Cause, bool FromControl = false,
                       bool ExactRank = false, bool LocalData = false,
                       bool ElementsOnly = false);

  /// The placeholder for the value of \p P as a caller passes it (with
  /// \p Env: for what getenv returns for the name it holds).
  const Origin *placeholder(const clang::ParmVarDecl *P, bool Env);
  /// The placeholder a conditional explanation ends at, or null.
  static const Origin *rootOf(const Origin *O);
  /// \p O with the placeholder it ends at replaced by \p Repl: a caller's
  /// (or the resolved) explanation of that input. Links are copied once per
  /// replacement.
  const Origin *substitute(const Origin *O, const Origin *Repl);
  /// \p Link, then \p Cause (instead of its own cause).
  const Origin *relink(const Origin *Link, const Origin *Cause);
  /// Why \p D is rank-dependent in some call of its function: its own
  /// explanation if divergent; for a conditional value, the explanation
  /// through a call that passes a rank-dependent input (Facts' actuals).
  /// Null if no call does.
  const Origin *resolve(const Dep &D);

  /// An explanation link that lies in another translation unit, at
  /// \p Where ("file:line:column").
  const Origin *elsewhere(const void *Anchor, const void *Key,
                          std::string Where, std::string Message,
                          const Origin *Cause, bool ElementsOnly = false);

  /// The source text of \p R, on one line, shortened to \p Max characters.
  std::string text(clang::SourceRange R, size_t Max = 48) const;
  std::string text(const clang::Expr *E, size_t Max = 48) const;

  /// True for names RankNamePattern matches (remembered per name: the
  /// uniformity analysis asks for every variable it reads).
  bool isRankName(llvm::StringRef Name) const;
  /// True for c10d process groups, backends and stores, other frameworks'
  /// classes named ProcessGroup, and pointers to them: built with the rank
  /// as an argument, yet the same group on every rank.
  bool isGroupType(clang::QualType T);
  /// A variable of RankEnvVars, or, with RankNameHeuristic, one named like
  /// a rank (`GLOBAL_PROC_RANK`, not `LORA_RANK`).
  bool isRankEnvVar(llvm::StringRef Name) const {
    return RankEnvVars.contains(Name) || isRankName(Name);
  }
  /// True for declarations in library namespaces or system headers: their
  /// behaviour comes from the catalogue, not from their bodies.
  bool isLibraryDecl(const clang::Decl *D) const;
  /// True if \p FD has a body that the analysis should look into: the
  /// user's, not a template's, and one it can trust (see BrokenCode.h).
  bool isAnalysable(const clang::FunctionDecl *FD) const;
  /// Why the definition \p Def cannot be trusted, or Distrust::None.
  /// Memoised.
  Distrust distrust(const clang::FunctionDecl *Def) const;
  /// True if \p FD is the user's function with a body, left out because the
  /// body cannot be trusted: what a call of it issues is unknown.
  bool isBrokenUserFunction(const clang::FunctionDecl *FD) const;

  /// The TU had compile errors: bodies are checked for dropped statements.
  bool TUHasErrors = false;
  /// Calls that did not compile, matched to the catalogue by name.
  UnresolvedCalls Unresolved;
  /// True if \p Name is the name of one of the user's functions with a body
  /// (analysed or not): a call that did not compile and has this name may
  /// be a call of it. Found on the first question (only code with errors
  /// asks).
  bool isUserFunctionName(llvm::StringRef Name) const;
  /// True if the TU calls \p FD and uses it only as a direct call's callee
  /// (see CallSites.h). Found on the first question.
  bool onlyCalledDirectly(const clang::FunctionDecl *FD) const;
  /// The global through which every access to a field of \p Record in the
  /// TU goes, or null (see SoleObjects.h). Found on the first question.
  const clang::VarDecl *soleObject(const clang::RecordDecl *Record) const;
  /// About the memory the explanations hold, in bytes.
  size_t memoryBytes() const {
    return Origins.size() * (sizeof(Origin) + 64) + OriginIndex.getMemorySize();
  }

private:
  std::vector<clang::SourceLocation> TagLocs;
  llvm::DenseMap<clang::SourceLocation::UIntTy, unsigned> Tags;
  std::deque<Origin> Origins;
  llvm::DenseMap<std::tuple<const void *, const void *, unsigned>,
                 const Origin *>
      OriginIndex;
  llvm::Regex RankName;
  bool RankNameValid = false;
  mutable llvm::StringMap<bool> RankNameMatches;
  llvm::StringSet<> RankEnvVars;
  llvm::StringSet<> LibraryNamespaces;
  llvm::DenseMap<const clang::Type *, bool> GroupTypes;
  mutable llvm::DenseMap<const clang::FunctionDecl *, Distrust> Distrusts;
  mutable std::optional<llvm::StringSet<>> UserFunctionNames;
  mutable std::unique_ptr<CallSites> Calls;
  mutable std::unique_ptr<SoleObjects> Soles;
  std::optional<DepSummary> joinOverrides(const clang::CXXMethodDecl *Method);
  struct CachedDispatch {
    unsigned Generation = ~0u;
    std::optional<DepSummary> Summary;
    /// The facts it was made of.
    RankFacts::ReadSet Read;
  };
  llvm::DenseMap<const clang::CXXMethodDecl *, CachedDispatch> Dispatches;
};

} // namespace ddp

#endif // DDP_CORE_ANALYSISCONTEXT_H
