//===--- BrokenCode.cpp - What the analysis trusts in code with errors ----===//

#include "core/BrokenCode.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include <vector>

using namespace clang;

namespace ddp {
namespace {

/// The code in \p Text, the source between two statements of a block:
/// without blanks, comments, semicolons and preprocessor lines. Text after
/// a conditional directive (#if, #else, ...) up to its #endif is left out:
/// it is code the preprocessor left out, not code the parser dropped.
std::string codeIn(llvm::StringRef Text) {
  std::string Code;
  bool LineStart = true, Skipped = false;
  for (size_t I = 0; I < Text.size();) {
    char C = Text[I];
    if (C == '\n') {
      LineStart = true;
      Code += ' ';
      ++I;
      continue;
    }
    if (llvm::isSpace(C)) {
      Code += ' ';
      ++I;
      continue;
    }
    if (Text.substr(I).starts_with("//")) {
      I = Text.find('\n', I);
      continue;
    }
    if (Text.substr(I).starts_with("/*")) {
      size_t End = Text.find("*/", I + 2);
      I = End == llvm::StringRef::npos ? Text.size() : End + 2;
      continue;
    }
    if (LineStart && C == '#') {
      llvm::StringRef Directive = Text.substr(I + 1).ltrim(" \t");
      Directive = Directive.take_while(llvm::isAlpha);
      if (Directive.starts_with("if") || Directive.starts_with("el"))
        Skipped = true;
      else if (Directive == "endif")
        Skipped = false;
      // To the end of the line, and of the lines it continues on.
      while (I < Text.size() && Text[I] != '\n')
        I += Text[I] == '\\' && I + 1 < Text.size() ? 2 : 1;
      continue;
    }
    LineStart = false;
    if (!Skipped && C != ';')
      Code += C;
    ++I;
  }
  return llvm::StringRef(Code).trim().str();
}

/// True if \p Code, a statement the parser dropped, can change what the
/// analysis concludes: it leaves (return, break, throw, ...), opens or
/// closes a block, assigns, or names a call that communicates (\p
/// Significant). `for (auto &w : works) w->wait();` over a vector whose
/// type did not resolve, or a log line through a macro that is not
/// defined, does none of these.
bool changesAnalysis(llvm::StringRef Code,
                     llvm::function_ref<bool(llvm::StringRef)> Significant) {
  static constexpr llvm::StringLiteral Exits[] = {
      "return",   "break",      "continue", "goto",    "throw",    "co_return",
      "co_yield", "co_await",   "case",     "default", "exit",     "_exit",
      "_Exit",    "quick_exit", "abort",    "longjmp", "terminate"};
  int Depth = 0;
  for (size_t I = 0; I < Code.size();) {
    char C = Code[I];
    if (C == '"' || C == '\'') {
      // A literal: to its closing quote.
      size_t J = I + 1;
      while (J < Code.size() && Code[J] != C)
        J += Code[J] == '\\' ? 2 : 1;
      I = J + 1;
      continue;
    }
    if (llvm::isAlpha(C) || C == '_') {
      size_t J = I;
      while (J < Code.size() && (llvm::isAlnum(Code[J]) || Code[J] == '_'))
        ++J;
      llvm::StringRef Word = Code.slice(I, J);
      if (llvm::is_contained(Exits, Word) || Significant(Word))
        return true;
      I = J;
      continue;
    }
    if (C == '{')
      ++Depth;
    if (C == '}' && --Depth < 0)
      return true;
    // Assignments, not comparisons: `=`, `+=`, `<<=`, `++`; not `==`,
    // `!=`, `<=`, `>=`.
    char Prev = I > 0 ? Code[I - 1] : ' ';
    char Next = I + 1 < Code.size() ? Code[I + 1] : ' ';
    if ((C == '+' || C == '-') && Next == C)
      return true;
    if (C == '=') {
      if (Next == '=') {
        I += 2;
        continue;
      }
      bool Shift = (Prev == '<' || Prev == '>') && I > 1 && Code[I - 2] == Prev;
      if (Shift || !(Prev == '!' || Prev == '<' || Prev == '>'))
        return true;
    }
    ++I;
  }
  return Depth != 0;
}

/// True for a class type without a definition: after a fatal error (an
/// include not found, too many errors) Clang stops instantiating templates,
/// and the CFG builder asks such a class for its destructor.
bool undefinedClass(QualType T, const ASTContext &AST) {
  if (T.isNull())
    return true;
  T = AST.getBaseElementType(T.getNonReferenceType());
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  return RD && !RD->hasDefinition();
}

/// True if the class whose members a constructor or destructor initialises
/// or destroys has a member or base of a class without a definition. A
/// reference member is neither built nor destroyed: the class it refers to
/// may never have been instantiated (`std::vector<T> &grads`).
bool undefinedMembers(const CXXRecordDecl *RD, const ASTContext &AST) {
  for (const FieldDecl *Field : RD->fields())
    if (Field->isInvalidDecl() || (!Field->getType()->isReferenceType() &&
                                   undefinedClass(Field->getType(), AST)))
      return true;
  for (const CXXBaseSpecifier &Base : RD->bases())
    if (undefinedClass(Base.getType(), AST))
      return true;
  return false;
}

class BodyCheck {
public:
  BodyCheck(const ASTContext &AST, bool TUHasErrors,
            llvm::function_ref<bool(llvm::StringRef)> Significant)
      : AST(AST), SM(AST.getSourceManager()), LangOpts(AST.getLangOpts()),
        TUHasErrors(TUHasErrors), Significant(Significant) {}

  /// Walks \p Body without recursion: bodies can nest deeply.
  Distrust check(const Stmt *Body) {
    std::vector<std::pair<const Stmt *, bool>> Work{{Body, false}};
    while (!Work.empty()) {
      auto [S, Discarded] = Work.back();
      Work.pop_back();
      if (!S)
        continue;
      Distrust Why = visit(S, Discarded);
      if (Why != Distrust::None)
        return Why;
      // A lambda's body is a function of its own, with its own verdict;
      // only its captures are evaluated here.
      if (const auto *Lambda = dyn_cast<LambdaExpr>(S)) {
        for (const Expr *Init : Lambda->capture_inits())
          Work.push_back({Init, false});
        continue;
      }
      // `if constexpr` leaves a null statement, not a `;`, in place of the
      // branch it discards.
      const auto *If = dyn_cast<IfStmt>(S);
      bool Constexpr = If && If->isConstexpr();
      for (const Stmt *Child : S->children())
        Work.push_back({Child, Constexpr && (Child == If->getThen() ||
                                             Child == If->getElse())});
    }
    return Distrust::None;
  }

private:
  Distrust visit(const Stmt *S, bool Discarded) {
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (auto It = DS->decl_begin(), End = DS->decl_end(); It != End; ++It) {
        const Decl *D = *It;
        // A variable whose type did not resolve is a value of unknown type;
        // a structured binding that did not resolve has bindings without
        // types, and a local class that did not compile hides its members.
        if (const auto *DD = dyn_cast<DecompositionDecl>(D)) {
          if (DD->isInvalidDecl() ||
              llvm::any_of(DD->bindings(), [](const BindingDecl *B) {
                return !B || B->isInvalidDecl() || B->getType().isNull();
              }))
            return Distrust::InvalidDeclaration;
        } else if (isa<TagDecl>(D) && D->isInvalidDecl()) {
          return Distrust::InvalidDeclaration;
        } else if (const auto *VD = dyn_cast<VarDecl>(D)) {
          if (!VD->getType()->isReferenceType() &&
              undefinedClass(VD->getType(), AST))
            return Distrust::InvalidDeclaration;
          // An initializer the parser dropped: the text after the variable
          // up to the next declarator (its name) or the end of the
          // statement. Clang 22 drops `int x =
          // c10d::ops::name(pg);` whose name the namespace lacks, where
          // Clang 19 keeps a call of an empty RecoveryExpr (below).
          if (TUHasErrors && !VD->getInit() &&
              codeBetween(VD->getEndLoc(),
                          std::next(It) != End ? (*std::next(It))->getLocation()
                                               : DS->getEndLoc(),
                          /*Initializer=*/true))
            return Distrust::DroppedStatement;
        }
      }
      return Distrust::None;
    }
    // A condition that did not parse at all, where one is required.
    if ((isa<IfStmt>(S) && !cast<IfStmt>(S)->getCond() &&
         !cast<IfStmt>(S)->isConsteval()) ||
        (isa<WhileStmt>(S) && !cast<WhileStmt>(S)->getCond()) ||
        (isa<DoStmt>(S) && !cast<DoStmt>(S)->getCond()) ||
        (isa<SwitchStmt>(S) && !cast<SwitchStmt>(S)->getCond()) ||
        (isa<CXXForRangeStmt>(S) &&
         (!cast<CXXForRangeStmt>(S)->getRangeStmt() ||
          !cast<CXXForRangeStmt>(S)->getLoopVarStmt())))
      return Distrust::DroppedStatement;
    if (!TUHasErrors)
      return Distrust::None;
    if (const auto *Block = dyn_cast<CompoundStmt>(S))
      return dropsStatements(Block) ? Distrust::DroppedStatement
                                    : Distrust::None;
    // The parser puts a null statement where the branch of an `if` did not
    // compile and the other branch did.
    if (const auto *Null = dyn_cast<NullStmt>(S))
      if (!Discarded && !isSemicolon(Null->getSemiLoc()))
        return Distrust::DroppedStatement;
    // A name Clang could not look up and kept nothing of: Clang 19 keeps
    // `c10d::ops::name(pg, t);` whose name the namespace lacks as a call of
    // an empty RecoveryExpr, where later releases drop the statement. What
    // the name stands for is as hidden as a dropped statement's, and
    // matters on the same terms.
    if (const auto *Recovery = dyn_cast<RecoveryExpr>(S))
      if (Recovery->subExpressions().empty() &&
          codeWithin(Recovery->getSourceRange()))
        return Distrust::DroppedStatement;
    return Distrust::None;
  }

  bool isSemicolon(SourceLocation Loc) const {
    if (Loc.isInvalid() || Loc.isMacroID())
      return true;
    bool Invalid = false;
    const char *Char = SM.getCharacterData(Loc, &Invalid);
    return Invalid || *Char == ';';
  }

  /// True if the text of \p Block holds code that none of its statements
  /// covers, a statement the parser dropped, which matters to the analysis.
  bool dropsStatements(const CompoundStmt *Block) const {
    SourceLocation Previous = Block->getLBracLoc();
    for (const Stmt *Child : Block->body()) {
      if (!Child)
        return true;
      if (codeBetween(Previous, Child->getBeginLoc()))
        return true;
      Previous = Child->getEndLoc();
    }
    return codeBetween(Previous, Block->getRBracLoc());
  }

  /// True if there is code that matters after the token at \p After and
  /// before \p Before, in the same file. Anything this cannot tell (macros
  /// on both ends, a missing location) counts as no code.
  bool codeBetween(SourceLocation After, SourceLocation Before,
                   bool Initializer = false) const {
    if (After.isInvalid() || Before.isInvalid())
      return false;
    if (After.isMacroID())
      After = SM.getExpansionRange(After).getEnd();
    if (Before.isMacroID())
      Before = SM.getExpansionRange(Before).getBegin();
    auto [FileA, OffsetA] = SM.getDecomposedLoc(After);
    auto [FileB, OffsetB] = SM.getDecomposedLoc(Before);
    if (FileA != FileB || FileA.isInvalid())
      return false;
    OffsetA += Lexer::MeasureTokenLength(After, SM, LangOpts);
    if (OffsetB <= OffsetA)
      return false;
    bool Invalid = false;
    llvm::StringRef Buffer = SM.getBufferData(FileA, &Invalid);
    if (Invalid || OffsetB > Buffer.size())
      return false;
    std::string Code = codeIn(Buffer.slice(OffsetA, OffsetB));
    // What a declarator's initializer assigns is the variable's own value,
    // not an assignment the analysis would miss.
    llvm::StringRef Rest = Code;
    if (Initializer)
      Rest = Rest.ltrim().ltrim('=').rtrim(", ");
    return !Rest.trim().empty() && changesAnalysis(Rest, Significant);
  }

  /// True if the source of \p R, in one file, holds code that matters.
  bool codeWithin(SourceRange R) const {
    if (R.isInvalid())
      return false;
    SourceLocation Begin = SM.getExpansionRange(R.getBegin()).getBegin();
    SourceLocation End = SM.getExpansionRange(R.getEnd()).getEnd();
    if (SM.getFileID(Begin) != SM.getFileID(End))
      return false;
    bool Invalid = false;
    llvm::StringRef Text = Lexer::getSourceText(
        CharSourceRange::getTokenRange(Begin, End), SM, LangOpts, &Invalid);
    if (Invalid)
      return false;
    std::string Code = codeIn(Text);
    return !Code.empty() && changesAnalysis(Code, Significant);
  }

  const ASTContext &AST;
  const SourceManager &SM;
  const LangOptions &LangOpts;
  bool TUHasErrors;
  llvm::function_ref<bool(llvm::StringRef)> Significant;
};

bool supported(const Expr *E) {
  return E && !E->isValueDependent() && !E->isTypeDependent() &&
         !E->containsErrors();
}

} // namespace

Distrust distrustOf(const FunctionDecl *FD, bool TUHasErrors,
                    llvm::function_ref<bool(llvm::StringRef)> Significant) {
  if (!FD)
    return Distrust::InvalidFunction;
  const ASTContext &AST = FD->getASTContext();
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD)) {
    if (MD->getParent()->isInvalidDecl())
      return Distrust::InvalidClass;
    // The CFG initialises and destroys the members of constructors and
    // destructors.
    if (TUHasErrors && isa<CXXConstructorDecl, CXXDestructorDecl>(MD) &&
        undefinedMembers(MD->getParent(), AST))
      return Distrust::InvalidClass;
  }
  // A parameter whose type did not resolve (a LibTorch 2.x type against
  // 1.13's headers) makes the function invalid; its body is intact.
  if (FD->isInvalidDecl() &&
      (isa<CXXConstructorDecl, CXXDestructorDecl>(FD) ||
       llvm::none_of(FD->parameters(),
                     [](const ParmVarDecl *P) { return P->isInvalidDecl(); })))
    return Distrust::InvalidFunction;
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(FD))
    for (const CXXCtorInitializer *Init : Ctor->inits())
      if (!Init || !Init->getInit())
        return Distrust::InvalidInitializer;
  const Stmt *Body = FD->getBody();
  if (!Body)
    return Distrust::None;
  return BodyCheck(AST, TUHasErrors, Significant).check(Body);
}

const char *describe(Distrust Why) {
  switch (Why) {
  case Distrust::None:
    break;
  case Distrust::InvalidFunction:
    return "its declaration did not compile";
  case Distrust::InvalidClass:
    return "its class did not compile";
  case Distrust::InvalidInitializer:
    return "a member initializer did not compile";
  case Distrust::InvalidDeclaration:
    return "a declaration in it did not compile";
  case Distrust::DroppedStatement:
    return "a statement in it did not compile";
  }
  return "";
}

std::optional<llvm::APSInt> evaluateInt(const Expr *E, const ASTContext &AST) {
  Expr::EvalResult Result;
  if (!supported(E) || !E->EvaluateAsInt(Result, AST) || !Result.Val.isInt())
    return std::nullopt;
  return Result.Val.getInt();
}

std::optional<bool> evaluateCondition(const Expr *E, const ASTContext &AST) {
  bool Value = false;
  if (!supported(E) || !E->EvaluateAsBooleanCondition(Value, AST))
    return std::nullopt;
  return Value;
}

bool isIntegerConstant(const Expr *E, const ASTContext &AST) {
  return supported(E) && E->isIntegerConstantExpr(AST);
}

bool isEvaluatable(const Expr *E, const ASTContext &AST) {
  return supported(E) && E->isEvaluatable(AST);
}

} // namespace ddp
