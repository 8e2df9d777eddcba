//===--- BrokenCode.h - What the analysis trusts in code with errors ------===//
//
// Clang goes on after a compile error and builds an AST anyway: expressions
// it could not type-check become RecoveryExprs or "contain errors"
// (value-dependent, with a dependent type), declarations are marked invalid,
// and statements that did not parse at all are left out. The analysis takes
// a function's body as its control flow only while every statement is there:
// errors confined to expressions leave the control flow intact (their values
// are unknown, and calls in them are matched by name, see UnresolvedCalls);
// a dropped statement, an invalid class or an invalid structured binding do
// not. Functions the analysis cannot trust get no CFG at all: Clang's CFG
// builder is never run on them (Clang itself builds CFGs only for TUs
// without errors).
//
//===----------------------------------------------------------------------===//

#ifndef DDP_CORE_BROKENCODE_H
#define DDP_CORE_BROKENCODE_H

#include "llvm/ADT/APSInt.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include <optional>

namespace clang {
class ASTContext;
class Expr;
class FunctionDecl;
} // namespace clang

namespace ddp {

/// Why a function's body cannot be analysed.
enum class Distrust : unsigned char {
  None,
  /// The function is invalid for another reason than a parameter type that
  /// did not resolve (a redeclaration that conflicts, a bad return type).
  InvalidFunction,
  /// A method of a class that is itself invalid (unterminated, or with a
  /// base or member that did not compile).
  InvalidClass,
  /// A constructor whose member initializers did not compile.
  InvalidInitializer,
  /// A declaration in the body is invalid in a way that hides values or
  /// scopes: a structured binding, a local class or a lambda's class.
  InvalidDeclaration,
  /// A statement that did not compile was left out of the body (or an
  /// initializer, or all of a name but its text), and it mattered: the CFG
  /// would miss its control flow (an `if` whose branch did not parse is
  /// dropped whole), an assignment or a collective.
  DroppedStatement,
};

/// Why the body of \p FD cannot be trusted, or Distrust::None. Checks the
/// text of the body for dropped statements only when \p TUHasErrors (a TU
/// without errors has none), so clean code pays a walk of the AST. A
/// dropped statement matters if it can leave, opens or closes a block,
/// assigns, or names something \p Significant says communicates (a
/// collective of the catalogue, a function of the user's).
Distrust distrustOf(const clang::FunctionDecl *FD, bool TUHasErrors,
                    llvm::function_ref<bool(llvm::StringRef)> Significant);

/// "a statement that did not compile was left out", for messages.
const char *describe(Distrust Why);

/// Clang's constant evaluator, for expressions it supports: never a
/// value-dependent one (an expression that contains errors is one), on
/// which it asserts or crashes.
std::optional<llvm::APSInt> evaluateInt(const clang::Expr *E,
                                        const clang::ASTContext &AST);
std::optional<bool> evaluateCondition(const clang::Expr *E,
                                      const clang::ASTContext &AST);
bool isIntegerConstant(const clang::Expr *E, const clang::ASTContext &AST);
/// isEvaluatable, for expressions the evaluator supports.
bool isEvaluatable(const clang::Expr *E, const clang::ASTContext &AST);

} // namespace ddp

#endif // DDP_CORE_BROKENCODE_H
