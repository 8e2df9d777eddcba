//===--- AnalysisContext.cpp - What the analysis of one TU shares ---------===//

#include "core/AnalysisContext.h"
#include "core/CallSites.h"
#include "core/ClassHierarchy.h"
#include "core/OptionList.h"
#include "core/SoleObjects.h"
#include "core/UserCodeVisitor.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace ddp {

static void addNames(llvm::StringSet<> &Set, llvm::StringRef List) {
  for (llvm::StringRef Item : splitList(List))
    Set.insert(Item);
}

AnalysisContext::AnalysisContext(ASTContext &AST, const AnalysisOptions &Opts)
    : AST(AST), Opts(Opts), Catalogue(CollectiveCatalogue::withDefaults()),
      Sync(Opts), RankName(Opts.RankNamePattern, llvm::Regex::IgnoreCase) {
  Catalogue.addList(Opts.Collectives, CallRole::Collective);
  Catalogue.addList(Opts.Barriers, CallRole::Barrier);
  Catalogue.addList(Opts.PointToPoint, CallRole::PointToPoint);
  Catalogue.addList(Opts.RankSources, CallRole::RankSource);
  Catalogue.addList(Opts.UniformSources, CallRole::UniformSource);
  TUHasErrors = AST.getDiagnostics().hasErrorOccurred();
  std::string Error;
  RankNameValid = !Opts.RankNamePattern.empty() && RankName.isValid(Error);
  addNames(RankEnvVars, Opts.RankEnvVars);
  addNames(LibraryNamespaces, Opts.LibraryNamespaces);
}

const Origin *AnalysisContext::origin(const void *Anchor, const void *Key,
                                      SourceLocation Loc,
                                      llvm::function_ref<std::string()> Message,
                                      const Origin *Cause, bool FromControl,
                                      bool ExactRank, bool LocalData,
                                      bool ElementsOnly) {
  // A link is made once per anchor and key, and apart for a rank source and
  // for a caller's input: the same assignment can be explained either way.
  bool Symbolic = Cause && Cause->Symbolic;
  auto [It, Inserted] = OriginIndex.try_emplace(
      {Anchor, Key, unsigned(Symbolic) | unsigned(ElementsOnly) << 1}, nullptr);
  if (!Inserted)
    return It->second;
  Origin &New = Origins.emplace_back();
  New.Loc = Loc;
  New.Message = Message();
  New.Cause = Cause;
  New.FromControl = FromControl || (Cause && Cause->FromControl);
  New.ExactRank = ExactRank;
  New.LocalData = LocalData || (Cause && Cause->LocalData);
  New.Symbolic = Symbolic;
  New.ElementsOnly = ElementsOnly;
  It->second = &New;
  return It->second;
}

const Origin *AnalysisContext::placeholder(const ParmVarDecl *P, bool Env) {
  static const char PlaceholderKey = 0;
  auto [It, Inserted] =
      OriginIndex.try_emplace({P, &PlaceholderKey, unsigned(Env)}, nullptr);
  if (!Inserted)
    return It->second;
  Origin &New = Origins.emplace_back();
  New.Loc = P->getLocation();
  New.Message = "'" + P->getNameAsString() + "' as the caller passes it";
  New.Symbolic = true;
  New.Input = P;
  New.EnvInput = Env;
  It->second = &New;
  return It->second;
}

const Origin *AnalysisContext::rootOf(const Origin *O) {
  for (unsigned Steps = 0; O && Steps < 256; O = O->Cause, ++Steps)
    if (O->Input)
      return O;
  return nullptr;
}

const Origin *AnalysisContext::relink(const Origin *Link, const Origin *Cause) {
  bool Symbolic = Cause && Cause->Symbolic;
  auto [It, Inserted] =
      OriginIndex.try_emplace({Link, Cause, unsigned(Symbolic)}, nullptr);
  if (!Inserted)
    return It->second;
  Origin &New = Origins.emplace_back(*Link);
  New.Cause = Cause;
  New.FromControl = Link->FromControl || (Cause && Cause->FromControl);
  New.LocalData = Link->LocalData || (Cause && Cause->LocalData);
  New.Symbolic = Symbolic;
  New.Input = nullptr;
  New.EnvInput = false;
  It->second = &New;
  return It->second;
}

const Origin *AnalysisContext::substitute(const Origin *O, const Origin *Repl) {
  llvm::SmallVector<const Origin *, 16> Chain;
  const Origin *X = O;
  for (; X && !X->Input && Chain.size() < 256; X = X->Cause)
    Chain.push_back(X);
  if (!X || !X->Input)
    // No placeholder in reach: keep the first link, then the replacement.
    return O ? relink(O, Repl) : Repl;
  const Origin *Cur = Repl;
  for (auto It = Chain.rbegin(); It != Chain.rend(); ++It)
    Cur = relink(*It, Cur);
  return Cur;
}

const Origin *AnalysisContext::resolve(const Dep &D) {
  if (D.divergent())
    return D.Why;
  if (!D.any() || !D.Why)
    return nullptr;
  const Origin *Root = rootOf(D.Why);
  if (!Root)
    return nullptr;
  if (const Origin *A = Facts.actual(Root->Input, Root->EnvInput))
    return substitute(D.Why, A);
  // Another input it depends on: the explanation's first link, then why
  // that input is rank-dependent.
  const auto *Fn = dyn_cast<FunctionDecl>(Root->Input->getDeclContext());
  if (!Fn)
    return nullptr;
  for (bool Env : {false, true}) {
    uint64_t Mask = Env ? D.EnvKeys : D.Params;
    for (unsigned I = 0; Mask && I < Fn->getNumParams(); ++I)
      if (Mask & inputBit(I))
        if (const Origin *A = Facts.actual(Fn->getParamDecl(I), Env))
          return D.Why == Root ? A : relink(D.Why, A);
  }
  return nullptr;
}

const FunctionDecl *RankFacts::canonical(const FunctionDecl *FD) {
  return FD ? FD->getCanonicalDecl() : nullptr;
}

bool RankFacts::changedSince(const ReadSet &Read, unsigned Since) const {
  if (Generation == Since)
    return false;
  for (const Key &K : Read)
    if (ChangedAt.lookup(K) > Since)
      return true;
  return false;
}

const DepSummary *RankFacts::summary(const FunctionDecl *FD) const {
  read(key(About::Summary, canonical(FD)));
  auto It = Summaries.find(canonical(FD));
  return It == Summaries.end() ? nullptr : &It->second;
}

const Origin *AnalysisContext::elsewhere(const void *Anchor, const void *Key,
                                         std::string Where, std::string Message,
                                         const Origin *Cause,
                                         bool ElementsOnly) {
  bool Symbolic = Cause && Cause->Symbolic;
  auto [It, Inserted] = OriginIndex.try_emplace(
      {Anchor, Key, unsigned(Symbolic) | unsigned(ElementsOnly) << 1}, nullptr);
  if (!Inserted)
    return It->second;
  Origin &New = Origins.emplace_back();
  New.Message = std::move(Message);
  New.Cause = Cause;
  New.Symbolic = Symbolic;
  New.FromControl = Cause && Cause->FromControl;
  New.Elsewhere = std::move(Where);
  New.ElementsOnly = ElementsOnly;
  It->second = &New;
  return It->second;
}

std::string AnalysisContext::text(SourceRange R, size_t Max) const {
  const SourceManager &SM = AST.getSourceManager();
  CharSourceRange Range = CharSourceRange::getTokenRange(
      SM.getExpansionRange(R.getBegin()).getBegin(),
      SM.getExpansionRange(R.getEnd()).getEnd());
  llvm::StringRef Raw = Lexer::getSourceText(Range, SM, AST.getLangOpts());
  std::string Out;
  bool Space = false;
  for (char C : Raw) {
    if (C == '\n' || C == '\t' || C == ' ' || C == '\r') {
      Space = !Out.empty();
      continue;
    }
    if (Space)
      Out += ' ';
    Space = false;
    Out += C;
  }
  if (Out.size() > Max)
    Out = Out.substr(0, Max - 3) + "...";
  return Out;
}

std::string AnalysisContext::text(const Expr *E, size_t Max) const {
  return E ? text(E->getSourceRange(), Max) : std::string();
}

bool AnalysisContext::isRankName(llvm::StringRef Name) const {
  if (!Opts.RankNameHeuristic || !RankNameValid || Name.empty())
    return false;
  auto [It, Inserted] = RankNameMatches.try_emplace(Name, false);
  if (Inserted)
    It->second = RankName.match(Name);
  return It->second;
}

bool AnalysisContext::isGroupType(QualType T) {
  if (T.isNull())
    return false;
  T = T.getNonReferenceType().getCanonicalType();
  auto [It, Inserted] = GroupTypes.try_emplace(T.getTypePtr(), false);
  if (!Inserted)
    return It->second;
  bool Result = false;
  if (T->isPointerType()) {
    Result = isGroupType(T->getPointeeType());
  } else if (const auto *RD = T->getAsCXXRecordDecl()) {
    // intrusive_ptr<ProcessGroupGloo>, shared_ptr<c10d::Store>, ...
    if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD)) {
      llvm::StringRef Name = Spec->getName();
      if ((Name == "intrusive_ptr" || Name == "shared_ptr" ||
           Name == "unique_ptr" || Name == "weak_intrusive_ptr") &&
          Spec->getTemplateArgs().size() > 0 &&
          Spec->getTemplateArgs()[0].getKind() == TemplateArgument::Type)
        Result = isGroupType(Spec->getTemplateArgs()[0].getAsType());
    }
    // c10d's, and any framework's own class named ProcessGroup (Paddle's,
    // OneFlow's, a trainer's): the handle of the group this rank is in.
    Result = Result || isOrDerivesFrom(RD, [](const CXXRecordDecl *Class) {
               std::string Name = Class->getQualifiedNameAsString();
               return Name == "c10d::ProcessGroup" || Name == "c10d::Backend" ||
                      Name == "c10d::Store" ||
                      (Class->getIdentifier() &&
                       Class->getName() == "ProcessGroup");
             });
  }
  GroupTypes[T.getTypePtr()] = Result;
  return Result;
}

/// A namespace of a system header whose closing brace Clang never read: it
/// stopped reading the header at a fatal error (the error limit), and
/// parsed what follows the include, the user's code, inside the namespace
/// (Clang 19 does so where Clang 22 does not).
static bool cutOffHeaderNamespace(const NamespaceDecl *NS,
                                  const SourceManager &SM) {
  return NS->getLocation().isValid() && NS->getRBraceLoc().isInvalid() &&
         SM.isInSystemHeader(NS->getLocation());
}

bool AnalysisContext::isLibraryDecl(const Decl *D) const {
  const SourceManager &SM = AST.getSourceManager();
  // A cut-off namespace is walked: what it holds from system headers is
  // still the library's (by its location), what it holds from the user's
  // files is the user's.
  if (const auto *NS = dyn_cast<NamespaceDecl>(D);
      NS && cutOffHeaderNamespace(NS, SM))
    return false;
  if (SM.isInSystemHeader(D->getLocation()))
    return true;
  const DeclContext *DC = D->getDeclContext();
  const NamespaceDecl *Outermost = nullptr;
  for (; DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC)) {
      if (cutOffHeaderNamespace(NS, SM))
        return false;
      Outermost = NS;
    }
  if (const auto *NS = dyn_cast<NamespaceDecl>(D))
    if (!Outermost)
      Outermost = NS;
  return Outermost && Outermost->getDeclName().isIdentifier() &&
         LibraryNamespaces.contains(Outermost->getName());
}

bool AnalysisContext::isAnalysable(const FunctionDecl *FD) const {
  if (!FD)
    return false;
  const FunctionDecl *Def = FD->getDefinition();
  if (!Def || !Def->hasBody() || Def->isDependentContext())
    return false;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Def))
    if (MD->getParent()->isLambda() && MD->getParent()->isDependentContext())
      return false;
  return !isLibraryDecl(Def) && distrust(Def) == Distrust::None;
}

Distrust AnalysisContext::distrust(const FunctionDecl *Def) const {
  auto It = Distrusts.find(Def);
  if (It != Distrusts.end())
    return It->second;
  Distrust Why = distrustOf(Def, TUHasErrors, [&](llvm::StringRef Name) {
    return Catalogue.communicates(Name) || isUserFunctionName(Name);
  });
  Distrusts[Def] = Why;
  return Why;
}

namespace {
/// The names of the user's function definitions.
class FunctionNames : public UserCodeVisitor<FunctionNames> {
public:
  using UserCodeVisitor::UserCodeVisitor;
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->doesThisDeclarationHaveABody() && FD->getDeclName().isIdentifier())
      Names.insert(FD->getName());
    return true;
  }
  llvm::StringSet<> Names;
};
} // namespace

bool AnalysisContext::isUserFunctionName(llvm::StringRef Name) const {
  if (!UserFunctionNames) {
    FunctionNames Finder(*this);
    Finder.TraverseDecl(AST.getTranslationUnitDecl());
    UserFunctionNames = std::move(Finder.Names);
  }
  return UserFunctionNames->contains(Name);
}

AnalysisContext::~AnalysisContext() = default;

const DepSummary *
AnalysisContext::dispatchSummary(const CXXMethodDecl *Method) {
  if (ExternalKey || !DispatchTargets || !Method->isPureVirtual())
    return nullptr;
  Method = Method->getCanonicalDecl();
  auto It = Dispatches.find(Method);
  if (It != Dispatches.end() && It->second.Generation == Facts.generation()) {
    Facts.reread(It->second.Read);
    return It->second.Summary ? &*It->second.Summary : nullptr;
  }
  // Looking the overrides up may analyse them: the cache entry is made after.
  CachedDispatch Entry;
  Entry.Generation = Facts.generation();
  {
    RankFacts::Recorder Reading(Facts, Entry.Read);
    Entry.Summary = joinOverrides(Method);
  }
  CachedDispatch &Cached = Dispatches[Method] = std::move(Entry);
  return Cached.Summary ? &*Cached.Summary : nullptr;
}

std::optional<DepSummary>
AnalysisContext::joinOverrides(const CXXMethodDecl *Method) {
  std::vector<const DepSummary *> Overrides;
  for (const FunctionDecl *Target : DispatchTargets(Method)) {
    const DepSummary *S = Facts.summary(Target);
    if (!S)
      return std::nullopt;
    Overrides.push_back(S);
  }
  if (Overrides.empty())
    return std::nullopt;
  llvm::SmallVector<unsigned, 4> Written;
  for (const DepSummary *S : Overrides)
    for (const auto &Entry : S->Writes)
      if (Entry.first < Method->getNumParams() &&
          !llvm::is_contained(Written, Entry.first))
        Written.push_back(Entry.first);
  llvm::sort(Written);
  DepSummary Joined;
  for (size_t I = 0; I < Overrides.size(); ++I) {
    DepSummary Own;
    Own.Return = Overrides[I]->Return;
    for (unsigned Index : Written) {
      const Dep *W = Overrides[I]->writes(Index);
      // Left alone, the argument keeps what the caller passed.
      Own.Writes.push_back(
          {Index, W ? *W
                    : Dep(placeholder(Method->getParamDecl(Index), false),
                          inputBit(Index), 0)});
    }
    Joined = I == 0 ? Own : join(Joined, Own);
  }
  return Joined;
}

bool AnalysisContext::onlyCalledDirectly(const FunctionDecl *FD) const {
  if (!Calls)
    Calls = std::make_unique<CallSites>(*this);
  return Calls->onlyCalledDirectly(FD);
}

const VarDecl *AnalysisContext::soleObject(const RecordDecl *Record) const {
  if (!Soles)
    Soles = std::make_unique<SoleObjects>(*this);
  return Soles->of(Record);
}

bool AnalysisContext::isBrokenUserFunction(const FunctionDecl *FD) const {
  if (!FD)
    return false;
  const FunctionDecl *Def = FD->getDefinition();
  if (!Def || !Def->hasBody() || Def->isDependentContext() ||
      isLibraryDecl(Def))
    return false;
  return distrust(Def) != Distrust::None;
}

bool AnalysisContext::isExternalUserFunction(const FunctionDecl *FD) const {
  if (!ExternalKey || !FD || FD->getDefinition() || isLibraryDecl(FD))
    return false;
  return FD->getDeclName().isIdentifier() || isa<CXXMethodDecl>(FD);
}

} // namespace ddp
