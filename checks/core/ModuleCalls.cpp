//===--- ModuleCalls.cpp - Running a LibTorch module's forward ------------===//

#include "core/ModuleCalls.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/SmallVector.h"

using namespace clang;

namespace ddp {
namespace {

bool isForward(const FunctionDecl *FD) {
  return FD && FD->getDeclName().isIdentifier() && FD->getName() == "forward";
}

/// True for torch::nn::ModuleHolder<...>.
bool isModuleHolder(const CXXRecordDecl *RD) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
  return Spec && Spec->getQualifiedNameAsString() == "torch::nn::ModuleHolder";
}

/// The `forward` the instantiated body of \p Holder's operator() calls
/// (`impl_->forward(...)`): overload resolution already picked it.
const FunctionDecl *forwardCalledIn(const Stmt *S, unsigned Depth = 0) {
  if (!S || Depth > 16)
    return nullptr;
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(S))
    if (isForward(Member->getDirectCallee()))
      return Member->getDirectCallee();
  for (const Stmt *Child : S->children())
    if (const FunctionDecl *Found = forwardCalledIn(Child, Depth + 1))
      return Found;
  return nullptr;
}

/// The `forward` of \p Impl (or of a base) that takes \p Args arguments.
const FunctionDecl *forwardTaking(const CXXRecordDecl *Impl, unsigned Args,
                                  unsigned Depth = 0) {
  if (!Impl || Depth > 8)
    return nullptr;
  if (const CXXRecordDecl *Def = Impl->getDefinition())
    Impl = Def;
  else
    return nullptr;
  for (const CXXMethodDecl *Method : Impl->methods())
    if (isForward(Method) && Method->getMinRequiredArguments() <= Args &&
        (Method->isVariadic() || Args <= Method->getNumParams()))
      return Method;
  for (const CXXBaseSpecifier &Base : Impl->bases())
    if (const FunctionDecl *Found = forwardTaking(
            Base.getType()->getAsCXXRecordDecl(), Args, Depth + 1))
      return Found;
  return nullptr;
}

} // namespace

const FunctionDecl *forwardRunBy(const CallExpr *Call) {
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
  if (!Op || Op->getOperator() != OO_Call || Op->getNumArgs() < 1)
    return nullptr;
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee());
  if (!Method || !isModuleHolder(Method->getParent()))
    return nullptr;
  // The holder's operator() is a template instantiated for this call.
  if (const FunctionDecl *Def = Method->getDefinition())
    if (const FunctionDecl *Forward = forwardCalledIn(Def->getBody()))
      return Forward;
  const auto *Holder = cast<ClassTemplateSpecializationDecl>(Method->getParent());
  const TemplateArgumentList &Args = Holder->getTemplateArgs();
  if (Args.size() == 0 || Args[0].getKind() != TemplateArgument::Type)
    return nullptr;
  return forwardTaking(Args[0].getAsType()->getAsCXXRecordDecl(),
                       Op->getNumArgs() - 1);
}

} // namespace ddp
