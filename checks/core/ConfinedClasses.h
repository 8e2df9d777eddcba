//===--- ConfinedClasses.h - Classes whose objects never leave a file -----===//
//
// A class defined in a translation unit's main file (a test's fake
// transport, a benchmark's own backend) can only be named there. Its objects
// reach code in other files only through values the main file lets go: an
// argument of a function defined elsewhere, a return value, a throw, a store
// into anything but a local. When none of those can hold one, a virtual call
// in another translation unit cannot run its overrides, and ddp-lint does not
// count them among that call's targets.
//
//===----------------------------------------------------------------------===//

#ifndef DDP_CORE_CONFINEDCLASSES_H
#define DDP_CORE_CONFINEDCLASSES_H

#include "llvm/ADT/SmallPtrSet.h"

namespace clang {
class ASTContext;
class CXXRecordDecl;
} // namespace clang

namespace ddp {

/// The polymorphic classes defined in the main file of \p Ctx's translation
/// unit whose objects no code outside that file can see (canonical decls).
llvm::SmallPtrSet<const clang::CXXRecordDecl *, 4>
confinedClasses(clang::ASTContext &Ctx);

} // namespace ddp

#endif // DDP_CORE_CONFINEDCLASSES_H
