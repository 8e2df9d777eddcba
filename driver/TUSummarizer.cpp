//===--- TUSummarizer.cpp - Phase 1: one TU's analysis, as a summary ------===//

#include "TUSummarizer.h"
#include "core/ClassHierarchy.h"
#include "core/TranslationUnitAnalysis.h"
#include "core/UserCodeVisitor.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Index/USRGeneration.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

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
    for (; O && Seen.insert(O).second; O = O->Cause) {
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

/// Seeds the facts other TUs found: rank-dependent arguments passed to this
/// TU's functions, and rank-dependent values returned by other TUs'.
class ImportSeeder : public UserCodeVisitor<ImportSeeder> {
public:
  ImportSeeder(AnalysisContext &Ctx, const std::vector<FactRecord> &Imports)
      : UserCodeVisitor(Ctx), Ctx(Ctx) {
    for (const FactRecord &F : Imports)
      ByKey[F.Key].push_back(&F);
  }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    auto It = ByKey.find(usrOf(FD));
    if (It == ByKey.end())
      return true;
    for (const FactRecord *F : It->second) {
      if (F->Index == FactRecord::AnalysedElsewhere) {
        Ctx.Facts.setAnalysedElsewhere(FD->getCanonicalDecl());
        continue;
      }
      const Origin *Why = origin(*F);
      if (F->Index == FactRecord::ReturnsRank)
        Ctx.Facts.addReturn(FD->getCanonicalDecl(), Why);
      else if (FD->doesThisDeclarationHaveABody() &&
               unsigned(F->Index) < FD->getNumParams())
        Ctx.Facts.addDecl(FD->getParamDecl(F->Index), Why);
    }
    return true;
  }

private:
  const Origin *origin(const FactRecord &F) {
    // The chain as the other TU explained it, newest link first.
    const Origin *Cause = nullptr;
    for (auto It = F.Why.rbegin(); It != F.Why.rend(); ++It)
      Cause = Ctx.elsewhere(
          &F, &*It,
          It->At.File + ":" + std::to_string(It->At.Line) + ":" +
              std::to_string(It->At.Column),
          It->Message, Cause);
    return Cause;
  }

  AnalysisContext &Ctx;
  llvm::StringMap<std::vector<const FactRecord *>> ByKey;
};

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

TUSummary summarizeTU(ASTContext &AST, const AnalysisOptions &Opts,
                      const std::vector<FactRecord> &Imports) {
  TUSummary Out;
  TranslationUnitAnalysis TU(AST, Opts, [](const FunctionDecl *FD) {
    return usrOf(FD->getCanonicalDecl());
  });
  AnalysisContext &Ctx = TU.context();
  if (!Imports.empty()) {
    ImportSeeder Seeder(Ctx, Imports);
    Seeder.TraverseDecl(AST.getTranslationUnitDecl());
    for (const FactRecord &F : Imports)
      Out.Imports.push_back(F.id());
  }
  TU.run();

  Recorder Rec(AST, Ctx, Out);
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

  for (const auto &[Param, Why] : Ctx.Facts.externalParams()) {
    FactRecord F;
    F.Key = usrOf(Param.first);
    F.Index = int(Param.second);
    F.Why = Rec.why(Why);
    if (!F.Key.empty())
      Out.Exports.push_back(std::move(F));
  }
  for (const auto &[FD, Why] : Ctx.Facts.allReturns()) {
    const FunctionDecl *Def = FD->getDefinition();
    if (!Def || !Def->isExternallyVisible() || Ctx.isLibraryDecl(Def))
      continue;
    FactRecord F;
    F.Key = usrOf(FD);
    F.Why = Rec.why(Why);
    if (!F.Key.empty())
      Out.Exports.push_back(std::move(F));
  }
  // Facts in a stable order, so that equal analyses give equal files.
  llvm::sort(Out.Exports, [](const FactRecord &A, const FactRecord &B) {
    return A.id() < B.id();
  });
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
