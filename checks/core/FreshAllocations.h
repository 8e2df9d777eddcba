//===--- FreshAllocations.h - Blocks that hold nothing yet ----------------===//
//
// A new block of memory holds nothing a rank computed: its address is this
// process's own, and what it holds is written later. So the choice between
// two allocators does not make what a block holds depend on the rank:
//
//   float *alloc(size_t n) {
//     if (device < 0) return new float[n];        // device: the local rank
//     void *mem; cudaMalloc(&mem, n * sizeof(float)); return (float *)mem;
//   }
//
// returns a block that every rank fills alike. A block built with contents
// (`new float[1]{rank}`, `new T(x)`) is not fresh: what it holds is chosen
// with it.
//
//===----------------------------------------------------------------------===//

#ifndef DDP_CORE_FRESHALLOCATIONS_H
#define DDP_CORE_FRESHALLOCATIONS_H

#include "llvm/ADT/DenseMap.h"

namespace clang {
class Expr;
class FunctionDecl;
class VarDecl;
} // namespace clang

namespace ddp {

/// malloc, calloc, aligned_alloc and the like: the result is a new address,
/// not a value computed from the arguments.
bool isAllocation(const clang::FunctionDecl *FD);

/// Allocators that return the new block through their first argument
/// (cudaMalloc(&p, n), posix_memalign(&p, a, n), hipMalloc, ncclMemAlloc).
bool isOutParamAllocator(const clang::FunctionDecl *FD);

/// Which expressions of one function are blocks that hold nothing yet.
class FreshAllocations {
public:
  explicit FreshAllocations(const clang::FunctionDecl *FD) : FD(FD) {}

  /// True for a `new` without contents, an allocation call, or a local
  /// pointer of the function that is only ever given new blocks and returned.
  bool isFresh(const clang::Expr *E);
  /// True if \p Var, a local pointer of the function, is only ever given new
  /// blocks (its initializer, `p = malloc(n)`, `cudaMalloc(&p, n)`) and
  /// returned, nothing else. One walk of the body per variable.
  bool isFreshLocal(const clang::VarDecl *Var);

private:
  const clang::FunctionDecl *FD;
  llvm::DenseMap<const clang::VarDecl *, bool> Locals;
};

} // namespace ddp

#endif // DDP_CORE_FRESHALLOCATIONS_H
