//===--- ForwardBackwardOrder.h - Forward passes per synchronised backward ===//
//
// Gradient synchronisation expects one forward pass of the synchronised
// module per backward: a DDP-like wrapper prepares its buckets in forward
// and reduces them as the backward marks gradients ready, a c10d::Reducer
// is armed by prepare_for_backward for the next backward. A second forward
// outside the no-sync scope before that backward marks the same parameters
// ready twice ("Expected to mark a variable ready only once") or
// desynchronises the buckets across ranks.
//
// This pass walks one function's statements in order, once (loop bodies
// twice, to see one iteration follow another), keeping for each
// synchronised module the forward passes run since the last backward. It
// also finds gradient accumulation that synchronises every micro-step.
//
//===----------------------------------------------------------------------===//

#ifndef DDP_CORE_FORWARDBACKWARDORDER_H
#define DDP_CORE_FORWARDBACKWARDORDER_H

#include "llvm/ADT/DenseSet.h"
#include <vector>

namespace clang {
class CallExpr;
class FunctionDecl;
class Stmt;
class ValueDecl;
} // namespace clang

namespace ddp {

class AnalysisContext;
class GradientSyncModel;

/// A second forward pass of a synchronised module before one backward.
struct ExtraForward {
  const clang::ValueDecl *Module = nullptr;
  const clang::CallExpr *First = nullptr;
  /// The extra pass; the same call as First when it is in a loop that runs
  /// it again before the backward after the loop.
  const clang::CallExpr *Second = nullptr;
  const clang::CallExpr *Backward = nullptr;
  /// Set when the module's gradients are reduced by a c10d::Reducer (armed
  /// by this prepare_for_backward) rather than by a wrapper.
  const clang::CallExpr *Prepare = nullptr;
};

/// A synchronising backward in a loop whose optimizer step happens only on
/// some iterations, or after the loop: gradient accumulation that reduces
/// every micro-step.
struct SyncedAccumulation {
  const clang::CallExpr *Backward = nullptr;
  const clang::Stmt *Loop = nullptr;
  /// The optimizer step: under a condition in the loop, or after it.
  const clang::CallExpr *Step = nullptr;
  bool StepAfterLoop = false;
};

struct ForwardBackwardResult {
  std::vector<ExtraForward> ExtraForwards;
  std::vector<SyncedAccumulation> Accumulations;
  /// Backwards run while synchronisation is off (a no-sync guard alive, the
  /// sync flag false).
  std::vector<const clang::CallExpr *> UnsyncedBackwards;
};

/// The modules a c10d::Reducer synchronises in the TU: the holders whose
/// parameters() were given to a Reducer.
using ReducedModules = llvm::DenseSet<const clang::ValueDecl *>;

ForwardBackwardResult analyseForwardBackward(const clang::FunctionDecl *FD,
                                             const AnalysisContext &Ctx,
                                             const GradientSyncModel &Sync,
                                             const ReducedModules &Reduced);

/// The modules whose parameters() are passed to a c10d::Reducer in \p FD.
void collectReducedModules(const clang::FunctionDecl *FD,
                           const AnalysisContext &Ctx, ReducedModules &Out);

} // namespace ddp

#endif // DDP_CORE_FORWARDBACKWARDORDER_H
