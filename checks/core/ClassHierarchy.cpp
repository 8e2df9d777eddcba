//===--- ClassHierarchy.cpp - Looking a class and its bases up ------------===//

#include "core/ClassHierarchy.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Type.h"

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

} // namespace ddp
