//===--- ClassHierarchy.h - Looking a class and its bases up --------------===//

#ifndef DDP_CORE_CLASSHIERARCHY_H
#define DDP_CORE_CLASSHIERARCHY_H

#include "llvm/ADT/STLFunctionalExtras.h"

#include "llvm/ADT/SmallVector.h"

namespace clang {
class QualType;
class CXXMemberCallExpr;
class CXXMethodDecl;
class CXXRecordDecl;
class Expr;
} // namespace clang

namespace ddp {

/// True if \p RD or one of its (transitive) bases satisfies \p Matches.
/// Declarations without a definition are tested but not looked into.
bool isOrDerivesFrom(const clang::CXXRecordDecl *RD,
                     llvm::function_ref<bool(const clang::CXXRecordDecl *)>
                         Matches);

/// True if \p T is, refers or points to, or holds as its first template
/// argument (`std::shared_ptr<Impl>`, `ModuleHolder<Impl>`) a class that
/// satisfies \p Matches, up to a few levels deep.
bool holdsClass(clang::QualType T,
                llvm::function_ref<bool(const clang::CXXRecordDecl *)> Matches);

/// The methods \p MD overrides, directly or through intermediate classes.
llvm::SmallVector<const clang::CXXMethodDecl *, 4>
overriddenMethods(const clang::CXXMethodDecl *MD);

/// The virtual method \p Call dispatches on the dynamic type of its object,
/// or null if the call is direct: not virtual, qualified (`Base::f()`), or
/// on an object whose dynamic type is known (a local object, a `final`
/// class or method).
const clang::CXXMethodDecl *dispatchedMethod(const clang::Expr *Call);

} // namespace ddp

#endif // DDP_CORE_CLASSHIERARCHY_H
