//===--- EnvironmentSwitch.h - Environment variables read as switches -----===//
//
// `getenv("LOG_FIRST_RANK_ONLY")` names the rank, but a program that only
// tests whether the variable is set, or compares its text with a literal
// ("ON", "1"), reads a switch the user sets alike for every rank: it is no
// rank, size or address that every rank would get the same fallback for.
//
//===----------------------------------------------------------------------===//

#ifndef DDP_CORE_ENVIRONMENTSWITCH_H
#define DDP_CORE_ENVIRONMENTSWITCH_H

namespace clang {
class CallExpr;
class FunctionDecl;
} // namespace clang

namespace ddp {

/// Whether the value \p Getenv reads, in \p Function, is only tested: for
/// null (`if (v)`, `v != nullptr`, `!v`), or against a string literal
/// (`std::string(v) == "ON"`, `strcmp(v, "1") == 0`), directly or through a
/// local variable it initialises and that nothing else uses.
bool readsSwitch(const clang::CallExpr *Getenv,
                 const clang::FunctionDecl *Function);

} // namespace ddp

#endif // DDP_CORE_ENVIRONMENTSWITCH_H
