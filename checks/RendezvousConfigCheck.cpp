//===--- RendezvousConfigCheck.cpp - ddp-rendezvous-config ----------------===//

#include "RendezvousConfigCheck.h"
#include "AnalysisOptionsIO.h"
#include "core/BrokenCode.h"
#include "core/EnvironmentSwitch.h"
#include "core/OptionList.h"
#include "core/ProcessGroupSetup.h"
#include "core/TranslationUnitAnalysis.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/StringSet.h"

using namespace clang::ast_matchers;
using ::ddp::SetupCall;

namespace clang::tidy::ddp {

/// What torchrun (and torch.distributed.launch), mpirun (Open MPI, MPICH's
/// and Intel MPI's Hydra, MVAPICH2), srun, Flux, Cray's PALS and ALPS, IBM's
/// jsrun and horovodrun set.
static constexpr const char *LauncherEnvVars =
    "RANK;LOCAL_RANK;GROUP_RANK;ROLE_RANK;NODE_RANK;WORLD_SIZE;"
    "LOCAL_WORLD_SIZE;GROUP_WORLD_SIZE;ROLE_WORLD_SIZE;MASTER_ADDR;"
    "MASTER_PORT;TORCHELASTIC_RESTART_COUNT;TORCHELASTIC_MAX_RESTARTS;"
    "TORCHELASTIC_RUN_ID;TORCHELASTIC_USE_AGENT_STORE;"
    "OMPI_COMM_WORLD_RANK;OMPI_COMM_WORLD_SIZE;OMPI_COMM_WORLD_LOCAL_RANK;"
    "OMPI_COMM_WORLD_LOCAL_SIZE;OMPI_COMM_WORLD_NODE_RANK;PMI_RANK;PMI_SIZE;"
    "PMIX_RANK;PMI_LOCAL_RANK;MV2_COMM_WORLD_RANK;MV2_COMM_WORLD_SIZE;"
    "MV2_COMM_WORLD_LOCAL_RANK;MV2_COMM_WORLD_LOCAL_SIZE;"
    "SLURM_PROCID;SLURM_NTASKS;SLURM_LOCALID;SLURM_NODEID;SLURM_NNODES;"
    "SLURM_NPROCS;SLURM_NTASKS_PER_NODE;"
    "FLUX_TASK_RANK;FLUX_TASK_LOCAL_ID;FLUX_JOB_SIZE;FLUX_JOB_NNODES;"
    "FLUX_JOB_ID;MPI_LOCALRANKID;MPI_LOCALNRANKS;PALS_RANKID;"
    "PALS_LOCAL_RANKID;PALS_LOCAL_SIZE;PALS_NODEID;ALPS_APP_PE;"
    "JSM_NAMESPACE_RANK;JSM_NAMESPACE_SIZE;JSM_NAMESPACE_LOCAL_RANK;"
    "JSM_NAMESPACE_LOCAL_SIZE;HOROVOD_RANK;HOROVOD_SIZE;HOROVOD_LOCAL_RANK;"
    "HOROVOD_LOCAL_SIZE;HOROVOD_CROSS_RANK;HOROVOD_CROSS_SIZE";

RendezvousConfigCheck::RendezvousConfigCheck(StringRef Name,
                                             ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      AgentStore(Options.get("AgentStore", false)),
      KnownEnvVars(Options.get("KnownEnvVars", "").str()) {
  Analysis = readAnalysisOptions(*this, Options);
}

void RendezvousConfigCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "AgentStore", AgentStore);
  Options.store(Opts, "KnownEnvVars", KnownEnvVars);
  storeAnalysisOptions(Options, Opts, Analysis);
}

void RendezvousConfigCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(translationUnitDecl().bind("tu"), this);
}

namespace {

const Expr *stripped(const Expr *E) {
  for (unsigned Depth = 0; E && Depth < 16; ++Depth) {
    E = E->IgnoreParenImpCasts();
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
      E = B->getSubExpr();
    else if (const auto *C = dyn_cast<CXXConstructExpr>(E);
             C && C->getNumArgs() == 1 && !isa<CXXDefaultArgExpr>(C->getArg(0)))
      E = C->getArg(0); // optional<int>(n), std::string(s)
    else if (const auto *F = dyn_cast<CXXFunctionalCastExpr>(E))
      E = F->getSubExpr();
    else
      return E;
  }
  return E;
}

/// Where a value comes from, as far as a world size goes: "lit:4",
/// "env:WORLD_SIZE", "decl:<ptr>", "size()"; "" when unknown.
std::string sourceOf(const Expr *E, ASTContext &AST, unsigned Depth = 0) {
  E = stripped(E);
  if (!E || Depth > 4)
    return "";
  if (std::optional<llvm::APSInt> Value = ::ddp::evaluateInt(E, AST))
    return "lit:" + std::to_string(Value->getSExtValue());
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl())) {
      if (Var->hasLocalStorage() && Var->getInit() &&
          Var->getType().isConstQualified())
        return sourceOf(Var->getInit(), AST, Depth + 1);
      if (Var->hasLocalStorage() && Var->getInit()) {
        std::string Init = sourceOf(Var->getInit(), AST, Depth + 1);
        if (!Init.empty())
          return Init;
      }
    }
    return "decl:" + std::to_string(reinterpret_cast<uintptr_t>(
                         Ref->getDecl()->getCanonicalDecl()));
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || !Callee->getDeclName().isIdentifier())
      return "";
    llvm::StringRef Name = Callee->getName();
    if ((Name == "getenv" || Name == "secure_getenv") &&
        Call->getNumArgs() == 1)
      if (const auto *S =
              dyn_cast<StringLiteral>(Call->getArg(0)->IgnoreParenImpCasts()))
        return "env:" + S->getString().str();
    // Conversions keep the source: stoi(getenv("WORLD_SIZE")).
    if ((Name == "stoi" || Name == "atoi" || Name == "stol" || Name == "atol" ||
         Name == "strtol") &&
        Call->getNumArgs() >= 1)
      return sourceOf(Call->getArg(0), AST, Depth + 1);
    if (Name == "getSize" || Name == "size")
      return "size()";
    // envInt("WORLD_SIZE", 1): a helper reading the variable named first.
    if (Call->getNumArgs() >= 1)
      if (const auto *S =
              dyn_cast<StringLiteral>(Call->getArg(0)->IgnoreParenImpCasts()))
        return "env:" + S->getString().str();
  }
  return "";
}

/// True if \p E is a test that holds on exactly one rank: `rank == C`,
/// `C == rank` or `!rank`, for the rank itself (not `rank % 2 == 0`).
bool oneRankTest(const Expr *E, ::ddp::TranslationUnitAnalysis &TU,
                 const FunctionDecl *FD, ASTContext &AST, unsigned Depth = 0) {
  E = stripped(E);
  if (!E || Depth > 3)
    return false;
  // The rank itself, by name or call: `rank % 2` carries the rank's origin
  // but holds on many ranks.
  auto Exact = [&](const Expr *X) {
    const Expr *S = stripped(X);
    if (!isa<DeclRefExpr, CallExpr, MemberExpr>(S))
      return false;
    const ::ddp::Origin *O = TU.divergenceOf(FD, X);
    return O && O->ExactRank;
  };
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() != BO_EQ)
      return false;
    if (::ddp::isIntegerConstant(BO->getRHS(), AST))
      return Exact(BO->getLHS());
    if (::ddp::isIntegerConstant(BO->getLHS(), AST))
      return Exact(BO->getRHS());
    return false;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return UO->getOpcode() == UO_LNot && Exact(UO->getSubExpr());
  // bool isMaster = rank == 0; ... isServer = isMaster.
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
      if (Var->hasLocalStorage() && Var->getInit())
        return oneRankTest(Var->getInit(), TU, FD, AST, Depth + 1);
  return false;
}

} // namespace

void RendezvousConfigCheck::check(const MatchFinder::MatchResult &Result) {
  // Only the rank matters here, not values computed from local tensors.
  ::ddp::AnalysisOptions RankOnly = Analysis;
  RankOnly.RankLocalData = false;
  ::ddp::TranslationUnitAnalysis TU(*Result.Context, RankOnly);
  TU.run();
  ::ddp::ProcessGroupSetup Setup =
      ::ddp::collectProcessGroupSetup(TU.context());
  checkServers(TU, Setup);
  checkWorldSizes(TU, Setup);
  checkStoreAddresses(TU, Setup);
  checkEnvironment(Setup);
  checkCreations(TU, Setup);
}

void RendezvousConfigCheck::noteWhy(const ::ddp::Origin *Why) {
  llvm::DenseSet<const ::ddp::Origin *> Seen;
  for (unsigned Shown = 0; Why && Shown < 4 && Seen.insert(Why).second;
       Why = Why->Cause)
    if (Why->Loc.isValid()) {
      diag(Why->Loc, "%0", DiagnosticIDs::Note) << Why->Message;
      ++Shown;
    }
}

/// True if the store \p C is given port 0: the system gives each server a
/// port of its own, so no server fails to bind (a test that runs a server
/// and its clients in one process reads the port back with getPort()).
static bool anyFreePort(const SetupCall &C, ASTContext &AST) {
  const Expr *Port = C.FromOptions        ? C.OptionPort
                     : C.Args.size() >= 2 ? C.Args[1]
                                          : nullptr;
  if (!Port || Port->isValueDependent() || Port->containsErrors())
    return false;
  Expr::EvalResult Result;
  return Port->EvaluateAsInt(Result, AST) && Result.Val.getInt() == 0;
}

// Exactly one rank hosts each TCPStore.
void RendezvousConfigCheck::checkServers(
    ::ddp::TranslationUnitAnalysis &TU, const ::ddp::ProcessGroupSetup &Setup) {
  ::ddp::AnalysisContext &Ctx = TU.context();
  ASTContext &AST = Ctx.AST;
  bool AgentStoreRead = AgentStore;
  for (const ::ddp::EnvAccess &E : Setup.Env)
    AgentStoreRead |= E.Name == "TORCHELASTIC_USE_AGENT_STORE";
  bool SomeServer = false;
  std::vector<const SetupCall *> Clients;
  for (const SetupCall &C : Setup.Calls) {
    if (C.K != SetupCall::Kind::Store)
      continue;
    const Expr *IsServer = C.FromOptions        ? C.OptionIsServer
                           : C.Args.size() >= 4 ? C.Args[3]
                                                : nullptr;
    const ::ddp::Origin *Gated = TU.controllingBranch(C.Function, C.Site);
    bool Constant = false, Value = false;
    if (IsServer) {
      std::optional<bool> Known = ::ddp::evaluateCondition(IsServer, AST);
      Constant = Known.has_value();
      Value = Known.value_or(false);
    } else {
      Constant = true; // Defaults to false.
    }
    if (Constant && Value) {
      SomeServer = true;
      if (!Gated && !anyFreePort(C, AST))
        diag(IsServer->getBeginLoc(),
             "every rank starts the TCPStore server: all but one fail to "
             "bind the port ('address already in use'); host the store on "
             "one rank only ('isServer' = 'rank == 0')");
      continue;
    }
    if (Constant) {
      if (!Gated)
        Clients.push_back(&C);
      continue;
    }
    const ::ddp::Origin *Why = TU.divergenceOf(C.Function, IsServer);
    if (!Why) {
      SomeServer = true; // Configured: not ours to judge.
      continue;
    }
    SomeServer = true;
    if (oneRankTest(IsServer, TU, C.Function, AST))
      continue;
    // More than one rank: `rank != 0`, or `rank % 2 == 0` (a class of
    // ranks). `rank == 0` on a rank known only by its name is trusted.
    const auto *BO = dyn_cast<BinaryOperator>(stripped(IsServer));
    auto ClassOfRanks = [&](const BinaryOperator *Cmp) {
      const Expr *Side = ::ddp::isIntegerConstant(Cmp->getRHS(), AST)
                             ? Cmp->getLHS()
                             : Cmp->getRHS();
      const auto *Arith = dyn_cast<BinaryOperator>(stripped(Side));
      return Arith &&
             (Arith->getOpcode() == BO_Rem || Arith->getOpcode() == BO_Div ||
              Arith->getOpcode() == BO_And || Arith->getOpcode() == BO_Shr);
    };
    if (BO && (BO->getOpcode() == BO_NE ||
               (BO->getOpcode() == BO_EQ && ClassOfRanks(BO)))) {
      diag(IsServer->getBeginLoc(),
           "'isServer' is true on more than one rank: each of them starts a "
           "TCPStore server on the same port; host the store on one rank "
           "only ('rank == 0')");
      noteWhy(Why);
    }
  }
  if (!SomeServer && !AgentStoreRead)
    for (const SetupCall *C : Clients)
      diag(C->Site->getBeginLoc(),
           "no rank hosts this TCPStore ('isServer' is false on every "
           "rank): every rank waits as a client until 'The client socket has "
           "timed out'; pass 'isServer' = 'rank == 0', or set AgentStore if "
           "torchrun's agent hosts the store");
}

// The store and the process group agree on the world size.
void RendezvousConfigCheck::checkWorldSizes(
    ::ddp::TranslationUnitAnalysis &TU, const ::ddp::ProcessGroupSetup &Setup) {
  ::ddp::AnalysisContext &Ctx = TU.context();
  ASTContext &AST = Ctx.AST;
  for (const SetupCall &Group : Setup.Calls) {
    if (Group.K != SetupCall::Kind::Group || Group.Args.size() < 3)
      continue;
    for (const SetupCall &Store : Setup.Calls) {
      if (Store.K != SetupCall::Kind::Store || Store.Function != Group.Function)
        continue;
      const Expr *Workers = Store.FromOptions        ? Store.OptionNumWorkers
                            : Store.Args.size() >= 3 ? Store.Args[2]
                                                     : nullptr;
      if (!Workers)
        continue;
      std::string A = sourceOf(Workers, AST), B = sourceOf(Group.Args[2], AST);
      if (A.empty() || B.empty() || A == B)
        continue;
      diag(Group.Args[2]->getBeginLoc(),
           "the process group is built for '%0' ranks but its store for '%1' "
           "workers: when they differ the rendezvous never completes; take "
           "both from one value")
          << Ctx.text(Group.Args[2]) << Ctx.text(Workers);
      diag(Workers->getBeginLoc(), "the store's world size is set here",
           DiagnosticIDs::Note);
    }
  }
}

// The store's address and port are the same on every rank.
void RendezvousConfigCheck::checkStoreAddresses(
    ::ddp::TranslationUnitAnalysis &TU, const ::ddp::ProcessGroupSetup &Setup) {
  ::ddp::AnalysisContext &Ctx = TU.context();
  for (const SetupCall &C : Setup.Calls) {
    if (C.K != SetupCall::Kind::Store)
      continue;
    const Expr *Where[2] = {C.Args.empty() ? nullptr : C.Args[0],
                            C.FromOptions        ? C.OptionPort
                            : C.Args.size() >= 2 ? C.Args[1]
                                                 : nullptr};
    for (unsigned I = 0; I < 2; ++I) {
      if (!Where[I])
        continue;
      const ::ddp::Origin *Why = TU.divergenceOf(C.Function, Where[I]);
      if (!Why)
        continue;
      diag(Where[I]->getBeginLoc(),
           "the store's %select{address|port}0 '%1' depends on the rank: "
           "ranks look for the store in different places and never meet; "
           "read MASTER_ADDR and MASTER_PORT on every rank")
          << I << Ctx.text(Where[I]);
      noteWhy(Why);
    }
  }
}

// Environment variables no launcher sets.
void RendezvousConfigCheck::checkEnvironment(
    const ::ddp::ProcessGroupSetup &Setup) {
  llvm::StringSet<> Known;
  for (llvm::StringRef Name : ::ddp::splitList(LauncherEnvVars))
    Known.insert(Name);
  for (llvm::StringRef Name : ::ddp::splitList(KnownEnvVars))
    Known.insert(Name);
  for (const ::ddp::EnvAccess &E : Setup.Env) {
    if (E.Sets || Known.contains(E.Name))
      continue;
    llvm::StringRef Upper(E.Name);
    std::string Name = Upper.upper();
    llvm::StringRef N(Name);
    bool Rendezvous = N.contains("RANK") || N.contains("WORLD") ||
                      N.starts_with("MASTER") || N.contains("NPROC") ||
                      N.contains("NUM_PROC");
    // A switch (`FIRST_RANK_ONLY=ON`) is the same on every rank.
    if (!Rendezvous || ::ddp::readsSwitch(E.Call, E.Function))
      continue;
    diag(E.Call->getBeginLoc(),
         "'%0' is not set by torchrun (RANK, LOCAL_RANK, WORLD_SIZE, "
         "LOCAL_WORLD_SIZE, MASTER_ADDR, MASTER_PORT), mpirun or srun: every "
         "rank gets the default, and the ranks disagree or collide; add it "
         "to KnownEnvVars if your launcher sets it")
        << E.Name;
  }
}

// Creating a process group or a communicator is collective: every rank
// must.
void RendezvousConfigCheck::checkCreations(
    ::ddp::TranslationUnitAnalysis &TU, const ::ddp::ProcessGroupSetup &Setup) {
  ::ddp::AnalysisContext &Ctx = TU.context();
  ASTContext &AST = Ctx.AST;
  for (const ::ddp::Finding &F : TU.findings()) {
    if (!::ddp::createsCommunicator(F.Op))
      continue;
    SourceLocation Loc = ::ddp::calledNameLoc(F.Site);
    if (F.Via.empty())
      diag(Loc, "only ranks where '%0'%select{ is false|}1 create the "
                "communicator with '%2': creating one is a collective that "
                "every rank of the parent communicator must enter, so the "
                "others wait at their next collective")
          << F.ConditionText << F.SiteOnTrueSide << F.Op;
    else
      diag(Loc, "only ranks where '%0'%select{ is false|}1 create the "
                "communicator with '%2' (in '%3'): creating one is a "
                "collective that every rank of the parent communicator must "
                "enter, so the others wait at their next collective")
          << F.ConditionText << F.SiteOnTrueSide << F.Op << F.Via;
    if (F.Condition)
      diag(F.Condition->getBeginLoc(), "this condition depends on the rank",
           DiagnosticIDs::Note);
    noteWhy(F.Why);
  }
  for (const SetupCall &C : Setup.Calls) {
    if (C.K != SetupCall::Kind::Group)
      continue;
    const ::ddp::Origin *Why = TU.controllingBranch(C.Function, C.Site);
    if (!Why)
      continue;
    // Built on both sides of the branch (with other options): fine.
    bool BothSides = false;
    const Stmt *Child = C.Site;
    for (unsigned Depth = 0; Depth < 32 && !BothSides; ++Depth) {
      auto Parents = AST.getParents(*Child);
      const Stmt *Parent = Parents.empty() ? nullptr : Parents[0].get<Stmt>();
      if (!Parent)
        break;
      const Stmt *Other = nullptr;
      if (const auto *If = dyn_cast<IfStmt>(Parent))
        Other = If->getThen() == Child ? If->getElse() : If->getThen();
      else if (const auto *CO = dyn_cast<ConditionalOperator>(Parent))
        Other =
            CO->getTrueExpr() == Child ? CO->getFalseExpr() : CO->getTrueExpr();
      if (Other)
        for (const SetupCall &D : Setup.Calls)
          if (&D != &C && D.K == SetupCall::Kind::Group &&
              D.Site->getBeginLoc().isValid() &&
              AST.getSourceManager().isPointWithin(D.Site->getBeginLoc(),
                                                   Other->getBeginLoc(),
                                                   Other->getEndLoc()))
            BothSides = true;
      Child = Parent;
    }
    if (BothSides)
      continue;
    diag(C.Site->getBeginLoc(),
         "only some ranks create this %0: creating a process group is a "
         "collective that every rank of the job must enter, so the others "
         "wait at their next collective; create it on every rank")
        << C.Class;
    noteWhy(Why);
  }
}

} // namespace clang::tidy::ddp
