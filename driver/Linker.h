//===--- Linker.h - Phase 2: the whole program's collective order ---------===//
//
// Merges the summaries of all TUs, resolves calls by USR (a fixed point over
// the call graph, recursion included), and at each rank-dependent branch
// compares what its sides issue with every callee resolved. Sides are
// compared as hash-consed summaries, so the cost is linear in their size.
//
//===----------------------------------------------------------------------===//

#ifndef DDP_DRIVER_LINKER_H
#define DDP_DRIVER_LINKER_H

#include "Diagnostic.h"
#include "SummaryFile.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include <functional>
#include <vector>

namespace ddp::driver {

/// How a report shows a location ("train.cpp:42:7").
using LocationPrinter = std::function<std::string(const Location &)>;

std::vector<Diagnostic> link(const std::vector<TUSummary> &TUs,
                             const LocationPrinter &Show);

/// Every TU's definitions and exports by key, made once for the imports of
/// all: importsFor looks up what one TU names instead of scanning every
/// other TU (quadratic in the TUs of a large database).
class ExportIndex {
public:
  explicit ExportIndex(const std::vector<TUSummary> &All);

  /// An export of the TU at index TU of All.
  struct Export {
    unsigned TU;
    const FactRecord *Fact;
  };
  /// The TUs that define each key, in All's order.
  llvm::StringMap<llvm::SmallVector<unsigned, 1>> DefinedIn;
  /// The argument and environment-name facts exported for each key, in
  /// All's order.
  llvm::StringMap<llvm::SmallVector<Export, 1>> Passed;
  /// The summary each TU exports for each key (its last), in All's order.
  llvm::StringMap<llvm::SmallVector<Export, 1>> Summaries;
  /// Whether each TU defines `main`.
  std::vector<bool> HasMain;

  bool defines(unsigned TU, llvm::StringRef Key) const;
};

/// The facts of other TUs that the TU at \p Index of \p All should be
/// analysed with, given every TU's exports (indexed by \p Index).
std::vector<FactRecord> importsFor(size_t Index,
                                   const std::vector<TUSummary> &All,
                                   const ExportIndex &Exports);

} // namespace ddp::driver

#endif // DDP_DRIVER_LINKER_H
