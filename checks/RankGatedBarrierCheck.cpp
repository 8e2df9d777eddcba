//===--- RankGatedBarrierCheck.cpp - ddp-rank-gated-barrier ---------------===//

#include "RankGatedBarrierCheck.h"
#include "core/UnresolvedCalls.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

namespace clang::tidy::ddp {
namespace {

/// True if \p S refers to something declared inside \p Scope: moving it out
/// of the scope would not compile.
bool usesDeclsInside(const Stmt *S, SourceRange Scope,
                     const SourceManager &SM) {
  if (!S)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
    SourceLocation DeclLoc = DRE->getDecl()->getLocation();
    if (DeclLoc.isValid() &&
        SM.isPointWithin(DeclLoc, Scope.getBegin(), Scope.getEnd()))
      return true;
  }
  for (const Stmt *Child : S->children())
    if (usesDeclsInside(Child, Scope, SM))
      return true;
  return false;
}

/// True if \p If is the `else if` of another if in \p Body. (A search of the
/// function body: ASTContext::getParents would build a parent map of the
/// whole TU, LibTorch's headers included, for one question.)
bool isElseIf(const IfStmt *If, const Stmt *Body) {
  if (!Body)
    return false;
  if (const auto *Outer = dyn_cast<IfStmt>(Body))
    if (Outer->getElse() == If)
      return true;
  for (const Stmt *Child : Body->children())
    if (isElseIf(If, Child))
      return true;
  return false;
}

/// True if \p If is a statement of a `{ ... }` block in \p Body: a
/// statement put after it stays in the same block. (After the unbraced body
/// of a loop or an if, it would leave the loop or the if.)
bool isInBlock(const IfStmt *If, const Stmt *Body) {
  if (!Body)
    return false;
  if (const auto *Block = dyn_cast<CompoundStmt>(Body))
    if (llvm::is_contained(Block->body(), If))
      return true;
  for (const Stmt *Child : Body->children())
    if (isInBlock(If, Child))
      return true;
  return false;
}

/// True if \p Block declares anything but variables (a type alias, a class):
/// the barrier may name it, and would not compile once moved out.
bool declaresTypes(const CompoundStmt *Block) {
  for (const Stmt *S : Block->body())
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (!isa<VarDecl>(D))
          return true;
  return false;
}

/// True if \p E combines tests with && or ||, also behind ! and in the
/// initialiser of a local flag (`bool leader = rank == 0 && v; if (leader)`).
bool hasLogicalOp(const Expr *E, unsigned Depth) {
  if (!E || Depth > 4)
    return false;
  E = E->IgnoreParenImpCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return BO->isLogicalOp() || hasLogicalOp(BO->getLHS(), Depth + 1) ||
           hasLogicalOp(BO->getRHS(), Depth + 1);
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return hasLogicalOp(UO->getSubExpr(), Depth + 1);
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
      if (Var->hasLocalStorage() && Var->getInit())
        return hasLogicalOp(Var->getInit(), Depth + 1);
  return false;
}

/// The whitespace that starts the line of \p Loc.
StringRef lineIndent(SourceLocation Loc, const SourceManager &SM) {
  auto [FID, Offset] = SM.getDecomposedLoc(Loc);
  StringRef Buffer = SM.getBufferData(FID);
  size_t LineStart = Buffer.rfind('\n', Offset);
  LineStart = LineStart == StringRef::npos ? 0 : LineStart + 1;
  StringRef Line = Buffer.substr(LineStart, Offset - LineStart);
  return Line.take_while([](char C) { return C == ' ' || C == '\t'; });
}

} // namespace

std::vector<FixItHint>
RankGatedBarrierCheck::fixes(const ::ddp::Finding &F, ASTContext &Context) {
  // Only the plain shape is safe to rewrite: the barrier is the last
  // statement of an `if` without else, reached when the condition holds.
  const auto *If = dyn_cast_or_null<IfStmt>(F.Branch);
  if (!If || !F.Via.empty() || F.EarlyExit.isValid() || !F.SiteOnTrueSide ||
      If->getElse() || If->getInit() || If->getConditionVariable() ||
      isElseIf(If, F.Function->getBody()))
    return {};
  // `if (rank == 0 && step % 100 == 0)`: moving the barrier out would make
  // every rank call it on every step; what is right depends on the other
  // part of the condition, which only the author knows.
  if (hasLogicalOp(If->getCond(), 0))
    return {};
  const auto *Then = dyn_cast<CompoundStmt>(If->getThen());
  if (!Then || Then->body_empty() || declaresTypes(Then))
    return {};
  const auto *Last = dyn_cast<Expr>(Then->body_back());
  const SourceManager &SM = Context.getSourceManager();
  const LangOptions &LO = Context.getLangOpts();
  if (!Last || !SM.isPointWithin(F.Site->getBeginLoc(), Last->getBeginLoc(),
                                 Last->getEndLoc()))
    return {};
  for (SourceLocation L : {If->getBeginLoc(), If->getEndLoc(),
                           Last->getBeginLoc(), Last->getEndLoc()})
    if (!L.isFileID())
      return {};
  if (usesDeclsInside(Last, If->getSourceRange(), SM))
    return {};
  SourceLocation AfterSemi = Lexer::findLocationAfterToken(
      Last->getEndLoc(), tok::semi, SM, LO, /*SkipTrailingWhitespaceAndNewLine=*/false);
  if (AfterSemi.isInvalid())
    return {};
  StringRef Barrier = Lexer::getSourceText(
      CharSourceRange::getCharRange(Last->getBeginLoc(), AfterSemi), SM, LO);
  SourceLocation IfEnd = Lexer::getLocForEndOfToken(If->getEndLoc(), 0, SM, LO);

  // `if (rank == 0) { pg->barrier()->wait(); }`: the if has no other job.
  if (Then->size() == 1 && !If->getCond()->HasSideEffects(Context))
    return {FixItHint::CreateReplacement(
        CharSourceRange::getCharRange(If->getBeginLoc(), IfEnd), Barrier)};

  // Otherwise take the barrier's line out of the block and put it after the
  // if, at the if's indentation: only where "after the if" is in the same
  // block as the if.
  if (!isInBlock(If, F.Function->getBody()))
    return {};
  auto [FID, Begin] = SM.getDecomposedLoc(Last->getBeginLoc());
  unsigned End = SM.getFileOffset(AfterSemi);
  StringRef Buffer = SM.getBufferData(FID);
  size_t LineStart = Buffer.rfind('\n', Begin);
  if (LineStart == StringRef::npos ||
      !Buffer.slice(LineStart + 1, Begin).trim().empty())
    return {};
  size_t LineEnd = Buffer.find('\n', End);
  if (LineEnd == StringRef::npos || !Buffer.slice(End, LineEnd).trim().empty())
    return {};
  SourceLocation FileStart = SM.getLocForStartOfFile(FID);
  // From the newline before the barrier to its ';': the block keeps its
  // other lines as they were.
  CharSourceRange Line =
      CharSourceRange::getCharRange(FileStart.getLocWithOffset(LineStart),
                                    FileStart.getLocWithOffset(End));
  std::string Moved =
      ("\n" + lineIndent(If->getBeginLoc(), SM) + Barrier).str();
  return {FixItHint::CreateRemoval(Line),
          FixItHint::CreateInsertion(IfEnd, Moved)};
}

void RankGatedBarrierCheck::advise(const ::ddp::Finding &F, bool Fixed,
                                   ASTContext &Context) {
  if (Fixed)
    diag(::ddp::calledNameLoc(F.Site),
         "every rank must call '%0'; move it after the 'if'",
         DiagnosticIDs::Note)
        << F.Op;
  else
    diag(::ddp::calledNameLoc(F.Site),
         "every rank must call '%0'; call it where all ranks pass",
         DiagnosticIDs::Note)
        << F.Op;
}

} // namespace clang::tidy::ddp
