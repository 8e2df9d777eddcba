//===--- UserCodeVisitor.h - Walk the user's code, not the libraries' -----===//

#ifndef DDP_CORE_USERCODEVISITOR_H
#define DDP_CORE_USERCODEVISITOR_H

#include "core/AnalysisContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include <vector>

namespace ddp {

/// A RecursiveASTVisitor that skips library namespaces and system headers
/// wholesale (LibTorch's and the standard library's thousands of
/// declarations hold nothing of the user's), and visits template
/// instantiations and lambda bodies.
template <typename Derived>
class UserCodeVisitor : public clang::RecursiveASTVisitor<Derived> {
public:
  explicit UserCodeVisitor(const AnalysisContext &Ctx) : Libraries(Ctx) {}

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitLambdaBodies() const { return true; }

  bool TraverseDecl(clang::Decl *D) {
    if (D && !clang::isa<clang::TranslationUnitDecl, clang::LinkageSpecDecl>(D) &&
        Libraries.isLibraryDecl(D))
      return true;
    return clang::RecursiveASTVisitor<Derived>::TraverseDecl(D);
  }

protected:
  const AnalysisContext &Libraries;
};

/// The user's function definitions (lambdas' call operators included), in
/// the order they appear.
class UserFunctions : public UserCodeVisitor<UserFunctions> {
public:
  using UserCodeVisitor::UserCodeVisitor;
  bool VisitFunctionDecl(clang::FunctionDecl *FD) {
    // Not templates, and not code the analysis cannot trust (BrokenCode.h).
    if (FD->doesThisDeclarationHaveABody() && Libraries.isAnalysable(FD))
      Functions.push_back(FD);
    return true;
  }
  std::vector<const clang::FunctionDecl *> Functions;
};

} // namespace ddp

#endif // DDP_CORE_USERCODEVISITOR_H
