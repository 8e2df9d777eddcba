//===--- DecidedTests.h - Tests a rank-dependent branch already decided ---===//
//
// On one side of a rank-dependent branch, a later test of the same condition
// (or of its negation) can go only one way, if nothing in between can change
// what the condition reads:
//
//   if (!IsPt2Pt || participates) {   // the branch: `participates`
//     for (...) { MPI_Barrier(WORLD); run(); }
//   } else if (IsPt2Pt && !participates) {  // true on every rank here
//     for (...) MPI_Barrier(WORLD);
//   }
//
// The side where `participates` is false does not also have a way past both
// loops: comparing the sides, that way is not taken. Only conditions of the
// function's own scalar variables (and constants) qualify, and only while no
// statement of the side writes them; a variable whose address is taken, that
// is bound to a reference or that a lambda captures can change behind the
// analysis's back, and never qualifies.
//
//===----------------------------------------------------------------------===//

#ifndef DDP_CORE_DECIDEDTESTS_H
#define DDP_CORE_DECIDEDTESTS_H

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/APSInt.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace clang {
class ASTContext;
class CFGBlock;
class Expr;
class FunctionDecl;
class VarDecl;
} // namespace clang

namespace ddp {

class AnalysisContext;

/// A guard that leaves unless a communicator has Size ranks, and where it
/// ends (DecidedTests.cpp).
struct SizeGuard {
  llvm::APSInt Size;
  clang::SourceLocation End;
};

/// The value a branch's condition has on one of its sides, with the
/// variables it reads.
class DecidedTest {
public:
  /// The test of the branch that ends \p Branch, on the side of its
  /// successor \p SuccIndex (0: true), over the blocks \p Side runs before
  /// the join (they must outlive the test); nullopt if the condition does
  /// not qualify.
  static std::optional<DecidedTest>
  make(const clang::CFGBlock *Branch, unsigned SuccIndex,
       llvm::ArrayRef<const clang::CFGBlock *> Side,
       const clang::FunctionDecl *FD, AnalysisContext &Ctx);

  /// The successor of \p B (on this side) that the test rules out: \p B
  /// tests the same condition or its negation. -1 if none.
  int ruledOutSuccessor(const clang::CFGBlock *B) const;

private:
  DecidedTest(const clang::Expr *Core, bool Value,
              llvm::SmallVector<const clang::VarDecl *, 2> Vars,
              llvm::ArrayRef<const clang::CFGBlock *> Side,
              const clang::FunctionDecl *FD, AnalysisContext &Ctx)
      : Core(Core), Value(Value), Vars(std::move(Vars)), Side(Side), FD(FD),
        Ctx(&Ctx) {}
  /// The value of \p Other (`rank == 1`, tested by \p B) where this test
  /// decided an equality of the same variable with a constant
  /// (`rank != 0`): the other constant, or the only other rank when the
  /// communicator is known to hold two.
  std::optional<bool> decidedEquality(const clang::Expr *Other,
                                      const clang::CFGBlock *B) const;
  /// Whether nothing on the side can change what the condition reads;
  /// computed on the first test that matches.
  bool stable() const;

  /// The condition without its negations, and its value on this side.
  const clang::Expr *Core;
  bool Value;
  llvm::SmallVector<const clang::VarDecl *, 2> Vars;
  llvm::ArrayRef<const clang::CFGBlock *> Side;
  const clang::FunctionDecl *FD;
  AnalysisContext *Ctx;
  mutable std::optional<bool> Stable;
  /// The guard that fixes the size of the tested rank's communicator, once
  /// looked for.
  mutable std::optional<std::optional<SizeGuard>> Guard;
};

} // namespace ddp

#endif // DDP_CORE_DECIDEDTESTS_H
