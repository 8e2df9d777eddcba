//===--- UnresolvedCalls.h - Calls that did not compile, matched by name --===//
//
// Code written for another LibTorch release than the one installed does not
// fully compile: `backend->allreduce(t)` on a c10d::Backend that 1.13 lacks,
// `pg->allreduce_coalesced(t)` on a ProcessGroup that lacks the method, or
// `c10d::ops::allreduce(pg, t)` with 2.x's arguments. Clang keeps such a
// call as a RecoveryExpr, a call of an unresolved or dependent member, or an
// unresolved lookup, with no callee the catalogue can classify. This matches
// it by name instead, against the catalogue's c10d entries, but only when
// what it is called on looks like a process group: its type is one, or,
// where the type itself did not resolve, its spelled type names
// ProcessGroup, Backend or a c10d type, or its name does (`pg`,
// `process_group`, `backend`). A `barrier()` of a thread pool or of a
// `std::barrier` is never a collective.
//
//===----------------------------------------------------------------------===//

#ifndef DDP_CORE_UNRESOLVEDCALLS_H
#define DDP_CORE_UNRESOLVEDCALLS_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <deque>
#include <optional>
#include <string>

#include "clang/Basic/SourceLocation.h"

namespace clang {
class Expr;
class SourceManager;
class LangOptions;
} // namespace clang

namespace ddp {

class AnalysisContext;
struct CatalogueEntry;

/// A call that did not compile, taken for the catalogued call its name and
/// receiver match.
struct UnresolvedCall {
  const CatalogueEntry *Entry = nullptr;
  /// The arguments, without the object of a method call.
  llvm::SmallVector<const clang::Expr *, 4> Args;
  /// The process group it is called on (the object, or c10d::ops' first
  /// argument), if any.
  const clang::Expr *Receiver = nullptr;
  /// Why the receiver is taken for a process group ("'pg' is named like
  /// one"), for the note that says the call was matched by name.
  std::string Grounds;
};

class UnresolvedCalls {
public:
  /// The catalogued call \p E stands for, if \p E is a call that did not
  /// compile (a CallExpr without a callee, or a RecoveryExpr in place of a
  /// call) and its name and receiver match; else null. Memoised.
  const UnresolvedCall *match(const clang::Expr *E, AnalysisContext &Ctx);

  /// The name \p E calls, if it is a call that did not compile ("sync" for
  /// `trainer.sync()` on a type that did not resolve).
  static std::optional<std::string> calledName(const clang::Expr *E,
                                               const clang::SourceManager &SM,
                                               const clang::LangOptions &LO);

private:
  std::deque<UnresolvedCall> Matches;
  llvm::DenseMap<const clang::Expr *, const UnresolvedCall *> Memo;
};

/// Where a diagnostic about the call \p Call goes: at the name it calls
/// (`allreduce` in `pg->allreduce(t)`), whether or not it compiled.
clang::SourceLocation calledNameLoc(const clang::Expr *Call);

} // namespace ddp

#endif // DDP_CORE_UNRESOLVEDCALLS_H
