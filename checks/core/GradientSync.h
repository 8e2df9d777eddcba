//===--- GradientSync.h - Which modules synchronise their gradients -------===//
//
// LibTorch has no C++ DistributedDataParallel: programs synchronise
// gradients with a c10d::Reducer over a module's parameters (armed for the
// next backward by prepare_for_backward), with hooks that allreduce, or with
// a DDP-like wrapper module of their own or of their framework. This model
// recognises the wrappers, their no-sync guards and flags (given by
// options, with defaults that cover the common names), and the modules a
// Reducer synchronises.
//
//===----------------------------------------------------------------------===//

#ifndef DDP_CORE_GRADIENTSYNC_H
#define DDP_CORE_GRADIENTSYNC_H

#include "core/AnalysisOptions.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/GlobPattern.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class CallExpr;
class CXXRecordDecl;
class Expr;
class FunctionDecl;
class NamedDecl;
class QualType;
class ValueDecl;
} // namespace clang

namespace ddp {

class GradientSyncModel {
public:
  explicit GradientSyncModel(const AnalysisOptions &Opts);

  /// A DDP-like wrapper class (or its TORCH_MODULE holder).
  bool isWrapper(const clang::CXXRecordDecl *RD) const;
  /// A wrapper, a pointer or smart pointer to one, or a holder of one.
  bool isWrapperType(clang::QualType T) const;
  /// The type of a no-sync guard (`NoSyncGuard`).
  bool isNoSyncGuardType(clang::QualType T) const;
  /// A method that turns synchronisation off for its scope (`no_sync`).
  bool isNoSyncMethod(const clang::FunctionDecl *FD) const;
  /// The flag that turns synchronisation off (`require_backward_grad_sync`).
  bool isSyncFlag(const clang::ValueDecl *D) const;

  /// The module (or wrapper) a call runs forward, or null: `m->forward(x)`,
  /// `m(x)` on a module holder, `m.forward(x)`. The module is the variable,
  /// parameter or field that holds it.
  static const clang::ValueDecl *forwardTarget(const clang::CallExpr *Call);
  /// For the parameters given to a c10d::Reducer (`model->parameters()`,
  /// directly or through a local variable): the object whose parameters()
  /// they are, or null.
  static const clang::Expr *parametersOwner(const clang::Expr *Params);
  /// The variable, parameter or field \p E names, looking through `->`,
  /// `*`, `.get()`, `.ptr()` and implicit conversions.
  static const clang::ValueDecl *heldModule(const clang::Expr *E);

private:
  struct Pattern {
    std::shared_ptr<const std::string> Text;
    std::optional<llvm::GlobPattern> Glob;
    bool matches(llvm::StringRef Name) const;
  };
  static std::vector<Pattern> compile(llvm::StringRef List);
  static bool anyMatches(const std::vector<Pattern> &Patterns,
                         const clang::NamedDecl *D);

  std::vector<Pattern> Wrappers, Guards, Methods, Flags;
};

} // namespace ddp

#endif // DDP_CORE_GRADIENTSYNC_H
