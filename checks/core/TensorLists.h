//===--- TensorLists.h - Tensor lists whose length differs between ranks --===//
//
// A collective over a list of tensors (`allreduce_coalesced(grads)`) needs
// the same number of tensors, of the same sizes, on every rank. A list that
// some ranks fill differently, such as the gradients that are defined (a
// parameter this rank's forward pass did not use has none), exchanges
// tensors that do not match, or none at all on a rank that then skips the
// collective. The second case is an early exit, found like any other; this
// finds the first: a collective whose list grows or shrinks under a
// rank-dependent condition before it.
//
//===----------------------------------------------------------------------===//

#ifndef DDP_CORE_TENSORLISTS_H
#define DDP_CORE_TENSORLISTS_H

#include "llvm/ADT/StringRef.h"
#include <vector>

namespace clang {
class Expr;
class FunctionDecl;
class Stmt;
} // namespace clang

namespace ddp {

class AnalysisContext;
class FunctionAnalysis;
struct Finding;

/// True for a container operation that changes how many elements it holds
/// (push_back, insert, erase, resize, clear, ...).
bool changesLength(llvm::StringRef Method);

/// True for a parameter's gradient: `p.grad()`, `p.mutable_grad()`, or a
/// local variable initialised from one.
bool isGradient(const clang::Expr *E);

/// Adds to \p Out, for each collective of \p FA whose tensor list changes
/// length under a rank-dependent condition before it, a finding (Shape::
/// UnevenList), or, if \p Out already reports that call, the list to that
/// finding.
void findUnevenLists(FunctionAnalysis &FA, AnalysisContext &Ctx,
                     std::vector<Finding> &Out);

} // namespace ddp

#endif // DDP_CORE_TENSORLISTS_H
