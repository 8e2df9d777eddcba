//===--- FreshAllocations.cpp - Blocks that hold nothing yet --------------===//

#include "FreshAllocations.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace ddp {

static bool named(const FunctionDecl *FD,
                  llvm::ArrayRef<llvm::StringLiteral> Names) {
  return FD && FD->getDeclName().isIdentifier() &&
         llvm::is_contained(Names, FD->getName());
}

bool isAllocation(const FunctionDecl *FD) {
  static constexpr llvm::StringLiteral Names[] = {
      "malloc", "calloc", "aligned_alloc", "valloc", "memalign", "pvalloc"};
  return named(FD, Names) && FD->getReturnType()->isPointerType();
}

bool isOutParamAllocator(const FunctionDecl *FD) {
  static constexpr llvm::StringLiteral Names[] = {
      "cudaMalloc",    "cudaMallocHost",   "cudaMallocManaged",
      "cudaHostAlloc", "cudaMallocAsync",  "hipMalloc",
      "hipHostMalloc", "hipMallocManaged", "posix_memalign",
      "ncclMemAlloc"};
  return named(FD, Names) && FD->getNumParams() > 0 &&
         FD->getParamDecl(0)->getType()->isPointerType();
}

/// `new T[n]`, `new T[n]()`, `new T`, `new T()`: nothing chosen with it.
static bool isEmptyNew(const CXXNewExpr *New) {
  const Expr *Init = New->getInitializer();
  if (!Init)
    return true;
  if (isa<ImplicitValueInitExpr>(Init))
    return true;
  if (const auto *List = dyn_cast<InitListExpr>(Init))
    return List->getNumInits() == 0;
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(Init))
    return Construct->getNumArgs() == 0;
  return false;
}

/// A new block by itself, without looking through variables.
static bool isFreshValue(const Expr *E) {
  E = E->IgnoreParenCasts();
  if (const auto *New = dyn_cast<CXXNewExpr>(E)) {
    // A class's default constructor may fill the object from anything.
    const auto *Class = New->getAllocatedType()
                            ->getBaseElementTypeUnsafe()
                            ->getAsCXXRecordDecl();
    if (Class && !Class->hasTrivialDefaultConstructor())
      return false;
    return isEmptyNew(New);
  }
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return isAllocation(Call->getDirectCallee());
  return false;
}

namespace {
/// Whether a local pointer is only ever given new blocks and returned: each
/// mention of it is the left side of `p = <new block>`, the `&p` an
/// allocator fills, or the value of a return. Any other use (an element
/// written, the pointer passed on) might fill the block on one side only.
class LocalUses : public RecursiveASTVisitor<LocalUses> {
public:
  explicit LocalUses(const VarDecl *Var) : Var(Var) {}
  bool shouldVisitLambdaExpressions() const { return true; }

  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->getOpcode() == BO_Assign && isFreshValue(BO->getRHS()))
      allow(BO->getLHS());
    return true;
  }
  bool VisitCallExpr(CallExpr *Call) {
    if (isOutParamAllocator(Call->getDirectCallee()) && Call->getNumArgs())
      if (const auto *UO =
              dyn_cast<UnaryOperator>(Call->getArg(0)->IgnoreParenCasts()))
        if (UO->getOpcode() == UO_AddrOf)
          allow(UO->getSubExpr());
    return true;
  }
  bool VisitReturnStmt(ReturnStmt *RS) {
    if (const Expr *Value = RS->getRetValue())
      allow(Value);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (DRE->getDecl() == Var)
      Uses.push_back(DRE);
    return true;
  }
  /// Checked after the walk: a parent is visited before its children.
  bool onlyAllowedUses() const {
    return llvm::all_of(
        Uses, [&](const DeclRefExpr *DRE) { return Allowed.contains(DRE); });
  }

private:
  /// \p E, if it names the variable, is one of the uses allowed.
  void allow(const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenCasts());
    if (DRE && DRE->getDecl() == Var)
      Allowed.insert(DRE);
  }
  const VarDecl *Var;
  llvm::SmallPtrSet<const DeclRefExpr *, 4> Allowed;
  llvm::SmallVector<const DeclRefExpr *, 4> Uses;
};
} // namespace

bool FreshAllocations::isFresh(const Expr *E) {
  if (isFreshValue(E))
    return true;
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenCasts());
  const auto *Var = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  return Var && isFreshLocal(Var);
}

bool FreshAllocations::isFreshLocal(const VarDecl *Var) {
  auto [It, New] = Locals.try_emplace(Var, false);
  if (!New)
    return It->second;
  if (!FD || !FD->hasBody() || isa<ParmVarDecl>(Var) ||
      !Var->hasLocalStorage() || !Var->getType()->isPointerType() ||
      Var->getDeclContext() != FD)
    return false;
  if (const Expr *Init = Var->getInit(); Init && !isFreshValue(Init))
    return false;
  LocalUses Uses(Var);
  Uses.TraverseStmt(FD->getBody());
  return It->second = Uses.onlyAllowedUses();
}

} // namespace ddp
