//===--- CallSites.h - Functions the TU only ever calls directly ----------===//
//
// A parameter named `rank` holds the process's rank only if whoever calls
// the function passes it one. When every use of a function in the TU is a
// direct call, the arguments those calls pass are analysed, and they, not
// the parameter's name, say what it holds: `ComputeShapeForRank(shape, r,
// n)` called in `for (int r = 0; r < n; ++r)` is given every rank in turn.
// A function whose address is taken (a thread's entry, a callback) can be
// called with anything, and keeps the name's meaning.
//
//===----------------------------------------------------------------------===//

#ifndef DDP_CORE_CALLSITES_H
#define DDP_CORE_CALLSITES_H

#include "llvm/ADT/DenseSet.h"

namespace clang {
class FunctionDecl;
} // namespace clang

namespace ddp {

class AnalysisContext;

/// The user's functions that the TU calls, and those it also uses other
/// than as a call's callee.
class CallSites {
public:
  explicit CallSites(const AnalysisContext &Ctx);

  /// True if the TU calls \p FD and every use of it is the callee of a
  /// direct call.
  bool onlyCalledDirectly(const clang::FunctionDecl *FD) const;

private:
  llvm::DenseSet<const clang::FunctionDecl *> Called;
  llvm::DenseSet<const clang::FunctionDecl *> OtherwiseUsed;
};

} // namespace ddp

#endif // DDP_CORE_CALLSITES_H
