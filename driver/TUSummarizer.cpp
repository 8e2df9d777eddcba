//===--- TUSummarizer.cpp - Phase 1: one TU's analysis, as a summary ------===//

#include "TUSummarizer.h"
#include "core/ClassHierarchy.h"
#include "core/ConfinedClasses.h"
#include "core/TranslationUnitAnalysis.h"
#include "core/UserCodeVisitor.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Index/USRGeneration.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include <deque>
#include <optional>
#include <tuple>

using namespace clang;

namespace ddp::driver {
namespace {

std::string usrOf(const Decl *D) {
  llvm::SmallString<128> USR;
  if (index::generateUSRForDecl(D, USR))
    return {};
  return std::string(USR);
}

/// Converts what the core found into records, with locations as paths.
class Recorder {
public:
  Recorder(ASTContext &AST, AnalysisContext &Ctx, TUSummary &Out)
      : SM(AST.getSourceManager()), Ctx(Ctx), Out(Out) {}

  Location location(SourceLocation Loc) {
    if (Loc.isInvalid())
      return {};
    Loc = SM.getExpansionLoc(Loc);
    FileID File = SM.getFileID(Loc);
    Location L;
    auto [It, New] = Paths.try_emplace(File.getHashValue());
    if (New) {
      if (OptionalFileEntryRef Entry = SM.getFileEntryRefForID(File)) {
        // Symbolic links resolved: a parse records that path for the files
        // it opens, but a header loaded from a preamble was not opened.
        llvm::SmallString<256> Resolved;
        llvm::StringRef Real = Entry->getFileEntry().tryGetRealPathName();
        if (!SM.getFileManager().getVirtualFileSystem().getRealPath(
                Entry->getName(), Resolved))
          It->second = std::string(Resolved);
        else
          It->second = Real.empty() ? Entry->getName().str() : Real.str();
      }
    }
    L.File = It->second;
    if (L.File.empty())
      return {};
    L.Line = SM.getExpansionLineNumber(Loc);
    L.Column = SM.getExpansionColumnNumber(Loc);
    return L;
  }

  /// The whole chain back to its source (a cycle stops it), shortened in
  /// the middle if it is long.
  std::vector<Step> why(const Origin *O) {
    std::vector<Step> Steps;
    llvm::DenseSet<const Origin *> Seen;
    // A placeholder stands for what a caller passes: the caller's own
    // explanation goes on from there.
    for (; O && !O->Input && Seen.insert(O).second; O = O->Cause) {
      Step S;
      S.Message = O->Message;
      if (O->Loc.isValid())
        S.At = location(O->Loc);
      else if (!O->Elsewhere.empty())
        S.At = parseElsewhere(O->Elsewhere);
      else
        continue;
      Steps.push_back(std::move(S));
    }
    return shortenChain(std::move(Steps));
  }

  /// \p D as a record: its explanation, and the input it ends at.
  DepRecord dep(const Dep &D) {
    DepRecord R;
    if (D.Why && D.Why->Synced) {
      R.Synced = true;
      return R;
    }
    R.Divergent = D.divergent();
    R.ElementsOnly = D.any() && D.Why->ElementsOnly;
    if (!R.Divergent) {
      R.Params = D.Params;
      R.EnvKeys = D.EnvKeys;
      if (const Origin *Root = AnalysisContext::rootOf(D.Why)) {
        R.Root = int(Root->Input->getFunctionScopeIndex());
        R.RootEnv = Root->EnvInput;
      }
    }
    R.Why = why(D.Why);
    return R;
  }

  /// The index of \p N (a located summary) in the node table.
  unsigned node(const SummaryNode *N) {
    auto It = Index.find(N);
    if (It != Index.end())
      return It->second;
    NodeRecord R;
    for (const SummaryNode *Kid : N->children())
      R.Kids.push_back(node(Kid));
    switch (N->getKind()) {
    case SummaryNode::Kind::Empty:
      R.K = NodeRecord::Kind::Empty;
      break;
    case SummaryNode::Kind::Op:
      R.K = NodeRecord::Kind::Op;
      break;
    case SummaryNode::Kind::Seq:
      R.K = NodeRecord::Kind::Seq;
      break;
    case SummaryNode::Kind::Choice:
      R.K = NodeRecord::Kind::Choice;
      R.LoopBody = N->getLoopBody();
      if (!N->getDecision().empty())
        decision(N->getDecision());
      break;
    case SummaryNode::Kind::LoopBack:
      R.K = NodeRecord::Kind::LoopBack;
      break;
    case SummaryNode::Kind::Call: {
      R.K = NodeRecord::Kind::Call;
      llvm::StringRef Key = N->getOp();
      Key.consume_front(AnalysisContext::DispatchPrefix);
      Calls.insert(Key);
      break;
    }
    }
    R.Name = N->getOp().str();
    // A choice's tag is not a location (it marks a loop's test).
    if (N->getKind() != SummaryNode::Kind::Choice)
      R.At = location(Ctx.tagLoc(N->getTag()));
    Out.Nodes.push_back(std::move(R));
    return Index[N] = Out.Nodes.size() - 1;
  }

  llvm::StringSet<> Calls;

private:
  /// Records what the decision \p Key tests, once.
  void decision(llvm::StringRef Key) {
    if (!Decisions.insert(Key).second)
      return;
    const DecisionInfo *Info = Ctx.Decisions.info(Key);
    if (!Info)
      return;
    DecisionRecord D;
    D.Key = Key.str();
    D.At = location(Info->Shown->getBeginLoc());
    D.Text = Info->Text;
    D.Values = Info->Values;
    Out.Decisions.push_back(std::move(D));
  }
  llvm::StringSet<> Decisions;

  static Location parseElsewhere(llvm::StringRef Text) {
    // "file:line:column", the file possibly holding ':'.
    Location L;
    auto [Rest, Column] = Text.rsplit(':');
    auto [File, Line] = Rest.rsplit(':');
    if (Line.getAsInteger(10, L.Line) || Column.getAsInteger(10, L.Column))
      return {};
    L.File = File.str();
    return L;
  }

  const SourceManager &SM;
  AnalysisContext &Ctx;
  TUSummary &Out;
  llvm::DenseMap<unsigned, std::string> Paths;
  llvm::DenseMap<const SummaryNode *, unsigned> Index;
};

/// The declarations of the TU's functions, by key (USR).
class DeclsByKey : public UserCodeVisitor<DeclsByKey> {
public:
  using UserCodeVisitor::UserCodeVisitor;
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (std::string Key = usrOf(FD->getCanonicalDecl()); !Key.empty())
      Decls[Key].push_back(FD);
    return true;
  }
  llvm::StringMap<std::vector<const FunctionDecl *>> Decls;
};

/// Turns the facts other TUs found into facts of this TU: the parameters of
/// its functions that calls elsewhere pass rank-dependent arguments (or rank
/// variables' names), and the dependence summaries of the functions of other
/// TUs it calls. A record must outlive the analysis: the explanations made
/// from it are keyed by its address.
class FactSeeder {
public:
  explicit FactSeeder(AnalysisContext &Ctx) : Ctx(Ctx) {}

  /// The declarations \p Key names.
  llvm::ArrayRef<const FunctionDecl *> declsOf(llvm::StringRef Key) {
    if (!Index) {
      Index.emplace(Ctx);
      Index->TraverseDecl(Ctx.AST.getTranslationUnitDecl());
    }
    auto It = Index->Decls.find(Key);
    if (It == Index->Decls.end())
      return {};
    return It->second;
  }

  /// For a function whose body is elsewhere: its callers here instantiate
  /// the summary with their arguments.
  DepSummary summary(const FactRecord &F, const FunctionDecl *FD) {
    DepSummary S;
    S.Return = dep(F.Summary.Return, FD);
    for (const auto &[Index, D] : F.Summary.Writes)
      if (Index < FD->getNumParams())
        S.Writes.push_back({Index, dep(D, FD)});
    return S;
  }

  /// Adds \p F to the TU's facts; a summary replaces the one given before
  /// (which it depends on at least what that did, see TUAnalysis::extends).
  void seed(const FactRecord &F) {
    for (const FunctionDecl *FD : declsOf(F.Key)) {
      if (F.K == FactRecord::Kind::Summary) {
        if (Ctx.isExternalUserFunction(FD))
          Ctx.Facts.replaceSummary(FD, summary(F, FD->getCanonicalDecl()));
        continue;
      }
      if (!FD->doesThisDeclarationHaveABody() || F.Index >= FD->getNumParams())
        continue;
      Ctx.Facts.setActual(FD->getParamDecl(F.Index),
                          F.K == FactRecord::Kind::EnvName,
                          chain(&F, F.Why, nullptr, F.ElementsOnly));
    }
  }

private:
  /// The explanation \p Steps (newest link first) of another TU, ending at
  /// \p Root.
  /// With \p ElementsOnly, its newest link says only a container's
  /// elements depend on the rank.
  const Origin *chain(const void *Anchor, const std::vector<Step> &Steps,
                      const Origin *Root, bool ElementsOnly = false) {
    const Origin *Cause = Root;
    for (auto It = Steps.rbegin(); It != Steps.rend(); ++It)
      Cause = Ctx.elsewhere(Anchor, &*It,
                            It->At.File + ":" + std::to_string(It->At.Line) +
                                ":" + std::to_string(It->At.Column),
                            It->Message, Cause,
                            ElementsOnly && It + 1 == Steps.rend());
    return Cause;
  }

  Dep dep(const DepRecord &R, const FunctionDecl *FD) {
    if (R.Synced)
      return Dep(synchronised());
    if (R.Divergent)
      return Dep(chain(&R, R.Why, nullptr, R.ElementsOnly));
    if (!R.Params && !R.EnvKeys)
      return Dep();
    const Origin *Root = nullptr;
    if (R.Root >= 0 && unsigned(R.Root) < FD->getNumParams())
      Root = Ctx.placeholder(FD->getParamDecl(R.Root), R.RootEnv);
    else if (FD->getNumParams() > 0)
      Root = Ctx.placeholder(FD->getParamDecl(0), false);
    if (!Root)
      return Dep();
    return Dep(chain(&R, R.Why, Root, R.ElementsOnly), R.Params, R.EnvKeys);
  }

  AnalysisContext &Ctx;
  std::optional<DeclsByKey> Index;
};

/// The same kind of dependence (uniform, divergent, synchronised, or on the
/// same inputs), whatever the explanation.
bool sameShape(const Dep &A, const Dep &B) {
  auto Shape = [](const Dep &D) {
    return std::make_tuple(D.Why != nullptr, D.divergent(),
                           D.Why && D.Why->Synced, D.Why && D.Why->Symbolic,
                           D.Why && D.Why->ElementsOnly, D.Params, D.EnvKeys);
  };
  return Shape(A) == Shape(B);
}

bool sameShape(const DepSummary &A, const DepSummary &B) {
  if (!sameShape(A.Return, B.Return) || A.Writes.size() != B.Writes.size())
    return false;
  for (size_t I = 0; I < A.Writes.size(); ++I)
    if (A.Writes[I].first != B.Writes[I].first ||
        !sameShape(A.Writes[I].second, B.Writes[I].second))
      return false;
  return true;
}

std::string displayName(const FunctionDecl *FD) {
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
    if (MD->getParent()->isLambda())
      return "lambda";
  // "fw::NcclImpl::AllReduce", without "(anonymous namespace)::" or inline
  // namespaces, which the user never writes.
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  PrintingPolicy Policy(FD->getASTContext().getLangOpts());
  Policy.SuppressUnwrittenScope = true;
  FD->printQualifiedName(OS, Policy);
  return Name;
}

const char *shapeName(Finding::Shape S) {
  switch (S) {
  case Finding::Shape::Loop:
    return "loop";
  case Finding::Shape::Switch:
    return "switch";
  case Finding::Shape::UnevenList:
    return "list";
  case Finding::Shape::Handler:
    return "handler";
  case Finding::Shape::Branch:
    break;
  }
  return "branch";
}

} // namespace

struct TUAnalysis::State {
  State(ASTContext &AST, const AnalysisOptions &Opts)
      : TU(AST, Opts,
           [](const FunctionDecl *FD) {
             return usrOf(FD->getCanonicalDecl());
           }),
        Seeder(TU.context()) {}
  TranslationUnitAnalysis TU;
  FactSeeder Seeder;
  /// The facts given so far (where they stay), by id, and the summary given
  /// for each function.
  std::deque<FactRecord> Given;
  llvm::StringMap<const FactRecord *> GivenById;
  llvm::StringMap<const FactRecord *> SummaryOf;
  /// Copies extends() made of new summaries, to be seeded.
  llvm::StringMap<const FactRecord *> Copied;
};

TUAnalysis::TUAnalysis(ASTContext &AST, const AnalysisOptions &Opts)
    : AST(AST), Opts(Opts), S(std::make_unique<State>(AST, Opts)) {}

TUAnalysis::~TUAnalysis() = default;

size_t TUAnalysis::memoryBytes() const { return S->TU.memoryBytes(); }

bool TUAnalysis::extends(const std::vector<FactRecord> &Imports) {
  llvm::StringSet<> Ids, Summarised;
  for (const FactRecord &F : Imports) {
    Ids.insert(F.id());
    if (F.K == FactRecord::Kind::Summary)
      Summarised.insert(F.Key);
  }
  // A fact given before and not now (a summary replaced by another is
  // checked below).
  for (const auto &Entry : S->GivenById) {
    const FactRecord &Old = *Entry.second;
    if (!Ids.contains(Entry.getKey()) &&
        !(Old.K == FactRecord::Kind::Summary && Summarised.contains(Old.Key)))
      return false;
  }
  AnalysisContext &Ctx = S->TU.context();
  for (const FactRecord &F : Imports) {
    if (F.K != FactRecord::Kind::Summary || S->GivenById.contains(F.id()))
      continue;
    // What the new summary says is made from a copy that stays (see
    // FactSeeder): when the analysis goes on, it is the copy seeded.
    const FactRecord &Kept = S->Given.emplace_back(F);
    S->Copied[F.id()] = &Kept;
    for (const FunctionDecl *FD : S->Seeder.declsOf(F.Key)) {
      if (!Ctx.isExternalUserFunction(FD))
        continue;
      // A guess made without any summary is not made with one.
      if (Ctx.Facts.assumedReturns().contains(FD->getCanonicalDecl()))
        return false;
      const DepSummary *Old = Ctx.Facts.summary(FD);
      if (!Old)
        continue;
      // A dependence the summary had and no longer has stays in what was
      // found from it.
      DepSummary New = S->Seeder.summary(Kept, FD->getCanonicalDecl());
      if (!sameShape(join(*Old, New), New))
        return false;
    }
  }
  return true;
}

TUSummary TUAnalysis::summarize(const std::vector<FactRecord> &Imports) {
  TUSummary Out;
  TranslationUnitAnalysis &TU = S->TU;
  AnalysisContext &Ctx = TU.context();
  for (const FactRecord &F : Imports) {
    std::string Id = F.id();
    Out.Imports.push_back(Id);
    if (S->GivenById.contains(Id))
      continue;
    // The copy extends() made, or a new one.
    const FactRecord *Kept = S->Copied.lookup(Id);
    if (!Kept)
      Kept = &S->Given.emplace_back(F);
    S->GivenById[Id] = Kept;
    if (F.K == FactRecord::Kind::Summary) {
      if (const FactRecord *Replaced = S->SummaryOf.lookup(F.Key))
        S->GivenById.erase(Replaced->id());
      S->SummaryOf[F.Key] = Kept;
    }
    S->Seeder.seed(*Kept);
  }
  S->Copied.clear();
  TU.run();

  Recorder Rec(AST, Ctx, Out);
  auto Confined = confinedClasses(AST);
  for (const FunctionDecl *FD : TU.functions()) {
    FunctionAnalysis *FA = TU.analysis(FD);
    if (!FA || !FA->isValid())
      continue;
    std::string Key = usrOf(FA->decl()->getCanonicalDecl());
    if (Key.empty())
      continue;
    Out.Defines.push_back(Key);
    // A virtual call of a method it overrides, in any TU, can run it.
    if (const auto *MD = dyn_cast<CXXMethodDecl>(FA->decl());
        MD && MD->isVirtual()) {
      OverrideRecord O;
      O.Key = Key;
      O.Confined = Confined.contains(MD->getParent()->getCanonicalDecl());
      for (const CXXMethodDecl *Base : overriddenMethods(MD))
        if (std::string BaseKey = usrOf(Base); !BaseKey.empty())
          O.Overrides.push_back(std::move(BaseKey));
      if (!O.Overrides.empty())
        Out.Overrides.push_back(std::move(O));
    }
    const SummaryNode *Located = FA->locatedSummary();
    if (Located->isInert())
      continue;
    FunctionRecord F;
    F.Key = Key;
    F.Name = displayName(FA->decl());
    F.At = Rec.location(FA->decl()->getLocation());
    F.Summary = Rec.node(Located);
    Out.Functions.push_back(std::move(F));
  }

  auto Record = [&](const Finding &F, bool Decided) {
    BranchRecord B;
    B.Function = F.Function ? displayName(F.Function) : "";
    B.Shape = shapeName(F.Kind);
    if (F.Condition)
      B.Condition = Rec.location(F.Condition->getBeginLoc());
    B.ConditionText = F.ConditionText;
    B.OverRange = F.OverRange;
    B.Why = Rec.why(F.Why);
    for (const Finding::Side &S : F.Sides)
      B.Sides.push_back({S.Successor, Rec.node(S.Located)});
    B.Decided = Decided;
    if (Decided) {
      B.Op = F.Op;
      B.IsBarrier = F.IsBarrier;
      B.Site = Rec.location(calledNameLoc(F.Site));
      B.EarlyExit = Rec.location(F.EarlyExit);
      B.EarlyExitKind = F.EarlyExitKind;
      if (F.Uniform) {
        B.Uniform.At = Rec.location(F.Uniform->getBeginLoc());
        B.Uniform.Message = explainOutcome(F.UniformText, F.UniformValue);
      }
      if (F.ByNameLoc.isValid()) {
        B.ByNameAt = Rec.location(F.ByNameLoc);
        B.ByNameNote = F.ByNameNote;
      }
    }
    Out.Branches.push_back(std::move(B));
  };
  for (const FunctionAnalysis *FA : TU.skipped())
    Out.Skipped.push_back(
        {displayName(FA->decl()), Rec.location(FA->decl()->getLocation()),
         Opts.AnalysisBudget, FA->divergentBranchCount(), "", ""});
  for (const FunctionDecl *FD : TU.broken())
    Out.Skipped.push_back({displayName(FD), Rec.location(FD->getLocation()), 0,
                           0, describe(Ctx.distrust(FD)),
                           usrOf(FD->getCanonicalDecl())});
  for (const Finding &F : TU.findings())
    Record(F, true);
  for (const Finding &F : TU.deferred())
    Record(F, false);

  // What other TUs need: the summaries of the functions defined here, and
  // the parameters of other TUs' functions that calls here pass
  // rank-dependent arguments or rank variables' names.
  llvm::StringSet<> Called;
  for (const FunctionDecl *FD : TU.functions()) {
    FunctionAnalysis *FA = TU.analysis(FD);
    if (!FA || !FA->isValid())
      continue;
    const FunctionDecl *Def = FA->decl();
    const DepSummary *S = Ctx.Facts.summary(Def);
    if (S && Def->isExternallyVisible() &&
        (S->Return.any() || !S->Writes.empty())) {
      FactRecord F;
      F.K = FactRecord::Kind::Summary;
      F.Key = usrOf(Def->getCanonicalDecl());
      F.Summary.Return = Rec.dep(S->Return);
      for (const auto &[Index, D] : S->Writes)
        F.Summary.Writes.push_back({Index, Rec.dep(D)});
      if (!F.Key.empty())
        Out.Exports.push_back(std::move(F));
    }
    for (const auto &Entry : FA->calls()) {
      const CallRecord &R = Entry.second;
      if (!Ctx.isExternalUserFunction(R.Callee))
        continue;
      std::string Key = usrOf(R.Callee->getCanonicalDecl());
      if (Key.empty())
        continue;
      Called.insert(Key);
      for (unsigned I = 0; I < R.Args.size(); ++I)
        for (bool Env : {false, true})
          if (const Origin *Why =
                  Ctx.Facts.actual(R.Callee->getParamDecl(I), Env)) {
            FactRecord F;
            F.K = Env ? FactRecord::Kind::EnvName : FactRecord::Kind::Argument;
            F.Key = Key;
            F.Index = I;
            F.Why = Rec.why(Why);
            F.ElementsOnly = Why->ElementsOnly;
            Out.Exports.push_back(std::move(F));
          }
    }
  }
  // Facts in a stable order, once each, so that equal analyses give equal
  // files.
  llvm::sort(Out.Exports, [](const FactRecord &A, const FactRecord &B) {
    return A.id() < B.id();
  });
  Out.Exports.erase(std::unique(Out.Exports.begin(), Out.Exports.end(),
                                [](const FactRecord &A, const FactRecord &B) {
                                  return A.id() == B.id();
                                }),
                    Out.Exports.end());
  for (const auto &Entry : Called)
    Rec.Calls.insert(Entry.getKey());
  for (const FunctionDecl *FD : Ctx.Facts.assumedReturns()) {
    std::string Key = usrOf(FD);
    if (!Key.empty())
      Out.AssumedReturns.push_back(Key);
  }
  llvm::sort(Out.AssumedReturns);
  for (const auto &Entry : Rec.Calls)
    Out.Calls.push_back(Entry.getKey().str());
  llvm::sort(Out.Calls);
  for (const auto &Name : Ctx.Summaries.barriers())
    Out.Barriers.push_back(Name.getKey().str());
  llvm::sort(Out.Barriers);
  return Out;
}

} // namespace ddp::driver
