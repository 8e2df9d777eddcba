//===--- Dependence.h - How a value depends on the rank and on inputs -----===//
//
// The value of the rank-uniformity data flow. A value is uniform, divergent
// (it depends on the rank whoever calls the function: Why explains it back
// to a rank source), or conditional: it depends on the function's inputs,
// and is divergent exactly at the call sites that pass a rank-dependent
// argument for one of them (Params), or a string naming a rank environment
// variable for a parameter it was read from with getenv (EnvKeys). A
// conditional value's Why is a chain back to a placeholder for one of those
// inputs (Origin::Input); a call site substitutes its own explanation for it.
//
// Each function gets a DepSummary: how its result and what it writes through
// its parameters depend on its inputs. Computed once per function, it is
// instantiated at every call with that caller's arguments, so a helper given
// the rank at one call does not make the results of its other calls
// rank-dependent.
//
//===----------------------------------------------------------------------===//

#ifndef DDP_CORE_DEPENDENCE_H
#define DDP_CORE_DEPENDENCE_H

#include "core/Origin.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <optional>
#include <utility>

namespace clang {
class Expr;
class FunctionDecl;
class ParmVarDecl;
class ValueDecl;
} // namespace clang

namespace ddp {

/// Parameters beyond this index share its bit.
inline constexpr unsigned MaxInputBit = 63;

inline uint64_t inputBit(unsigned Index) {
  return uint64_t(1) << (Index < MaxInputBit ? Index : MaxInputBit);
}

struct Dep {
  const Origin *Why = nullptr;
  uint64_t Params = 0;
  uint64_t EnvKeys = 0;

  Dep() = default;
  /// Divergent for every caller (or uniform, for null).
  Dep(const Origin *Why) : Why(Why) {}
  Dep(const Origin *Why, uint64_t Params, uint64_t EnvKeys)
      : Why(Why), Params(Params), EnvKeys(EnvKeys) {}

  /// Rank-dependent whoever calls the function.
  bool divergent() const { return Why && !Why->Symbolic && !Why->Synced; }
  /// Rank-dependent at the calls that pass rank-dependent inputs.
  bool conditional() const { return !divergent() && (Params || EnvKeys); }
  /// Divergent or conditional.
  bool any() const { return divergent() || conditional(); }
  /// The explanation of a divergent value, or null.
  const Origin *divergence() const { return divergent() ? Why : nullptr; }
  /// The same dependence told by \p Step (a note that leads to this one's
  /// explanation): divergent alike, or conditional on the same inputs.
  Dep explainedBy(const Origin *Step) const {
    return divergent() ? Dep(Step) : Dep(Step, Params, EnvKeys);
  }

  bool operator==(const Dep &O) const {
    return Why == O.Why && Params == O.Params && EnvKeys == O.EnvKeys;
  }
  bool operator!=(const Dep &O) const { return !(*this == O); }
};

/// The marker of a buffer a collective made the same on every rank (a
/// state's value, or what a function leaves in a parameter it writes).
const Origin *synchronised();

/// The union of two dependences: divergent if either is; otherwise
/// conditional on the inputs of both. The better explanation is kept (a
/// direct one over one through control).
Dep join(const Dep &A, const Dep &B);

/// How a function's results depend on its inputs.
struct DepSummary {
  /// The value it returns.
  Dep Return;
  /// What each reference or pointer-to-non-const parameter holds after the
  /// call, for the parameters the function writes (a collective's buffer:
  /// Why is the synchronised marker). Index order.
  llvm::SmallVector<std::pair<unsigned, Dep>, 2> Writes;
  /// The fields and globals it writes, with what each holds when it
  /// returns; none for one it may leave as it was (the caller then reads
  /// what the TU's facts say). Kept within a TU.
  llvm::SmallVector<std::pair<const clang::ValueDecl *, std::optional<Dep>>, 2>
      Outliving;

  const Dep *writes(unsigned Index) const {
    for (const auto &[I, D] : Writes)
      if (I == Index)
        return &D;
    return nullptr;
  }
  bool operator==(const DepSummary &O) const {
    return Return == O.Return && Writes == O.Writes && Outliving == O.Outliving;
  }
  bool operator!=(const DepSummary &O) const { return !(*this == O); }
};

/// \p A joined with \p B, entry by entry.
DepSummary join(const DepSummary &A, const DepSummary &B);

/// What an argument is as a string, for getenv through a helper: a rank
/// environment variable's name, one of the caller's own inputs, or anything
/// else.
struct ArgKey {
  enum Kind { Unknown, RankVariable, Input } K = Unknown;
  unsigned Index = 0; ///< Input: the caller's parameter.
};

/// A call of a function with a body, as the caller's data flow saw it.
struct CallRecord {
  const clang::Expr *Call = nullptr;
  const clang::FunctionDecl *Callee = nullptr;
  /// Per parameter of the callee.
  llvm::SmallVector<Dep, 4> Args;
  llvm::SmallVector<ArgKey, 4> Keys;
  /// The argument expressions, for the locations of explanations.
  llvm::SmallVector<const clang::Expr *, 4> ArgExprs;
};

} // namespace ddp

#endif // DDP_CORE_DEPENDENCE_H
