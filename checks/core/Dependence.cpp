//===--- Dependence.cpp - How a value depends on the rank and on inputs ---===//

#include "core/Dependence.h"
#include "llvm/ADT/STLExtras.h"

namespace ddp {

const Origin *synchronised() {
  static const Origin Marker = [] {
    Origin O;
    O.Synced = true;
    return O;
  }();
  return &Marker;
}

Dep join(const Dep &A, const Dep &B) {
  if (A.divergent() || B.divergent()) {
    if (!B.divergent())
      return A;
    if (!A.divergent())
      return B;
    return Dep(betterOrigin(A.Why, B.Why));
  }
  const Origin *WA = A.any() ? A.Why : nullptr;
  const Origin *WB = B.any() ? B.Why : nullptr;
  Dep R(betterOrigin(WA, WB), A.Params | B.Params, A.EnvKeys | B.EnvKeys);
  if (!R.any())
    return Dep();
  return R;
}

DepSummary join(const DepSummary &A, const DepSummary &B) {
  DepSummary R;
  R.Return = join(A.Return, B.Return);
  R.Writes = A.Writes;
  for (const auto &[I, D] : B.Writes) {
    bool Found = false;
    for (auto &[J, E] : R.Writes)
      if (J == I) {
        // A synchronised buffer on one round stays so only if it is on both.
        E = E.Why && E.Why->Synced && D.Why && D.Why->Synced ? E : join(E, D);
        Found = true;
      }
    if (!Found)
      R.Writes.push_back({I, D});
  }
  llvm::sort(R.Writes,
             [](const auto &X, const auto &Y) { return X.first < Y.first; });
  // Left as it was on one round: as it was (the TU's facts).
  R.Outliving = A.Outliving;
  for (const auto &[D, Left] : B.Outliving) {
    auto *It =
        llvm::find_if(R.Outliving, [&](const auto &E) { return E.first == D; });
    if (It == R.Outliving.end())
      R.Outliving.push_back({D, Left});
    else if (!It->second || !Left)
      It->second.reset();
    else
      It->second = join(*It->second, *Left);
  }
  return R;
}

} // namespace ddp
