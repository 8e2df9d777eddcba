//===--- ClassHierarchy.cpp - Looking a class and its bases up ------------===//

#include "core/ClassHierarchy.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Type.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace ddp {

static bool searchBases(const CXXRecordDecl *RD,
                   llvm::function_ref<bool(const CXXRecordDecl *)> Matches,
                   unsigned Depth) {
  if (!RD || Depth > 16)
    return false;
  if (const CXXRecordDecl *Def = RD->getDefinition())
    RD = Def;
  if (Matches(RD))
    return true;
  if (!RD->hasDefinition())
    return false;
  for (const CXXBaseSpecifier &Base : RD->bases())
    if (searchBases(Base.getType()->getAsCXXRecordDecl(), Matches, Depth + 1))
      return true;
  return false;
}

bool isOrDerivesFrom(const CXXRecordDecl *RD,
                     llvm::function_ref<bool(const CXXRecordDecl *)> Matches) {
  return searchBases(RD, Matches, 0);
}

bool holdsClass(QualType T,
                llvm::function_ref<bool(const CXXRecordDecl *)> Matches) {
  for (unsigned Depth = 0; Depth < 4 && !T.isNull(); ++Depth) {
    T = T.getNonReferenceType();
    if (T->isPointerType()) {
      T = T->getPointeeType();
      continue;
    }
    const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
    if (!RD)
      return false;
    if (Matches(RD))
      return true;
    const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD);
    if (!Spec || Spec->getTemplateArgs().size() == 0 ||
        Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
      return false;
    T = Spec->getTemplateArgs()[0].getAsType();
  }
  return false;
}

llvm::SmallVector<const CXXMethodDecl *, 4>
overriddenMethods(const CXXMethodDecl *MD) {
  llvm::SmallVector<const CXXMethodDecl *, 4> Out;
  llvm::SmallPtrSet<const CXXMethodDecl *, 8> Seen;
  llvm::SmallVector<const CXXMethodDecl *, 4> Work{MD};
  while (!Work.empty() && Out.size() < 64) {
    const CXXMethodDecl *M = Work.pop_back_val();
    for (const CXXMethodDecl *Base : M->overridden_methods()) {
      Base = Base->getCanonicalDecl();
      if (Seen.insert(Base).second) {
        Out.push_back(Base);
        Work.push_back(Base);
      }
    }
  }
  return Out;
}

const CXXMethodDecl *dispatchedMethod(const Expr *E) {
  const auto *Call = dyn_cast_or_null<CXXMemberCallExpr>(E);
  if (!Call)
    return nullptr;
  const CXXMethodDecl *MD = Call->getMethodDecl();
  if (!MD || !MD->isVirtual() || MD->isInvalidDecl())
    return nullptr;
  if (const auto *Member =
          dyn_cast<MemberExpr>(Call->getCallee()->IgnoreParens()))
    if (Member->hasQualifier())
      return nullptr;
  const Expr *Object = Call->getImplicitObjectArgument();
  if (!Object || Object->containsErrors() ||
      MD->getDevirtualizedMethod(Object, /*IsAppleKext=*/false))
    return nullptr;
  return MD;
}

} // namespace ddp
