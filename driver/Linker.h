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
#include <functional>
#include <vector>

namespace ddp::driver {

/// How a report shows a location ("train.cpp:42:7").
using LocationPrinter = std::function<std::string(const Location &)>;

std::vector<Diagnostic> link(const std::vector<TUSummary> &TUs,
                             const LocationPrinter &Show);

/// The facts of other TUs that \p TU should be analysed with, given every
/// TU's exports.
std::vector<FactRecord> importsFor(const TUSummary &TU,
                                   const std::vector<TUSummary> &All);

} // namespace ddp::driver

#endif // DDP_DRIVER_LINKER_H
