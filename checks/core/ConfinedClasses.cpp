//===--- ConfinedClasses.cpp - Classes whose objects never leave a file ---===//
//
// A value "mentions" a class when its type could hold a pointer to an object
// of it: the class itself, its template arguments, its fields' types, and
// the fields of its bases (a `Base *` can point to a `Derived`, so a value
// whose type mentions a base of a candidate can hold the candidate; a value
// of another class derived from that base cannot). The file's statements are
// walked once; every value that leaves the file and mentions a base (or the
// class) of a candidate makes that candidate escape.
//
//===----------------------------------------------------------------------===//

#include "core/ConfinedClasses.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include <memory>

using namespace clang;

namespace ddp {
namespace {

using RecordSet = llvm::SmallPtrSet<const CXXRecordDecl *, 8>;

const CXXRecordDecl *canonical(const CXXRecordDecl *RD) {
  return RD ? RD->getCanonicalDecl() : nullptr;
}

bool inMainFile(const SourceManager &SM, const Decl *D) {
  SourceLocation Loc = D->getLocation();
  return Loc.isValid() && SM.isInMainFile(SM.getExpansionLoc(Loc));
}

/// The classes a value of some type can point to objects of, memoized.
class Mentions {
public:
  const RecordSet &of(QualType T) {
    const CXXRecordDecl *RD = strip(T);
    static const RecordSet None;
    return RD ? ofRecord(RD) : None;
  }

  /// The class \p T is, refers or points to, if any.
  static const CXXRecordDecl *strip(QualType T) {
    while (!T.isNull()) {
      T = T.getNonReferenceType();
      if (const auto *P = T->getAs<PointerType>())
        T = P->getPointeeType();
      else if (const auto *M = T->getAs<MemberPointerType>())
        T = M->getPointeeType();
      else if (const ArrayType *A = T->getAsArrayTypeUnsafe())
        T = A->getElementType();
      else
        break;
    }
    return T.isNull() ? nullptr : canonical(T->getAsCXXRecordDecl());
  }

private:
  /// Everything reachable from \p RD through direct mentions (a worklist,
  /// so recursive types are closed over exactly).
  const RecordSet &ofRecord(const CXXRecordDecl *RD) {
    std::unique_ptr<RecordSet> &Slot = Memo[RD];
    if (Slot)
      return *Slot;
    auto Found = std::make_unique<RecordSet>();
    llvm::SmallVector<const CXXRecordDecl *, 16> Work{RD};
    Found->insert(RD);
    while (!Work.empty()) {
      const CXXRecordDecl *Next = Work.pop_back_val();
      for (const CXXRecordDecl *Direct : directlyMentioned(Next))
        if (Found->insert(Direct).second)
          Work.push_back(Direct);
    }
    // Memo may have grown: look the slot up again.
    return *(Memo[RD] = std::move(Found));
  }

  /// The records \p RD names directly: its template arguments, its fields'
  /// types and its bases' fields' types (not the bases themselves).
  static llvm::SmallVector<const CXXRecordDecl *, 8>
  directlyMentioned(const CXXRecordDecl *RD) {
    llvm::SmallVector<const CXXRecordDecl *, 8> Out;
    auto Add = [&](QualType T) {
      if (const CXXRecordDecl *R = strip(T))
        Out.push_back(R);
    };
    if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD))
      for (const TemplateArgument &Arg : Spec->getTemplateArgs().asArray())
        if (Arg.getKind() == TemplateArgument::Type)
          Add(Arg.getAsType());
    addFields(Add, RD);
    return Out;
  }

  template <typename Fn>
  static void addFields(Fn &Add, const CXXRecordDecl *RD) {
    const CXXRecordDecl *Def = RD->getDefinition();
    if (!Def)
      return;
    for (const FieldDecl *F : Def->fields())
      Add(F->getType());
    for (const CXXBaseSpecifier &B : Def->bases())
      if (const CXXRecordDecl *Base = strip(B.getType()))
        addFields(Add, Base);
  }

  llvm::DenseMap<const CXXRecordDecl *, std::unique_ptr<RecordSet>> Memo;
};

/// Walks the main file's code and removes from Candidates every class an
/// escaping value can hold.
class EscapeFinder : public RecursiveASTVisitor<EscapeFinder> {
public:
  EscapeFinder(ASTContext &Ctx, RecordSet &Candidates)
      : SM(Ctx.getSourceManager()), Candidates(Candidates) {
    for (const CXXRecordDecl *C : Candidates)
      for (const CXXBaseSpecifier &B : C->getDefinition()->bases())
        collectBases(C, B.getType());
  }

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }

  bool TraverseDecl(Decl *D) {
    if (!D || isa<TranslationUnitDecl, LinkageSpecDecl>(D) || inMainFile(D))
      return RecursiveASTVisitor::TraverseDecl(D);
    return true;
  }

  // Calls into code outside the file: what they are given escapes.
  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
        Op && Op->isAssignmentOp() && Call->getNumArgs() == 2) {
      stored(Op->getArg(0), Op->getArg(1));
      return true;
    }
    if (!Callee) {
      // Through a pointer: anything may run.
      for (const Expr *Arg : Call->arguments())
        escapes(Arg);
      return true;
    }
    if (definedHere(Callee))
      return true;
    const Expr *Object = nullptr;
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call))
      Object = Member->getImplicitObjectArgument();
    else if (isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(Callee) &&
             Call->getNumArgs() > 0)
      Object = Call->getArg(0);
    unsigned First = Object && isa<CXXOperatorCallExpr>(Call) ? 1 : 0;
    if (inStd(Callee)) {
      // The standard library keeps what it is given in the object it is
      // given to, or hands it back: those values are followed on their own.
      if (Object && holdsCandidate(Object->getType())) {
        for (unsigned I = First; I < Call->getNumArgs(); ++I)
          stored(Object, Call->getArg(I));
        return true;
      }
      if (holdsCandidate(Call->getType()))
        return true;
    }
    for (unsigned I = First; I < Call->getNumArgs(); ++I)
      escapes(Call->getArg(I));
    if (Object && !inStd(Callee))
      objectEscapes(Object, cast<CXXMethodDecl>(Callee));
    return true;
  }

  // Into a type that cannot be followed (`void *`, an integer).
  bool VisitCastExpr(CastExpr *Cast) {
    switch (Cast->getCastKind()) {
    case CK_BitCast:
    case CK_LValueBitCast:
    case CK_PointerToIntegral:
    case CK_ReinterpretMemberPointer:
      escapes(Cast->getSubExpr());
      break;
    default:
      break;
    }
    return true;
  }

  bool VisitCXXConstructExpr(CXXConstructExpr *Construct) {
    const CXXConstructorDecl *Ctor = Construct->getConstructor();
    if (!Ctor || definedHere(Ctor))
      return true;
    // Into another value that holds the candidate: followed on its own.
    if (holdsCandidate(Construct->getType()) &&
        (inStd(Ctor) || Ctor->isTrivial() || Ctor->isDefaulted()))
      return true;
    for (const Expr *Arg : Construct->arguments())
      escapes(Arg);
    return true;
  }

  // Values handed out of a function: its callers may be elsewhere.
  bool VisitReturnStmt(ReturnStmt *Return) {
    if (const Expr *Value = Return->getRetValue())
      escapes(Value);
    return true;
  }
  bool VisitCXXThrowExpr(CXXThrowExpr *Throw) {
    if (const Expr *Value = Throw->getSubExpr())
      escapes(Value);
    return true;
  }

  // Stores into anything but a local or an object of the file's own.
  bool VisitBinaryOperator(BinaryOperator *Op) {
    if (Op->isAssignmentOp())
      stored(Op->getLHS(), Op->getRHS());
    return true;
  }
  bool VisitVarDecl(VarDecl *Var) {
    if (Var->hasGlobalStorage() && Var->getInit())
      escapes(Var->getInit());
    return true;
  }
  bool VisitCXXConstructorDecl(CXXConstructorDecl *Ctor) {
    bool OwnClass = definedHere(Ctor->getParent());
    for (const CXXCtorInitializer *Init : Ctor->inits())
      if (Init->getInit() && Init->isAnyMemberInitializer() && !OwnClass)
        escapes(Init->getInit());
    return true;
  }

private:
  bool inMainFile(const Decl *D) const { return ddp::inMainFile(SM, D); }

  bool definedHere(const FunctionDecl *FD) const {
    const FunctionDecl *Def = FD->getDefinition();
    return Def && inMainFile(Def);
  }
  bool definedHere(const CXXRecordDecl *RD) const {
    const CXXRecordDecl *Def = RD->getDefinition();
    return Def && inMainFile(Def);
  }

  static bool inStd(const Decl *D) {
    for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
      if (DC->isStdNamespace())
        return true;
    return false;
  }

  void collectBases(const CXXRecordDecl *C, QualType T) {
    const CXXRecordDecl *Base = canonical(T->getAsCXXRecordDecl());
    if (!Base)
      return;
    BasesOf[Base].insert(C);
    if (const CXXRecordDecl *Def = Base->getDefinition())
      for (const CXXBaseSpecifier &B : Def->bases())
        collectBases(C, B.getType());
  }

  /// The candidates (those not yet escaped) a value of type \p T can hold.
  RecordSet heldBy(QualType T) {
    RecordSet Out;
    if (T.isNull() || T->isDependentType())
      return Out;
    auto Add = [&](const CXXRecordDecl *C) {
      if (Candidates.contains(C))
        Out.insert(C);
    };
    for (const CXXRecordDecl *R : Is.of(T)) {
      Add(R);
      auto It = BasesOf.find(R);
      if (It != BasesOf.end())
        llvm::for_each(It->second, Add);
    }
    return Out;
  }
  bool holdsCandidate(QualType T) { return !heldBy(T).empty(); }

  void escapes(const Expr *E) {
    if (!E || Candidates.empty())
      return;
    for (QualType T : {E->getType(), E->IgnoreParenImpCasts()->getType(),
                       E->IgnoreCasts()->getType()})
      for (const CXXRecordDecl *C : heldBy(T))
        Candidates.erase(C);
  }

  /// \p Value is stored into \p Target: a local object (not a reference or
  /// a pointer, which may lead elsewhere) or a field of an object of the
  /// file's own classes keeps it; anything else lets it go.
  void stored(const Expr *Target, const Expr *Value) {
    const Expr *T = Target->IgnoreParenImpCasts();
    if (const auto *Ref = dyn_cast<DeclRefExpr>(T))
      if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
          Var && Var->hasLocalStorage() && !Var->getType()->isReferenceType() &&
          !Var->getType()->isPointerType())
        return;
    if (const auto *Member = dyn_cast<MemberExpr>(T))
      if (const CXXRecordDecl *RD =
              Mentions::strip(Member->getBase()->getType());
          RD && definedHere(RD))
        return;
    escapes(Value);
  }

  /// A method of another file runs with \p Object as `this`. A virtual call
  /// runs a candidate's own override when it has one in the file.
  void objectEscapes(const Expr *Object, const CXXMethodDecl *Method) {
    for (const CXXRecordDecl *C : heldBy(Object->getType())) {
      if (Method->isVirtual())
        if (const CXXMethodDecl *Final =
                Method->getCorrespondingMethodInClass(C->getDefinition());
            Final && definedHere(Final))
          continue;
      Candidates.erase(C);
    }
  }

  const SourceManager &SM;
  RecordSet &Candidates;
  /// For each base of a candidate, the candidates derived from it.
  llvm::DenseMap<const CXXRecordDecl *, RecordSet> BasesOf;
  Mentions Is;
};

/// Polymorphic classes of the main file that override a method.
class CandidateFinder : public RecursiveASTVisitor<CandidateFinder> {
public:
  explicit CandidateFinder(const SourceManager &SM) : SM(SM) {}

  bool TraverseDecl(Decl *D) {
    if (!D || isa<TranslationUnitDecl, LinkageSpecDecl>(D) || inMainFile(SM, D))
      return RecursiveASTVisitor::TraverseDecl(D);
    return true;
  }
  // Classes defined inside a function body are left out (never confined):
  // the bodies are not walked.
  bool TraverseStmt(Stmt *) { return true; }

  bool VisitCXXRecordDecl(CXXRecordDecl *RD) {
    if (!RD->isThisDeclarationADefinition() || RD->isDependentType() ||
        !RD->isPolymorphic() || RD->isLambda())
      return true;
    for (const CXXMethodDecl *MD : RD->methods())
      if (MD->size_overridden_methods() > 0) {
        Found.insert(RD->getCanonicalDecl());
        break;
      }
    return true;
  }

  RecordSet Found;

private:
  const SourceManager &SM;
};

/// A base constructor the file cannot see, or one that lets `this` go,
/// publishes every object of the class.
bool baseConstructorsStayHere(const CXXRecordDecl *C) {
  const CXXRecordDecl *Def = C->getDefinition();
  for (const CXXConstructorDecl *Ctor : Def->ctors())
    for (const CXXCtorInitializer *Init : Ctor->inits()) {
      if (!Init->isBaseInitializer())
        continue;
      const auto *Construct =
          dyn_cast_or_null<CXXConstructExpr>(Init->getInit()->IgnoreImplicit());
      if (!Construct)
        return false;
      const CXXConstructorDecl *BaseCtor = Construct->getConstructor();
      if (BaseCtor->isTrivial() || BaseCtor->isDefaulted())
        continue;
      const FunctionDecl *Body = nullptr;
      if (!BaseCtor->hasBody(Body) || !Body)
        return false;
      class ThisFinder : public RecursiveASTVisitor<ThisFinder> {
      public:
        bool VisitCXXThisExpr(CXXThisExpr *) {
          ++Uses;
          return true;
        }
        bool VisitMemberExpr(MemberExpr *M) {
          if (isa<CXXThisExpr>(M->getBase()->IgnoreParenImpCasts()))
            --Uses;
          return true;
        }
        int Uses = 0;
      } Finder;
      Finder.TraverseStmt(Body->getBody());
      for (const CXXCtorInitializer *BaseInit :
           cast<CXXConstructorDecl>(Body)->inits())
        Finder.TraverseStmt(BaseInit->getInit());
      if (Finder.Uses > 0)
        return false;
    }
  return true;
}

} // namespace

llvm::SmallPtrSet<const CXXRecordDecl *, 4> confinedClasses(ASTContext &Ctx) {
  CandidateFinder Candidates(Ctx.getSourceManager());
  Candidates.TraverseDecl(Ctx.getTranslationUnitDecl());
  RecordSet Confined;
  for (const CXXRecordDecl *C : Candidates.Found)
    if (baseConstructorsStayHere(C))
      Confined.insert(C);
  if (Confined.empty())
    return {};
  EscapeFinder Escapes(Ctx, Confined);
  Escapes.TraverseDecl(Ctx.getTranslationUnitDecl());
  return llvm::SmallPtrSet<const CXXRecordDecl *, 4>(Confined.begin(),
                                                     Confined.end());
}

} // namespace ddp
