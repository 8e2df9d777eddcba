//===--- ClassHierarchy.h - Looking a class and its bases up --------------===//

#ifndef DDP_CORE_CLASSHIERARCHY_H
#define DDP_CORE_CLASSHIERARCHY_H

#include "llvm/ADT/STLFunctionalExtras.h"

namespace clang {
class CXXRecordDecl;
} // namespace clang

namespace ddp {

/// True if \p RD or one of its (transitive) bases satisfies \p Matches.
/// Declarations without a definition are tested but not looked into.
bool isOrDerivesFrom(const clang::CXXRecordDecl *RD,
                     llvm::function_ref<bool(const clang::CXXRecordDecl *)>
                         Matches);

} // namespace ddp

#endif // DDP_CORE_CLASSHIERARCHY_H
