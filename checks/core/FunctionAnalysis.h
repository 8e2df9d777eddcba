//===--- FunctionAnalysis.h - Collectives and divergence in one function --===//
//
// Builds a function's CFG and post-dominator tree, runs the rank-uniformity
// analysis on it, finds the calls that issue collectives (directly or through
// helpers), summarises the sequences of collectives the function can issue,
// and compares, at each rank-dependent branch, the summaries of its sides up
// to their join (the immediate post-dominator). Cost: linear in the size of
// the function per rank-dependent branch; paths are never enumerated.
//
//===----------------------------------------------------------------------===//

#ifndef DDP_CORE_FUNCTIONANALYSIS_H
#define DDP_CORE_FUNCTIONANALYSIS_H

#include "core/AnalysisContext.h"
#include "core/DecidedTests.h"
#include "core/Finding.h"
#include "core/RankUniformity.h"
#include "core/UniformDecisions.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <memory>
#include <optional>
#include <vector>

namespace clang {
class CFG;
class ParentMap;
class CFGBlock;
class CallExpr;
class FunctionDecl;
class CXXMethodDecl;
template <bool IsPostDom> class CFGDominatorTreeImpl;
using CFGPostDomTree = CFGDominatorTreeImpl<true>;
} // namespace clang

namespace ddp {

/// A call that issues collectives.
struct CallSite {
  /// A CallExpr, or a CXXConstructExpr of a constructor that communicates.
  const clang::Expr *Call = nullptr;
  const clang::CFGBlock *Block = nullptr;
  /// What the call issues: an Op node for a direct collective, the callee's
  /// summary for a call of a helper.
  const SummaryNode *Summary = nullptr;
  /// The helper called, for indirect sites.
  const clang::FunctionDecl *Callee = nullptr;
  bool IsBarrier = false;
  /// The call is a destructor run at the end of a scope.
  bool IsDestructor = false;
  /// The communicator the collective runs on (MPI_Comm, ncclComm_t), or the
  /// only one a helper is given; null if none.
  const clang::Expr *Communicator = nullptr;
  /// The call dispatches on its object's dynamic type: Callee is the
  /// method the static type names, and any override may run.
  bool IsDispatch = false;
  /// The call did not compile and was matched to the catalogue by name.
  const UnresolvedCall *ByName = nullptr;
  /// The index of the call's element in its block.
  unsigned Element = 0;
};

class FunctionAnalysis;
class FailurePaths;
class CommunicatorMembership;

/// How to name the helper \p Callee called by \p Call: its name, a
/// module's forward by its class, or for a lambda the variable that holds it.
std::string calleeName(const clang::Expr *Call,
                       const clang::FunctionDecl *Callee);

/// How a function's analysis reaches the other functions of the TU.
class FunctionIndex {
public:
  virtual ~FunctionIndex() = default;
  /// The summary of \p Callee; empty for functions without a visible body.
  virtual const SummaryNode *summaryOf(const clang::FunctionDecl *Callee) = 0;
  /// The analysis of \p Callee, or null if it has none.
  virtual const FunctionAnalysis *
  analysisOf(const clang::FunctionDecl *Callee) = 0;
  /// What a virtual call of \p Method can issue: one of the bodies it can
  /// dispatch to (its own unless pure, and its overrides').
  virtual const SummaryNode *
  dispatchSummaryOf(const clang::CXXMethodDecl *Method) = 0;
  /// The bodies in this TU a virtual call of \p Method can run.
  virtual std::vector<const clang::FunctionDecl *>
  dispatchTargets(const clang::CXXMethodDecl *Method) = 0;
};

class FunctionAnalysis {
public:
  FunctionAnalysis(const clang::FunctionDecl *FD, AnalysisContext &Ctx,
                   FunctionIndex &Index);
  ~FunctionAnalysis();

  bool isValid() const { return Cfg != nullptr; }
  const clang::FunctionDecl *decl() const { return FD; }

  /// True if the analysis ran out of its budget (AnalysisOptions::
  /// AnalysisBudget) and stopped: the function's rank-dependent branches are
  /// not checked, and nothing in it is reported.
  bool skipped() const { return Skipped; }
  /// The steps (blocks visited) the analysis took, and the function's
  /// rank-dependent branches, for the message that says it was skipped.
  uint64_t steps() const { return Steps; }
  /// About the memory the analysis holds (its CFG and block states), in
  /// bytes.
  size_t memoryBytes() const;
  unsigned divergentBranchCount() const;

  /// Phase 1: rank uniformity. Called again whenever the TU's facts grow, it
  /// runs again only if a fact it looked up changed. Joins the function's
  /// dependence summary into the TU's facts.
  void computeUniformity();
  /// After phase 1: the calls of functions with bodies, with how each
  /// argument depends on the rank and on this function's inputs.
  const llvm::MapVector<const clang::Expr *, CallRecord> &calls() const {
    return Uniformity->calls();
  }
  /// After phase 1: fields, globals and captured variables written with
  /// values that depend on this function's inputs.
  const llvm::MapVector<const clang::ValueDecl *, Dep> &escapes() const {
    return Uniformity->escapes();
  }
  /// The functions with bodies it calls (directly or by constructing).
  std::vector<const clang::FunctionDecl *> callees() const;

  /// After phase 1: why \p E (an expression of this function) depends on the
  /// rank, or null.
  const Origin *divergenceOf(const clang::Expr *E);
  /// After phase 1: why the rank-dependent branch that decides whether \p S
  /// runs depends on the rank, or null if every rank that enters the function
  /// runs it.
  const Origin *controllingBranch(const clang::Stmt *S);
  /// The same branch's condition, or null.
  const clang::Expr *controllingCondition(const clang::Stmt *S);

  /// Phase 2: the calls that issue collectives, and the function's summary.
  void computeSites();
  const SummaryNode *summary() const { return Summary; }
  /// The first call (in source order) that can issue \p Op.
  const CallSite *firstSiteIssuing(llvm::StringRef Op) const;

  /// Phase 3: rank-dependent branches whose sides differ. In driver mode,
  /// branches whose sides call functions of other TUs go to \p Deferred.
  void findMismatches(std::vector<Finding> &Out, std::vector<Finding> &Deferred);

  /// Phase 3, exceptions: collectives that only the ranks where a call in
  /// a `try` block throws reach, or skip (ExceptionHandlers.cpp).
  void findHandlerMismatches(std::vector<Finding> &Out,
                             std::vector<Finding> &Deferred);
  /// Why whether this function throws can differ between ranks: a `throw`
  /// under a rank-dependent condition, or a call that can throw on some
  /// ranks only, outside any `try` of its own. Null if it cannot.
  const Origin *throwsOnSomeRanks(unsigned Depth = 0);

  /// Driver mode: the function's summary with each collective and call
  /// tagged with its location (in Ctx.Located).
  const SummaryNode *locatedSummary();

private:
  /// Counts \p N steps against the budget; false once the budget is spent,
  /// and from then on the function is skipped.
  bool spend(uint64_t N);
  const clang::CFGBlock *joinOf(const clang::CFGBlock *B) const;
  /// Where the sides of the branch \p B meet again once the paths that end
  /// the job are set aside (FailurePaths::joinPastEnds), else its
  /// post-dominator.
  const clang::CFGBlock *sidesJoin(const clang::CFGBlock *B) const;
  std::vector<const clang::CFGBlock *>
  region(const clang::CFGBlock *From, const clang::CFGBlock *Stop,
         const clang::CFGBlock *Branch = nullptr) const;
  /// Records \p E, a call in block \p B that did not compile, as a site if
  /// it is matched by name, or may call the user's code.
  void unresolvedSite(const clang::Expr *E, const clang::CFGBlock *B);
  const SummaryNode *
  summarize(const clang::CFGBlock *From, const clang::CFGBlock *Stop,
            llvm::DenseMap<const clang::CFGBlock *, const SummaryNode *> &Memo,
            llvm::DenseMap<const clang::CFGBlock *, bool> &OnStack,
            unsigned Depth);
  /// Why whether \p Call (an element of \p B) throws can differ between
  /// ranks, or null (ExceptionHandlers.cpp).
  const Origin *rankLocalThrow(const clang::Expr *Call,
                               const clang::CFGBlock *B, unsigned Depth);
  /// What \p B issues after its element \p Element, up to \p Join.
  const SummaryNode *
  summarizeAfter(const clang::CFGBlock *B, unsigned Element,
                 const clang::CFGBlock *Join,
                 llvm::DenseMap<const clang::CFGBlock *, const SummaryNode *> &Memo,
                 llvm::DenseMap<const clang::CFGBlock *, bool> &OnStack);
  /// The uniform decision \p B's test makes, or null (UniformDecisions.h).
  const DecisionName *decisionAt(const clang::CFGBlock *B);
  /// Names in \p F the uniform test whose outcome \p Split made the sides
  /// differ.
  void explainDecision(Finding &F, const DecisionSplit &Split) const;
  /// What a call site contributes to a summary: its summary, or in located
  /// mode a tagged collective or call.
  const SummaryNode *leaf(const CallSite &Site);
  /// The sides of the branch \p Branch as located summaries.
  std::vector<Finding::Side>
  locatedSides(const clang::CFGBlock *Branch,
               llvm::ArrayRef<const clang::CFGBlock *> Arms,
               llvm::ArrayRef<unsigned> ArmIndex,
               llvm::ArrayRef<std::vector<const clang::CFGBlock *>> Regions,
               const clang::CFGBlock *Join);
  /// The first call in \p Blocks that can issue \p Op, after \p Skip such.
  const CallSite *
  siteIssuing(const std::vector<const clang::CFGBlock *> &Blocks,
              llvm::StringRef Op, unsigned Skip) const;
  std::vector<const clang::CFGBlock *>
  without(const std::vector<const clang::CFGBlock *> &Blocks,
          const std::vector<const clang::CFGBlock *> &Remove) const;
  /// Fills \p Chain from \p Site down to the collective; returns the
  /// innermost site, the one that issues it.
  const CallSite *explainChain(const CallSite &Site, llvm::StringRef Op,
                               std::vector<CallStep> &Chain) const;
  void findEarlyExit(const std::vector<const clang::CFGBlock *> &Blocks,
                     Finding &F) const;
  void widenToWholeCondition(Finding &F, const clang::CFGBlock *B) const;
  /// Fills in the branch, its shape, condition and why it depends on the
  /// rank.
  void describeBranch(Finding &F, const clang::CFGBlock *B) const;
  /// Reports where the sides of the rank-dependent branch \p B, summarised
  /// by \p ArmSummaries, first differ, unless they are equal. Returns true
  /// if they differ.
  bool reportDifference(
      const clang::CFGBlock *B,
      llvm::ArrayRef<std::vector<const clang::CFGBlock *>> Regions,
      llvm::ArrayRef<unsigned> ArmIndex,
                        llvm::ArrayRef<const SummaryNode *> ArmSummaries,
                        llvm::ArrayRef<const SummaryNode *> FullSummaries,
                        llvm::DenseMap<const clang::Expr *, bool> &Reported,
                        std::vector<Finding> &Out) const;

  const clang::FunctionDecl *FD;
  AnalysisContext &Ctx;
  FunctionIndex &Index;
  std::unique_ptr<clang::CFG> Cfg;
  std::unique_ptr<clang::CFGPostDomTree> PostDom;
  std::unique_ptr<RankUniformity> Uniformity;
  /// Which paths end the job with an error.
  std::unique_ptr<FailurePaths> Failures;
  /// Blocks under rank-dependent branches (from phase 1).
  ControlDivergence Control;
  /// Loop tests that are the same on every rank still in the loop, of loops
  /// that a rank-dependent branch inside lets some ranks leave early, with
  /// that explanation (temporal divergence).
  llvm::DenseMap<const clang::CFGBlock *, Dep> LoopExits;
  /// How the branch that ends \p B is rank-dependent: by its condition, or
  /// by ranks leaving its loop early; empty if neither.
  Dep branchWhy(const clang::CFGBlock *B) const;
  /// While finding mismatches: why each branch that counts depends on the
  /// rank (through a call, for a branch on the function's inputs).
  llvm::DenseMap<const clang::CFGBlock *, const Origin *> Resolved;
  static bool isLoopTest(const clang::CFGBlock *B);
  /// True if \p To is reachable from \p From's successors without passing
  /// \p Stop.
  bool reaches(const clang::CFGBlock *From, const clang::CFGBlock *To,
               const clang::CFGBlock *Stop) const;
  /// Statement to block, built on the first query.
  std::unique_ptr<clang::ParentMap> Parents;
  /// The body's parent map, made on first use.
  const clang::ParentMap &parents();
  llvm::DenseMap<const clang::Stmt *, const clang::CFGBlock *> StmtBlocks;
  const clang::CFGBlock *blockOf(const clang::Stmt *S);
  /// Position of each block in reverse post-order, by block ID.
  std::vector<unsigned> Order;
  /// Sites per block, by block ID, in evaluation order.
  std::vector<std::vector<CallSite>> Sites;
  const SummaryNode *Summary = nullptr;
  /// The decision each block's test makes, once asked.
  llvm::DenseMap<const clang::CFGBlock *, std::optional<DecisionName>>
      Decisions;
  /// While comparing the sides of a branch: blocks with a throw that the
  /// branch leads to unconditionally.
  llvm::DenseSet<const clang::CFGBlock *> RankGatedThrows;
  /// While comparing the sides of a branch: its condition, for the
  /// collectives on communicators whose members all take the same side.
  const clang::Expr *MembershipTest = nullptr;
  /// Built on first use.
  mutable std::unique_ptr<CommunicatorMembership> Membership;
  /// True if \p Site runs on a communicator whose members all take the same
  /// side of MembershipTest: not compared.
  bool excused(const CallSite &Site) const;
  CommunicatorMembership &membership() const;
  /// The one communicator every site of the function runs on, or null.
  const clang::Expr *OnlyCommunicator = nullptr;
  /// Per block ending in a test of membership: the index of the successor
  /// only non-members take (-1 for other blocks).
  llvm::DenseMap<const clang::CFGBlock *, int> NonMemberSuccessors;
  /// The successor of \p B that no member of the communicator its test is
  /// on takes, or -1: a test of membership of OnlyCommunicator, or a null
  /// test of a communicator whose members' side issues nothing on another.
  int nonMemberSuccessor(const clang::CFGBlock *B);
  /// What the side of \p Branch through its successor \p SuccIndex (\p Arm,
  /// whose blocks before \p Join are \p Side) issues, with the later tests
  /// the branch decided there going one way (Decided, while it runs).
  const SummaryNode *summarizeSide(
      const clang::CFGBlock *Branch, unsigned SuccIndex,
      llvm::ArrayRef<const clang::CFGBlock *> Side, const clang::CFGBlock *Arm,
      const clang::CFGBlock *Join,
      llvm::DenseMap<const clang::CFGBlock *, const SummaryNode *> &Memo,
      llvm::DenseMap<const clang::CFGBlock *, bool> &OnStack);
  /// True if, of the two sides \p Arms of the `if` \p Branch, one is its
  /// `else if`, a rank-dependent branch (not in \p Undivided) that can run
  /// exactly what the other side runs (\p Summaries): `if (rank == a) X;
  /// else if (rank == b) X; else Y;`. What differs here then differs there,
  /// and that branch reports it with its own condition.
  bool repeatsInnerSide(
      const clang::CFGBlock *Branch,
      llvm::ArrayRef<const clang::CFGBlock *> Arms,
      llvm::ArrayRef<const SummaryNode *> Summaries,
      const llvm::DenseSet<const clang::CFGBlock *> &Undivided) const;
  /// Of \p Branches (rank-dependent), those that a branch around them has
  /// decided: every rank that reaches one goes the same way.
  llvm::DenseSet<const clang::CFGBlock *>
  decidedBranches(llvm::ArrayRef<const clang::CFGBlock *> Branches);
  /// Whether \p B is a test of ranks taking turns (OnceTests.h) in a loop
  /// whose body issues one collective on one communicator only: each rank
  /// takes its turn once, so all issue the same sequence.
  bool takesTurnsAlike(const clang::CFGBlock *B);
  /// While summarising one side of a branch: the branch's test, decided on
  /// that side; later tests of it go one way only (DecidedTests.h).
  std::optional<DecidedTest> Decided;
  /// While summarize() builds located summaries.
  bool LocatedMode = false;
  /// throwsOnSomeRanks(), once computed.
  std::optional<const Origin *> ThrowOrigin;
  bool ComputingThrows = false;
  /// Steps taken so far; region() and summarize() count theirs.
  mutable uint64_t Steps = 0;
  bool Skipped = false;
  /// Phase 1 ran, at this generation of the TU's facts, looking these up.
  bool Computed = false;
  unsigned ComputedAt = 0;
  RankFacts::ReadSet FactsRead;
};

} // namespace ddp

#endif // DDP_CORE_FUNCTIONANALYSIS_H
