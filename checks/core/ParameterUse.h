//===--- ParameterUse.h - Which registered parameters forward uses --------===//
//
// With find_unused_parameters off, a c10d::Reducer (or a DDP-like wrapper)
// expects a gradient for every parameter of the module in every backward.
// A registered submodule or parameter that the module's forward uses only on
// some paths (a branch on an input, a flag, the training mode; an early
// return) or never leaves the reduction waiting for gradients that never
// come. This finds the synchronised constructions with the option off, the
// module class they synchronise, and the registered members its forward
// does not use on every path: on the forward's CFG, a member is used on
// every path when no path from entry to exit avoids the blocks that use it
// (directly, or through a method of the class that forward calls).
//
//===----------------------------------------------------------------------===//

#ifndef DDP_CORE_PARAMETERUSE_H
#define DDP_CORE_PARAMETERUSE_H

#include <vector>

namespace clang {
class CXXMethodDecl;
class CXXRecordDecl;
class Expr;
class FieldDecl;
class FunctionDecl;
class Stmt;
} // namespace clang

namespace ddp {

class AnalysisContext;

/// A Reducer or wrapper construction whose find_unused_parameters is false.
struct StrictSync {
  /// The construction (a CXXConstructExpr, or the call that builds it).
  const clang::Expr *Site = nullptr;
  /// The find_unused_parameters argument (null when defaulted).
  const clang::Expr *FindUnused = nullptr;
  const clang::CXXRecordDecl *Module = nullptr;
  bool IsReducer = false;
};

/// The constructions in \p FD that synchronise a module with
/// find_unused_parameters off.
std::vector<StrictSync> findStrictSyncs(const clang::FunctionDecl *FD,
                                        const AnalysisContext &Ctx);

/// A registered submodule or parameter that \p Forward does not use on
/// every path.
struct PartialUse {
  const clang::FieldDecl *Member = nullptr;
  /// Where it is registered (register_module/register_parameter).
  const clang::Expr *Registration = nullptr;
  /// Its first use in forward, null if forward never uses it.
  const clang::Expr *FirstUse = nullptr;
  /// The innermost branch (if, ?:, switch, loop, &&, ||) around FirstUse, or
  /// the early return that bypasses it.
  const clang::Stmt *Branch = nullptr;
};

/// The module's forward, and the registered members it uses only on some
/// paths. Empty when the class has no forward with a body in this TU.
const clang::CXXMethodDecl *forwardOf(const clang::CXXRecordDecl *Module);
std::vector<PartialUse> partialUses(const clang::CXXRecordDecl *Module);

} // namespace ddp

#endif // DDP_CORE_PARAMETERUSE_H
