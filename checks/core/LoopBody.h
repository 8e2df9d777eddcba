//===--- LoopBody.h - The body of any kind of loop ------------------------===//

#ifndef DDP_CORE_LOOPBODY_H
#define DDP_CORE_LOOPBODY_H

#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"

namespace ddp {

/// The body of \p S if it is a for, range-for, while or do loop; else null.
inline const clang::Stmt *loopBody(const clang::Stmt *S) {
  if (const auto *For = llvm::dyn_cast_or_null<clang::ForStmt>(S))
    return For->getBody();
  if (const auto *While = llvm::dyn_cast_or_null<clang::WhileStmt>(S))
    return While->getBody();
  if (const auto *Do = llvm::dyn_cast_or_null<clang::DoStmt>(S))
    return Do->getBody();
  if (const auto *Range = llvm::dyn_cast_or_null<clang::CXXForRangeStmt>(S))
    return Range->getBody();
  return nullptr;
}

} // namespace ddp

#endif // DDP_CORE_LOOPBODY_H
