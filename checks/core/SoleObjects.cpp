//===--- SoleObjects.cpp - Classes whose only object is one global --------===//

#include "core/SoleObjects.h"
#include "core/UserCodeVisitor.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace ddp {

namespace {
/// \p Var, if it is a global of the TU's own whose type is exactly \p Record
/// (not an array or pointer of it).
const VarDecl *internalGlobal(const VarDecl *Var, const RecordDecl *Record) {
  if (!Var || !Var->hasGlobalStorage() || Var->isStaticLocal() ||
      Var->isExternallyVisible())
    return nullptr;
  const RecordDecl *Type = Var->getType()->getAsRecordDecl();
  return Type && Type->getCanonicalDecl() == Record ? Var->getCanonicalDecl()
                                                    : nullptr;
}

/// The variable \p E names, if internalGlobal holds for it.
const VarDecl *internalGlobalOf(const Expr *E, const RecordDecl *Record) {
  const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return Ref ? internalGlobal(dyn_cast<VarDecl>(Ref->getDecl()), Record)
             : nullptr;
}

class FieldAccesses : public UserCodeVisitor<FieldAccesses> {
public:
  FieldAccesses(const AnalysisContext &Ctx,
                llvm::DenseMap<const RecordDecl *, const VarDecl *> &Objects)
      : UserCodeVisitor(Ctx), Objects(Objects) {}

  // Any other object of the class, a parameter or a member of another
  // class included, makes it one of several.
  bool VisitVarDecl(VarDecl *Var) {
    if (const RecordDecl *Record = recordOf(Var->getType()))
      if (!internalGlobal(Var, Record))
        Several.insert(Record);
    return true;
  }
  bool VisitFieldDecl(FieldDecl *Field) {
    if (const RecordDecl *Record = recordOf(Field->getType()))
      Several.insert(Record);
    return true;
  }

  bool VisitMemberExpr(MemberExpr *Member) {
    const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
    if (!Field)
      return true;
    const auto *Record =
        cast<RecordDecl>(Field->getParent()->getCanonicalDecl());
    const VarDecl *Var = Member->isArrow()
                             ? nullptr
                             : internalGlobalOf(Member->getBase(), Record);
    auto [It, New] = Objects.try_emplace(Record, Var);
    // A second object, or an access through a pointer or `this`.
    if (!New && It->second != Var)
      It->second = nullptr;
    return true;
  }

  /// The classes with more than one object.
  llvm::DenseSet<const RecordDecl *> Several;

private:
  static const RecordDecl *recordOf(QualType T) {
    const RecordDecl *Record = T->getAsRecordDecl();
    return Record ? cast<RecordDecl>(Record->getCanonicalDecl()) : nullptr;
  }

  llvm::DenseMap<const RecordDecl *, const VarDecl *> &Objects;
};
} // namespace

SoleObjects::SoleObjects(const AnalysisContext &Ctx) {
  FieldAccesses Finder(Ctx, Objects);
  Finder.TraverseDecl(Ctx.AST.getTranslationUnitDecl());
  for (const RecordDecl *Record : Finder.Several)
    Objects[Record] = nullptr;
}

const VarDecl *SoleObjects::of(const RecordDecl *Record) const {
  return Record ? Objects.lookup(cast<RecordDecl>(Record->getCanonicalDecl()))
                : nullptr;
}

} // namespace ddp
