//===--- Finding.h - A collective that only some ranks execute ------------===//

#ifndef DDP_CORE_FINDING_H
#define DDP_CORE_FINDING_H

#include "core/Origin.h"
#include "clang/Basic/SourceLocation.h"
#include <string>
#include <vector>

namespace clang {
class CallExpr;
class Expr;
class FunctionDecl;
class Stmt;
} // namespace clang

namespace ddp {

class SummaryNode;

/// One step of the call chain from the reported call down to the collective:
/// "'save_checkpoint' calls 'barrier' here".
struct CallStep {
  clang::SourceLocation Loc;
  std::string Caller;
  std::string Callee;
};

/// A rank-dependent branch whose sides issue different collectives, reported
/// at the first collective where they differ.
struct Finding {
  enum class Shape {
    Branch, ///< if, ?:, && and ||: the site is on one side.
    Loop,   ///< The branch is a loop condition: a rank-dependent trip count.
    Switch, ///< A switch on a rank-dependent value.
    /// The ranks where a call in a `try` block throws (Condition) run the
    /// handlers; the others the rest of the block. SiteOnTrueSide: the site
    /// is in a handler.
    Handler,
    /// No branch skips the call: its tensor list can hold a different
    /// number of tensors on each rank (List below; Condition is the one
    /// the list grows under).
    UnevenList,
  };

  const clang::FunctionDecl *Function = nullptr;
  /// The call the warning is attached to: the collective itself, or the call
  /// of the helper that issues it (a CallExpr, or a CXXConstructExpr for a
  /// constructor that communicates).
  const clang::Expr *Site = nullptr;
  /// The collective that differs ("barrier").
  std::string Op;
  /// Set when Site is a call of a helper: the helper's name.
  std::string Via;
  bool IsBarrier = false;

  Shape Kind = Shape::Branch;
  /// The statement that branches (IfStmt, ForStmt, ...), and what it tests.
  const clang::Stmt *Branch = nullptr;
  const clang::Expr *Condition = nullptr;
  std::string ConditionText;
  /// Loop shape: the condition is the range of a range-based for.
  bool OverRange = false;
  /// Which outcome of the condition leads to Site (Branch shape only).
  bool SiteOnTrueSide = true;
  /// Why the condition depends on the rank.
  const Origin *Why = nullptr;

  /// Where ranks on the other side leave early (return, break, ...), if any.
  clang::SourceLocation EarlyExit;
  std::string EarlyExitKind;
  /// A different collective the other side issues in the same place.
  const clang::Expr *OtherSite = nullptr;
  std::string OtherOp;

  std::vector<CallStep> Chain;

  /// The collective's call did not compile against the headers in use and
  /// was matched to the catalogue by its name and receiver: where, and why.
  clang::SourceLocation ByNameLoc;
  std::string ByNameNote;

  /// Set when the collective's tensor list changes length under a
  /// rank-dependent condition before the call (TensorLists.h): the list,
  /// where it changes, that condition and why it depends on the rank, and
  /// whether the list holds gradients.
  const clang::Expr *List = nullptr;
  std::string ListText;
  const clang::Stmt *ListChange = nullptr;
  const clang::Expr *ListCondition = nullptr;
  std::string ListConditionText;
  const Origin *ListWhy = nullptr;
  bool ListOfGradients = false;

  /// Set when the sides issue the same sets of sequences and differ only
  /// for one outcome of a test that is the same on every rank (a condition,
  /// or whether a range is empty): that test, and the outcome.
  const clang::Expr *Uniform = nullptr;
  std::string UniformText;
  std::string UniformValue;

  /// Driver mode only: each side of the branch up to its join, as a located
  /// summary (collectives and calls tagged with where they are), with the
  /// index of the branch's successor it starts at (0: the true side).
  struct Side {
    unsigned Successor = 0;
    const SummaryNode *Located = nullptr;
  };
  std::vector<Side> Sides;
};

} // namespace ddp

#endif // DDP_CORE_FINDING_H
