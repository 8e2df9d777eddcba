//===--- ProcessGroupSetup.h - How a program builds its process groups ----===//
//
// The calls that set up distributed communication, collected from the
// user's code: stores (c10d::TCPStore) and process groups (ProcessGroupGloo,
// ProcessGroupNCCL, ProcessGroupMPI) built directly or through
// make_intrusive / make_shared / make_unique, environment variables read and
// set, and timeouts given to stores and process groups. The rendezvous and
// debug-settings checks reason about them.
//
//===----------------------------------------------------------------------===//

#ifndef DDP_CORE_PROCESSGROUPSETUP_H
#define DDP_CORE_PROCESSGROUPSETUP_H

#include "core/AnalysisContext.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <string>
#include <vector>

namespace clang {
class CallExpr;
class CXXRecordDecl;
class Expr;
class FunctionDecl;
} // namespace clang

namespace ddp {

/// A store or process group being built.
struct SetupCall {
  enum class Kind { Store, Group };
  Kind K = Kind::Store;
  /// The construction, or the make_intrusive<...>(...) call.
  const clang::Expr *Site = nullptr;
  const clang::FunctionDecl *Function = nullptr;
  /// The class built ("TCPStore", "ProcessGroupGloo").
  std::string Class;
  /// The arguments written (default arguments left out).
  llvm::SmallVector<const clang::Expr *, 6> Args;
  /// For a TCPStore built from a TCPStoreOptions variable: the values last
  /// assigned to its fields in the function (opts.isServer = ...).
  const clang::Expr *OptionIsServer = nullptr;
  const clang::Expr *OptionNumWorkers = nullptr;
  const clang::Expr *OptionPort = nullptr;
  bool FromOptions = false;
};

/// getenv, setenv or putenv with a literal name.
struct EnvAccess {
  const clang::CallExpr *Call = nullptr;
  const clang::FunctionDecl *Function = nullptr;
  std::string Name;
  bool Sets = false;
  /// For setenv and putenv: the value, if a literal.
  std::optional<std::string> Value;
};

/// A timeout given to a store or a process group: the TCPStore argument,
/// Options::create(t), or opts.timeout = t.
struct TimeoutSetting {
  const clang::Expr *Value = nullptr;
  const clang::FunctionDecl *Function = nullptr;
  /// What it is the timeout of ("TCPStore", "ProcessGroupGloo::Options").
  std::string Of;
};

struct ProcessGroupSetup {
  std::vector<SetupCall> Calls;
  std::vector<EnvAccess> Env;
  std::vector<TimeoutSetting> Timeouts;
};

ProcessGroupSetup collectProcessGroupSetup(AnalysisContext &Ctx);

/// The length of a std::chrono::duration constant in seconds
/// (`std::chrono::seconds(5)`, `5000ms`, `std::chrono::minutes(1)`), or none
/// if \p E is not a constant duration.
std::optional<double> durationSeconds(const clang::Expr *E,
                                      clang::ASTContext &AST);

} // namespace ddp

#endif // DDP_CORE_PROCESSGROUPSETUP_H
