//===--- Origin.h - Why a value depends on the rank -----------------------===//

#ifndef DDP_CORE_ORIGIN_H
#define DDP_CORE_ORIGIN_H

#include "clang/Basic/SourceLocation.h"
#include <string>

namespace clang {
class ParmVarDecl;
} // namespace clang

namespace ddp {

/// One link of the explanation of a rank dependence: a place in the source and
/// what happens there ("'rank' is set from 'pg->getRank()' here"). Links form
/// a chain back to the source of the rank.
struct Origin {
  clang::SourceLocation Loc;
  std::string Message;
  const Origin *Cause = nullptr;
  /// The dependence comes only from being assigned under a rank-dependent
  /// branch (not from a rank source by data flow). Such explanations are
  /// weaker: where a direct one exists, it is shown instead.
  bool FromControl = false;
  /// The value is the rank itself (not arithmetic on it), so facts such as
  /// 0 <= rank < world_size apply to it.
  bool ExactRank = false;
  /// Where the link is when it comes from another translation unit (Loc is
  /// then invalid): "file:line:column".
  std::string Elsewhere;
  /// The dependence comes from data local to this rank (a loss, a clock, a
  /// file), not from the rank itself.
  bool LocalData = false;
  /// Only the elements of a container depend on the rank (rank-dependent
  /// values were inserted on every rank alike): its size does not.
  bool ElementsOnly = false;
  /// The chain ends at a placeholder for a function's input (see
  /// Dependence.h), not at a rank source: the value depends on the rank only
  /// where a caller passes a rank-dependent argument.
  bool Symbolic = false;
  /// A placeholder: the value of parameter Input as the caller passes it
  /// (or, with EnvInput, what getenv returns for the name it holds). Never
  /// shown: a call site's explanation replaces it.
  const clang::ParmVarDecl *Input = nullptr;
  bool EnvInput = false;
  /// The marker of a buffer a collective made the same on every rank.
  bool Synced = false;
};

/// The better explanation of two: a direct one over one through control.
inline const Origin *betterOrigin(const Origin *A, const Origin *B) {
  if (!A)
    return B;
  if (!B)
    return A;
  // A container's length depends on the rank if either says so.
  if (A->ElementsOnly != B->ElementsOnly)
    return A->ElementsOnly ? B : A;
  return A->FromControl && !B->FromControl ? B : A;
}

} // namespace ddp

#endif // DDP_CORE_ORIGIN_H
