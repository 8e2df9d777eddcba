//===--- CollectiveSummary.h - Sets of collective sequences ---------------===//
//
// A summary describes the sequences of collectives a piece of code can issue,
// as a small regular expression: an operation, a sequence, a choice between
// alternatives, or a jump back to an enclosing loop head. Nodes are
// hash-consed, so two structurally equal summaries are the same pointer and
// compare in O(1), and a function's summary is built once and shared by every
// caller.
//
//===----------------------------------------------------------------------===//

#ifndef DDP_CORE_COLLECTIVESUMMARY_H
#define DDP_CORE_COLLECTIVESUMMARY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/FoldingSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Allocator.h"
#include <string>
#include <vector>

namespace ddp {

/// The operation that stands for whatever code that did not compile may
/// issue: a call of the user's function whose body the analysis cannot
/// trust, or a call that did not compile and is named like one. A branch
/// whose sides may issue it is not compared (nothing is known to differ).
inline constexpr llvm::StringLiteral UnknownOp = "<code that did not compile>";

/// In a decision's key: the decision's first alternative runs in exactly
/// one iteration of the loop around it (OnceTests.h).
inline constexpr llvm::StringLiteral OnceMarker = "#once:";

class SummaryNode : public llvm::FoldingSetNode {
public:
  /// Call: a call of a function whose body is not in this translation unit,
  /// named by a stable key (its USR); the whole-program driver resolves it.
  enum class Kind : unsigned char { Empty, Op, Seq, Choice, LoopBack, Call };

  Kind getKind() const { return K; }
  /// For Op: the collective's display name ("allreduce"); for Call: the
  /// callee's key; for a Choice made by a uniform decision: the decision's
  /// key (see UniformDecisions.h), else "".
  llvm::StringRef getOp() const { return Op; }
  /// The uniform decision a Choice is made by, or "" for a plain choice.
  llvm::StringRef getDecision() const {
    return K == Kind::Choice ? Op : llvm::StringRef();
  }
  /// For a decision that is a loop's test: 1 + the index of the alternative
  /// that runs the body; 0 for other decisions.
  unsigned getLoopBody() const { return K == Kind::Choice ? Tag : 0; }
  /// For Op and Call nodes of located summaries: where the call is (an index
  /// the creator assigns); 0 in the summaries that are compared.
  unsigned getTag() const { return Tag; }
  llvm::ArrayRef<const SummaryNode *> children() const { return Kids; }
  /// Creation order: a deterministic key for sorting choices.
  unsigned getId() const { return Id; }
  bool isEmpty() const { return K == Kind::Empty; }

  void Profile(llvm::FoldingSetNodeID &ID) const;
  static void profile(llvm::FoldingSetNodeID &ID, Kind K, llvm::StringRef Op,
                      unsigned Tag, llvm::ArrayRef<const SummaryNode *> Kids);

  /// The first collective this node can issue, or "" if none. O(1).
  llvm::StringRef firstOp() const { return First; }
  /// True if \p Op can be issued by this node. Computed once per node, so
  /// queries on shared sub-summaries never walk the DAG as a tree.
  bool mayIssue(llvm::StringRef Op) const {
    return llvm::is_contained(Ops, Op);
  }
  bool mayIssueAny() const { return !Ops.empty(); }
  /// True if this node can run code that did not compile: it may issue
  /// anything, so nothing is known to differ from it.
  bool mayIssueUnknown() const { return mayIssue(UnknownOp); }
  /// True if some path through this node goes back to a loop head.
  bool loopsBack() const { return LoopsBack; }
  /// True if the node holds calls that are not resolved yet.
  bool hasCalls() const { return HasCalls; }
  /// True if the node adds nothing to a sequence: no collective, no call, no
  /// way back to a loop head.
  bool isInert() const { return Ops.empty() && !LoopsBack && !HasCalls; }

private:
  friend class SummaryContext;
  SummaryNode(Kind K, llvm::StringRef Op, unsigned Tag,
              llvm::ArrayRef<const SummaryNode *> Kids, unsigned Id)
      : K(K), Op(Op), Tag(Tag), Kids(Kids.begin(), Kids.end()), Id(Id) {}

  Kind K;
  llvm::StringRef Op;
  unsigned Tag;
  llvm::SmallVector<const SummaryNode *, 2> Kids;
  unsigned Id;
  llvm::StringRef First;
  /// The distinct collectives this node can issue.
  llvm::SmallVector<llvm::StringRef, 4> Ops;
  bool LoopsBack = false;
  bool HasCalls = false;
};

/// Owns and interns summary nodes.
class SummaryContext {
public:
  SummaryContext();
  ~SummaryContext();
  SummaryContext(const SummaryContext &) = delete;
  SummaryContext &operator=(const SummaryContext &) = delete;

  const SummaryNode *empty() const { return Empty; }
  const SummaryNode *loopBack();
  const SummaryNode *op(llvm::StringRef Name, unsigned Tag = 0);
  /// A call of the function with key \p Key, resolved later.
  const SummaryNode *call(llvm::StringRef Key, unsigned Tag = 0);
  /// \p Name, stored for as long as the context lives.
  llvm::StringRef name(llvm::StringRef Name) {
    return Names.insert(Name).first->getKey();
  }
  /// The concatenation of \p Parts; nested sequences are flattened and empty
  /// parts dropped.
  const SummaryNode *seq(llvm::ArrayRef<const SummaryNode *> Parts);
  const SummaryNode *seq(const SummaryNode *A, const SummaryNode *B) {
    return seq({A, B});
  }
  /// The alternatives \p Alternatives; nested choices are flattened, duplicates
  /// removed and the order made canonical.
  const SummaryNode *choice(llvm::ArrayRef<const SummaryNode *> Alternatives);
  /// The alternatives of a uniform decision (a branch or loop test with the
  /// same value on every rank that evaluates it), named \p Key, in the
  /// decision's canonical order (UniformDecisions.h). Such a choice is not
  /// merged with others: which alternative runs is the same on every rank.
  /// \p LoopBody: 1 + the index of the loop body's alternative, or 0.
  const SummaryNode *decision(llvm::StringRef Key,
                              llvm::ArrayRef<const SummaryNode *> Alternatives,
                              unsigned LoopBody = 0);

  /// Marks \p Op as a barrier (a collective that only synchronises).
  void markBarrier(llvm::StringRef Op) { Barriers.insert(Op); }
  bool isBarrier(llvm::StringRef Op) const { return Barriers.contains(Op); }
  const llvm::StringSet<> &barriers() const { return Barriers; }
  /// \p N with only its barriers (\p KeepBarriers) or only its other
  /// collectives. Memoised per node.
  const SummaryNode *only(const SummaryNode *N, bool KeepBarriers);
  /// \p N with its decisions made plain choices: the set of sequences it can
  /// issue, which is what sides are compared on first. Memoised per node.
  const SummaryNode *plain(const SummaryNode *N);

private:
  /// For a loop's body: what the one decision in it that runs once issues
  /// when the body issues nothing else, or null.
  const SummaryNode *onceOnly(const SummaryNode *Body);
  const SummaryNode *intern(SummaryNode::Kind K, llvm::StringRef Op,
                            unsigned Tag,
                            llvm::ArrayRef<const SummaryNode *> Kids);

  llvm::BumpPtrAllocator Alloc;
  llvm::StringSet<> Names;
  llvm::FoldingSet<SummaryNode> Nodes;
  std::vector<SummaryNode *> Owned;
  const SummaryNode *Empty = nullptr;
  llvm::StringSet<> Barriers;
  llvm::DenseMap<std::pair<const SummaryNode *, unsigned>, const SummaryNode *>
      Filtered;
  llvm::DenseMap<const SummaryNode *, const SummaryNode *> Plain;
};

/// The elements of a summary at its top level: the parts of a sequence, or
/// the node itself.
llvm::SmallVector<const SummaryNode *, 8> topLevelParts(const SummaryNode *N);

/// Where two summaries first differ, after their common prefix.
struct SummaryDifference {
  /// The first differing part on each side; null where that side has nothing
  /// left (it issues fewer collectives).
  const SummaryNode *Left = nullptr;
  const SummaryNode *Right = nullptr;
  /// How many top-level parts the two share before they differ.
  unsigned Prefix = 0;
};
SummaryDifference firstDifference(const SummaryNode *Left,
                                  const SummaryNode *Right);

} // namespace ddp

#endif // DDP_CORE_COLLECTIVESUMMARY_H
