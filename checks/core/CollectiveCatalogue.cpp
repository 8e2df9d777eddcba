//===--- CollectiveCatalogue.cpp - What each communication call does ------===//

#include "core/CollectiveCatalogue.h"
#include "core/ClassHierarchy.h"
#include "core/OptionList.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace ddp {

static std::optional<llvm::GlobPattern> compileGlob(llvm::StringRef S) {
  if (!hasGlobChars(S))
    return std::nullopt;
  llvm::Expected<llvm::GlobPattern> Glob = llvm::GlobPattern::create(S);
  if (!Glob) {
    llvm::consumeError(Glob.takeError());
    return std::nullopt;
  }
  return std::move(*Glob);
}

void CollectiveCatalogue::add(llvm::StringRef Pattern, CallRole Role,
                              int Arg) {
  Pattern = Pattern.trim();
  if (Pattern.consume_front("::"))
    Pattern = Pattern.trim();
  if (Pattern.empty())
    return;
  Compiled C;
  C.Entry.Pattern = Pattern.str();
  C.Entry.Role = Role;
  C.Entry.Arg = Arg;
  size_t Sep = Pattern.rfind("::");
  llvm::StringRef Name =
      Sep == llvm::StringRef::npos ? Pattern : Pattern.substr(Sep + 2);
  if (Sep != llvm::StringRef::npos)
    C.Qualifier = Pattern.substr(0, Sep).str();
  C.Entry.Display = Name.str();
  C.QualifierText = std::make_shared<const std::string>(C.Qualifier);
  C.NameText = std::make_shared<const std::string>(Name.str());
  C.QualifierGlob = compileGlob(*C.QualifierText);
  C.NameGlob = compileGlob(*C.NameText);
  Classified.clear();
  unsigned Index = Entries.size();
  bool NameIsGlob = C.NameGlob.has_value();
  Entries.push_back(std::move(C));
  if (NameIsGlob)
    Globbed.push_back(Index);
  else
    ByName[Name].push_back(Index);
}

void CollectiveCatalogue::addList(llvm::StringRef Patterns, CallRole Role) {
  for (llvm::StringRef Part : splitList(Patterns)) {
    int Arg = -1;
    size_t At = Part.rfind('@');
    if (At != llvm::StringRef::npos) {
      unsigned Parsed;
      if (!Part.substr(At + 1).getAsInteger(10, Parsed))
        Arg = static_cast<int>(Parsed);
      Part = Part.substr(0, At);
    }
    add(Part, Role, Arg);
  }
}

/// True if \p Ctx, printed as a qualified name, matches the entry's qualifier.
static bool qualifierMatches(const std::string &Qualifier,
                             const std::optional<llvm::GlobPattern> &Glob,
                             const NamedDecl *Ctx) {
  std::string Name = Ctx->getQualifiedNameAsString();
  return Glob ? Glob->match(Name) : Name == Qualifier;
}

/// The name a pattern's last component is matched against: the function's
/// name, or for a constructor the name of its class.
static llvm::StringRef callableName(const FunctionDecl *FD) {
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(FD))
    return Ctor->getParent()->getDeclName().isIdentifier()
               ? Ctor->getParent()->getName()
               : llvm::StringRef();
  return FD->getDeclName().isIdentifier() ? FD->getName() : llvm::StringRef();
}

bool CollectiveCatalogue::matches(const Compiled &C,
                                  const FunctionDecl *FD) const {
  if (C.NameGlob && !C.NameGlob->match(callableName(FD)))
    return false;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD)) {
    if (C.Qualifier.empty())
      return false;
    return isOrDerivesFrom(MD->getParent(), [&](const CXXRecordDecl *RD) {
      return qualifierMatches(C.Qualifier, C.QualifierGlob, RD);
    });
  }
  const DeclContext *DC = FD->getDeclContext()->getRedeclContext();
  if (C.Qualifier.empty())
    return DC->isTranslationUnit();
  if (C.QualifierGlob && C.QualifierGlob->match(""))
    return true;
  const auto *ND = dyn_cast<NamedDecl>(DC);
  return ND && qualifierMatches(C.Qualifier, C.QualifierGlob, ND);
}

const CatalogueEntry *
CollectiveCatalogue::classify(const FunctionDecl *FD) const {
  if (!FD)
    return nullptr;
  auto [It, Inserted] = Classified.try_emplace(FD, -1);
  if (Inserted)
    It->second = match(FD);
  return It->second < 0 ? nullptr : &Entries[It->second].Entry;
}

int CollectiveCatalogue::match(const FunctionDecl *FD) const {
  llvm::StringRef Name = callableName(FD);
  if (Name.empty())
    return -1;
  int Best = -1;
  auto Consider = [&](unsigned Index) {
    if (static_cast<int>(Index) > Best && matches(Entries[Index], FD))
      Best = Index;
  };
  auto It = ByName.find(Name);
  if (It != ByName.end())
    for (unsigned Index : It->second)
      Consider(Index);
  for (unsigned Index : Globbed)
    Consider(Index);
  return Best;
}

const CatalogueEntry *CollectiveCatalogue::classify(const CallExpr *Call) const {
  return classify(Call->getDirectCallee());
}

bool CollectiveCatalogue::communicates(llvm::StringRef Name) const {
  auto Communicates = [](const Compiled &C) {
    CallRole R = C.Entry.Role;
    return isCollectiveRole(R) || R == CallRole::PointToPoint ||
           R == CallRole::GradientSync || R == CallRole::ArmsGradSync;
  };
  auto It = ByName.find(Name);
  if (It != ByName.end())
    for (unsigned Index : It->second)
      if (Communicates(Entries[Index]))
        return true;
  for (unsigned Index : Globbed)
    if (Communicates(Entries[Index]) && Entries[Index].NameGlob->match(Name))
      return true;
  return false;
}

const CatalogueEntry *
CollectiveCatalogue::lookupName(llvm::StringRef Qualifier,
                                llvm::StringRef Name) const {
  auto It = ByName.find(Name);
  if (It == ByName.end() || Qualifier.empty())
    return nullptr;
  for (unsigned Index : llvm::reverse(It->second))
    if (Entries[Index].Qualifier == Qualifier)
      return &Entries[Index].Entry;
  return nullptr;
}

} // namespace ddp
