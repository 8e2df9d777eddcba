//===--- DivergenceState.h - Rank dependence of variables at a point ------===//
//
// The uniformity analysis holds one state per CFG block and copies, joins
// and compares them on every pass. A long function (hypre's matrix kernels:
// 3,400 blocks, 900 variables with a dependence on the parameters) made
// those hash-map copies, lookups and comparisons miss the cache on every
// entry. Kept as a vector sorted by declaration, a copy is one block of
// memory, and joins and comparisons are sequential scans.
//
//===----------------------------------------------------------------------===//

#ifndef DDP_CORE_DIVERGENCESTATE_H
#define DDP_CORE_DIVERGENCESTATE_H

#include "core/Dependence.h"
#include <algorithm>
#include <functional>
#include <utility>
#include <vector>

namespace clang {
class ValueDecl;
} // namespace clang

namespace ddp {

/// Rank dependence of the variables at one program point. A declaration
/// mapped to an empty Dep is known to be uniform there; one that is absent
/// falls back to what the translation unit knows of it (and a parameter to
/// its placeholder). The subset of DenseMap's interface the analysis uses.
class DivergenceState {
public:
  using value_type = std::pair<const clang::ValueDecl *, Dep>;
  using iterator = std::vector<value_type>::iterator;
  using const_iterator = std::vector<value_type>::const_iterator;

  iterator begin() { return Entries.begin(); }
  iterator end() { return Entries.end(); }
  const_iterator begin() const { return Entries.begin(); }
  const_iterator end() const { return Entries.end(); }
  size_t size() const { return Entries.size(); }
  bool empty() const { return Entries.empty(); }
  void clear() { Entries.clear(); }
  void reserve(size_t N) { Entries.reserve(N); }

  iterator find(const clang::ValueDecl *D) {
    auto It = lowerBound(D);
    return It != Entries.end() && It->first == D ? It : Entries.end();
  }
  const_iterator find(const clang::ValueDecl *D) const {
    return const_cast<DivergenceState *>(this)->find(D);
  }
  size_t count(const clang::ValueDecl *D) const { return find(D) != end(); }
  /// The entry of \p D, made uniform-by-default (an empty Dep) if absent.
  Dep &operator[](const clang::ValueDecl *D) {
    auto It = lowerBound(D);
    if (It == Entries.end() || It->first != D)
      It = Entries.insert(It, {D, Dep()});
    return It->second;
  }
  bool erase(const clang::ValueDecl *D) {
    auto It = find(D);
    if (It == Entries.end())
      return false;
    Entries.erase(It);
    return true;
  }
  /// Adds \p D, which follows every declaration held in the order (for
  /// building a state by merging others).
  void append(const clang::ValueDecl *D, const Dep &Value) {
    Entries.emplace_back(D, Value);
  }
  /// Whether \p A comes before \p B in the order.
  static bool before(const clang::ValueDecl *A, const clang::ValueDecl *B) {
    return std::less<const clang::ValueDecl *>()(A, B);
  }

  bool operator==(const DivergenceState &O) const {
    return Entries == O.Entries;
  }
  bool operator!=(const DivergenceState &O) const { return !(*this == O); }
  size_t getMemorySize() const {
    return Entries.capacity() * sizeof(value_type);
  }

private:
  iterator lowerBound(const clang::ValueDecl *D) {
    return std::lower_bound(Entries.begin(), Entries.end(), D,
                            [](const value_type &E, const clang::ValueDecl *K) {
                              return before(E.first, K);
                            });
  }
  std::vector<value_type> Entries;
};

} // namespace ddp

#endif // DDP_CORE_DIVERGENCESTATE_H
