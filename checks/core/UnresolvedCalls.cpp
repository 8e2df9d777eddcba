//===--- UnresolvedCalls.cpp - Calls that did not compile, matched by name ===//

#include "core/UnresolvedCalls.h"
#include "core/AnalysisContext.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"
#include <fmt/format.h>

using namespace clang;

namespace ddp {
namespace {

/// The parts of a call that did not compile.
struct CallShape {
  std::string Name;
  /// A free function's qualifier as written ("c10d::ops").
  std::string Qualifier;
  bool Member = false;
  const Expr *Object = nullptr;
  /// The function the call names, when that much resolved (a call with
  /// arguments that did not fit).
  const FunctionDecl *Callee = nullptr;
  /// The overloads a qualified or unqualified name found, none of which fit.
  llvm::SmallVector<const FunctionDecl *, 2> Candidates;
  llvm::SmallVector<const Expr *, 4> Args;
};

std::string written(SourceRange R, const SourceManager &SM,
                    const LangOptions &LO) {
  if (R.isInvalid())
    return {};
  CharSourceRange Range = CharSourceRange::getTokenRange(
      SM.getExpansionRange(R.getBegin()).getBegin(),
      SM.getExpansionRange(R.getEnd()).getEnd());
  return Lexer::getSourceText(Range, SM, LO).str();
}

/// The raw token at \p Loc (where it is spelled).
std::optional<Token> tokenAt(SourceLocation Loc, const SourceManager &SM,
                             const LangOptions &LO) {
  Token Tok;
  if (Loc.isInvalid() || Lexer::getRawToken(SM.getSpellingLoc(Loc), Tok, SM, LO,
                                            /*IgnoreWhiteSpace=*/false))
    return std::nullopt;
  return Tok;
}

std::string identifierName(const DeclarationName &Name) {
  return Name.isIdentifier() ? Name.getAsIdentifierInfo()->getName().str()
                             : std::string();
}

/// `pg->name` or `pg.name` that Clang could not resolve and kept as a
/// RecoveryExpr over the object: the member's name, from the source.
std::optional<std::string> failedMemberAccess(const RecoveryExpr *R,
                                              const SourceManager &SM,
                                              const LangOptions &LO,
                                              const Expr *&Object) {
  auto Subs = R->subExpressions();
  if (Subs.empty() || !Subs.front())
    return std::nullopt;
  std::optional<Token> Tok = tokenAt(R->getEndLoc(), SM, LO);
  if (!Tok || !Tok->is(tok::raw_identifier))
    return std::nullopt;
  std::string Name = Tok->getRawIdentifier().str();
  std::string Whole = written(R->getSourceRange(), SM, LO);
  llvm::StringRef Text = Whole;
  if (!Text.consume_back(Name))
    return std::nullopt;
  Text = Text.rtrim();
  if (!Text.ends_with("->") && !Text.ends_with("."))
    return std::nullopt;
  Object = Subs.front();
  return Name;
}

/// Fills the name, object and qualifier from \p Callee, the callee part of a
/// call that did not compile.
bool describeCallee(const Expr *Callee, const SourceManager &SM,
                    const LangOptions &LO, CallShape &Shape) {
  Callee = Callee->IgnoreParenImpCasts();
  if (const auto *M = dyn_cast<CXXDependentScopeMemberExpr>(Callee)) {
    if (M->isImplicitAccess())
      return false;
    Shape.Name = identifierName(M->getMember());
    Shape.Member = true;
    Shape.Object = M->getBase();
  } else if (const auto *U = dyn_cast<UnresolvedMemberExpr>(Callee)) {
    if (U->isImplicitAccess())
      return false;
    Shape.Name = identifierName(U->getMemberName());
    Shape.Member = true;
    Shape.Object = U->getBase();
  } else if (const auto *L = dyn_cast<UnresolvedLookupExpr>(Callee)) {
    Shape.Name = identifierName(L->getName());
    Shape.Qualifier = written(L->getQualifierLoc().getSourceRange(), SM, LO);
    // Overloads were found, none fitted: they say what is called.
    for (const NamedDecl *Candidate : L->decls())
      if (const FunctionDecl *FD = Candidate->getAsFunction())
        Shape.Candidates.push_back(FD);
  } else if (const auto *ME = dyn_cast<MemberExpr>(Callee)) {
    Shape.Callee = dyn_cast<FunctionDecl>(ME->getMemberDecl());
    Shape.Member = true;
    Shape.Object = ME->getBase();
  } else if (const auto *Ref = dyn_cast<DeclRefExpr>(Callee)) {
    Shape.Callee = dyn_cast<FunctionDecl>(Ref->getDecl());
  } else if (const auto *R = dyn_cast<RecoveryExpr>(Callee)) {
    std::optional<std::string> Name =
        failedMemberAccess(R, SM, LO, Shape.Object);
    if (!Name)
      return false;
    Shape.Name = *Name;
    Shape.Member = true;
  } else {
    return false;
  }
  if (Shape.Callee)
    Shape.Name = identifierName(Shape.Callee->getDeclName());
  // The qualifier as the catalogue writes it: "c10d::ops".
  llvm::StringRef Q = llvm::StringRef(Shape.Qualifier).trim();
  Q.consume_front("::");
  Q.consume_back("::");
  std::string Compact;
  for (char C : Q)
    if (!llvm::isSpace(C))
      Compact += C;
  Shape.Qualifier = Compact;
  return !Shape.Name.empty();
}

/// The shape of \p E if it is a call that did not compile.
std::optional<CallShape> shapeOf(const Expr *E, const SourceManager &SM,
                                 const LangOptions &LO) {
  CallShape Shape;
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    if (Call->getDirectCallee() || !Call->containsErrors() ||
        !Call->getCallee())
      return std::nullopt;
    if (!describeCallee(Call->getCallee(), SM, LO, Shape))
      return std::nullopt;
    for (const Expr *Arg : Call->arguments())
      Shape.Args.push_back(Arg);
    return Shape;
  }
  // A call whose arguments did not fit any overload: a RecoveryExpr over the
  // callee and the arguments, ending in the call's ')'.
  const auto *R = dyn_cast<RecoveryExpr>(E);
  if (!R)
    return std::nullopt;
  auto Subs = R->subExpressions();
  std::optional<Token> Last = tokenAt(R->getEndLoc(), SM, LO);
  if (Subs.empty() || !Subs.front() || !Last || !Last->is(tok::r_paren))
    return std::nullopt;
  if (!describeCallee(Subs.front(), SM, LO, Shape))
    return std::nullopt;
  for (const Expr *Arg : Subs.drop_front())
    if (Arg)
      Shape.Args.push_back(Arg);
  return Shape;
}

/// The words of an identifier, lower case: `defaultPG` -> default, pg;
/// `process_group2` -> process, group.
llvm::SmallVector<std::string, 4> words(llvm::StringRef Name) {
  llvm::SmallVector<std::string, 4> Out;
  std::string Word;
  auto Flush = [&] {
    if (!Word.empty())
      Out.push_back(llvm::StringRef(Word).lower());
    Word.clear();
  };
  for (size_t I = 0; I < Name.size(); ++I) {
    char C = Name[I];
    if (!llvm::isAlpha(C)) {
      Flush();
      continue;
    }
    bool Upper = llvm::isUpper(C);
    bool PrevLower = I > 0 && llvm::isLower(Name[I - 1]);
    bool NextLower = I + 1 < Name.size() && llvm::isLower(Name[I + 1]);
    bool PrevUpper = I > 0 && llvm::isUpper(Name[I - 1]);
    if (Upper && (PrevLower || (PrevUpper && NextLower)))
      Flush();
    Word += C;
  }
  Flush();
  return Out;
}

/// `pg`, `process_group`, `defaultPG`, `backend`, `getBackend`, ...
bool namedLikeGroup(llvm::StringRef Name) {
  auto W = words(Name);
  for (size_t I = 0; I < W.size(); ++I) {
    llvm::StringRef Word = W[I];
    if (Word == "pg" || Word == "pgs" || Word == "processgroup" ||
        Word == "backend" || Word == "backends" || Word == "c10d")
      return true;
    if (Word == "process" && I + 1 < W.size() &&
        (W[I + 1] == "group" || W[I + 1] == "groups"))
      return true;
  }
  return false;
}

/// The type of \p D as written: the text from the start of its declaration
/// up to its name, on one line.
std::string spelledType(const ValueDecl *D, const SourceManager &SM,
                        const LangOptions &LO) {
  SourceLocation Begin = D->getBeginLoc(), Name = D->getLocation();
  if (Begin.isInvalid() || Name.isInvalid() || Begin.isMacroID() ||
      Name.isMacroID() || SM.getFileID(Begin) != SM.getFileID(Name) ||
      !SM.isBeforeInTranslationUnit(Begin, Name))
    return {};
  llvm::StringRef Text =
      Lexer::getSourceText(CharSourceRange::getCharRange(Begin, Name), SM, LO);
  std::string Out;
  bool Space = false;
  for (char C : Text.trim()) {
    if (llvm::isSpace(C)) {
      Space = true;
      continue;
    }
    if (Space && !Out.empty())
      Out += ' ';
    Space = false;
    Out += C;
  }
  return Out;
}

/// A type as written that names a process group, a backend or any c10d
/// type.
bool spelledLikeGroup(llvm::StringRef Text) {
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  std::string Words;
  for (char C : Text)
    Words += llvm::isAlnum(C) || C == '_' ? C : ' ';
  llvm::StringRef(Words).split(Parts, ' ', -1, /*KeepEmpty=*/false);
  return llvm::any_of(Parts, [](llvm::StringRef Part) {
    return Part == "c10d" || Part == "Backend" ||
           Part.starts_with("ProcessGroup");
  });
}

/// True for a class, or a pointer or reference to one: a type whose
/// members resolve, so a call on it that did not is not on a process group.
bool isClassLike(QualType T) {
  T = T.getNonReferenceType();
  if (T->isPointerType())
    T = T->getPointeeType();
  return T->getAsCXXRecordDecl() != nullptr;
}

bool resolvedType(QualType T) {
  return !T.isNull() && !T->isDependentType() && !T->isUndeducedType();
}

/// True if \p E, what a call that did not compile is called on, looks like
/// a process group; \p Grounds says why.
bool groundedAsGroup(const Expr *E, AnalysisContext &Ctx,
                     std::string &Grounds) {
  const SourceManager &SM = Ctx.AST.getSourceManager();
  const LangOptions &LO = Ctx.AST.getLangOpts();
  for (unsigned Depth = 0; E && Depth < 8; ++Depth) {
    E = E->IgnoreParenImpCasts();
    // The object Clang could not use, kept under a RecoveryExpr; `pgs[i]`.
    if (const auto *R = dyn_cast<RecoveryExpr>(E)) {
      auto Subs = R->subExpressions();
      if (Subs.empty()) {
        // A name Clang kept nothing of (a parameter whose type did not
        // resolve at all): the name is all there is.
        std::string Name = Ctx.text(R);
        if (Name.empty() ||
            !llvm::all_of(
                Name, [](char C) { return llvm::isAlnum(C) || C == '_'; }) ||
            !namedLikeGroup(Name))
          return false;
        Grounds = fmt::format("'{}' is named like a process group (its "
                              "declaration did not resolve)",
                              Name);
        return true;
      }
      if (Subs.size() != 1 || !Subs.front())
        return false;
      E = Subs.front();
      continue;
    }
    if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(E)) {
      E = Subscript->getBase();
      continue;
    }
    break;
  }
  if (!E)
    return false;
  std::string Text = Ctx.text(E);
  QualType T = E->getType();
  if (resolvedType(T) && !E->containsErrors()) {
    if (Ctx.isGroupType(T)) {
      Grounds = fmt::format("'{}' is a c10d process group", Text);
      return true;
    }
    // Resolved to something else (a thread pool, a std::barrier): not
    // one.
    if (isClassLike(T))
      return false;
  }
  const ValueDecl *D = nullptr;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    D = Ref->getDecl();
  else if (const auto *ME = dyn_cast<MemberExpr>(E))
    D = ME->getMemberDecl();
  if (D) {
    QualType DT = D->getType();
    bool Resolved = !D->isInvalidDecl() && resolvedType(DT);
    if (Resolved && Ctx.isGroupType(DT)) {
      Grounds = fmt::format("'{}' is a c10d process group", Text);
      return true;
    }
    if (Resolved && isClassLike(DT))
      return false;
    // The type as written, up to the name (Clang may have replaced a type
    // that did not resolve by another, or by int).
    std::string Spelled = spelledType(D, SM, LO);
    if (spelledLikeGroup(Spelled)) {
      Grounds = fmt::format("'{}' is declared as '{}'", Text, Spelled);
      return true;
    }
    // A name is evidence only where the type says nothing: it did not
    // resolve, or it is `auto` deduced from a call that did not compile.
    if (!Resolved && D->getDeclName().isIdentifier() &&
        namedLikeGroup(D->getName())) {
      Grounds = fmt::format("'{}' is named like a process group (its type "
                            "did not resolve)",
                            Text);
      return true;
    }
    return false;
  }
  // What an accessor returns: `pg->getBackend(device)`, `defaultPG()`.
  if (isa<CallExpr, RecoveryExpr>(E)) {
    std::string Name;
    if (const auto *Call = dyn_cast<CallExpr>(E);
        Call && Call->getDirectCallee())
      Name = identifierName(Call->getDirectCallee()->getDeclName());
    else if (auto Called = UnresolvedCalls::calledName(E, SM, LO))
      Name = *Called;
    if (!Name.empty() && namedLikeGroup(Name)) {
      Grounds =
          fmt::format("'{}' is named like it returns a process group", Name);
      return true;
    }
  }
  return false;
}

} // namespace

SourceLocation calledNameLoc(const Expr *Call) {
  if (!Call)
    return {};
  const Expr *Callee = nullptr;
  if (const auto *C = dyn_cast<CallExpr>(Call))
    Callee = C->getCallee();
  else if (const auto *R = dyn_cast<RecoveryExpr>(Call))
    if (!R->subExpressions().empty())
      Callee = R->subExpressions().front();
  if (Callee) {
    Callee = Callee->IgnoreParenImpCasts();
    if (const auto *M = dyn_cast<MemberExpr>(Callee))
      return M->getMemberLoc();
    if (const auto *M = dyn_cast<CXXDependentScopeMemberExpr>(Callee))
      return M->getMemberLoc();
    if (const auto *M = dyn_cast<UnresolvedMemberExpr>(Callee))
      return M->getMemberLoc();
    // `pg->name` that did not compile ends at the name.
    if (isa<RecoveryExpr>(Callee) && isa<CallExpr>(Call))
      return Callee->getEndLoc();
  }
  return Call->getExprLoc();
}

std::optional<std::string> UnresolvedCalls::calledName(const Expr *E,
                                                       const SourceManager &SM,
                                                       const LangOptions &LO) {
  if (!E)
    return std::nullopt;
  std::optional<CallShape> Shape = shapeOf(E, SM, LO);
  if (!Shape)
    return std::nullopt;
  return Shape->Name;
}

const UnresolvedCall *UnresolvedCalls::match(const Expr *E,
                                             AnalysisContext &Ctx) {
  if (!E || !E->containsErrors())
    return nullptr;
  auto Known = Memo.find(E);
  if (Known != Memo.end())
    return Known->second;
  Memo[E] = nullptr;
  const SourceManager &SM = Ctx.AST.getSourceManager();
  std::optional<CallShape> Shape = shapeOf(E, SM, Ctx.AST.getLangOpts());
  if (!Shape)
    return nullptr;
  UnresolvedCall Match;
  if (!Shape->Callee)
    for (const FunctionDecl *Candidate : Shape->Candidates)
      if (Ctx.Catalogue.classify(Candidate)) {
        Shape->Callee = Candidate;
        break;
      }
  if (Shape->Callee) {
    // The callee resolved; its arguments did not fit.
    Match.Entry = Ctx.Catalogue.classify(Shape->Callee);
    Match.Receiver = Shape->Object         ? Shape->Object
                     : Shape->Args.empty() ? nullptr
                                           : Shape->Args.front();
    Match.Grounds = fmt::format("it names '{}', whose arguments did not fit",
                                Shape->Callee->getQualifiedNameAsString());
  } else if (Shape->Member) {
    for (llvm::StringRef Class : {"c10d::ProcessGroup", "c10d::Backend"})
      if ((Match.Entry = Ctx.Catalogue.lookupName(Class, Shape->Name)))
        break;
    Match.Receiver = Shape->Object;
    if (!Match.Entry || !groundedAsGroup(Shape->Object, Ctx, Match.Grounds))
      return nullptr;
  } else {
    // c10d::ops::allreduce(pg, ...): a c10d function, on a process group.
    if (Shape->Qualifier.empty() || Shape->Args.empty())
      return nullptr;
    if (!Shape->Candidates.empty())
      return nullptr; // Overloads of something else.
    Match.Entry = Ctx.Catalogue.lookupName(Shape->Qualifier, Shape->Name);
    Match.Receiver = Shape->Args.front();
    if (!Match.Entry ||
        !llvm::StringRef(Match.Entry->Pattern).starts_with("c10d::") ||
        !groundedAsGroup(Shape->Args.front(), Ctx, Match.Grounds))
      return nullptr;
  }
  if (!Match.Entry)
    return nullptr;
  Match.Args = Shape->Args;
  Matches.push_back(std::move(Match));
  return Memo[E] = &Matches.back();
}

} // namespace ddp
