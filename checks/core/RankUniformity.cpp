//===--- RankUniformity.cpp - Which values and branches depend on the rank ===//

#include "core/RankUniformity.h"
#include "core/DataLoading.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include <fmt/format.h>

using namespace clang;

namespace ddp {
namespace {

/// Distinct keys for the origins created here, so that one expression can
/// anchor several explanations.
enum OriginKey : uintptr_t {
  KeySource = 1,
  KeyName,
  KeyReturnCall,
  KeyControl,
  KeyReturn,
  KeyCapture,
  KeyOutArg,
  KeyEnv,
  KeyLocal,
  KeyInexact,
  KeyChunks,
};

/// The state of a variable that a collective made the same on every rank
/// (the buffer of an allreduce or broadcast): uniform, and synchronised.
const Origin SyncedValue{};
const Origin *const Synced = &SyncedValue;

bool isDivergent(const Origin *O) { return O && O != Synced; }

const void *key(OriginKey K) { return reinterpret_cast<const void *>(K); }

std::string declName(const ValueDecl *D) {
  return D->getDeclName().isIdentifier() ? D->getName().str()
                                         : D->getNameAsString();
}

/// The variable or field an lvalue expression names, looking through
/// `&x`, `*p`, `x[i]`, `x.member` to the outermost named object.
const ValueDecl *targetDecl(const Expr *E, bool &Exact) {
  Exact = true;
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return DRE->getDecl();
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      // A field names the same thing in every object of its class: facts
      // about it are kept per field. Only `this->field = v` is a strong update.
      if (isa<FieldDecl>(ME->getMemberDecl())) {
        Exact &= isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts());
        return ME->getMemberDecl();
      }
      Exact = false;
      E = ME->getBase();
      continue;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->getOpcode() == UO_Deref)
        Exact = false;
      E = UO->getSubExpr();
      continue;
    }
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
      Exact = false;
      E = ASE->getBase();
      continue;
    }
    if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(E)) {
      E = MTE->getSubExpr();
      continue;
    }
    // v[0] and *p on class types (std::vector<at::Tensor>, iterators).
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
      if ((Op->getOperator() == OO_Subscript || Op->getOperator() == OO_Star ||
           Op->getOperator() == OO_Arrow) &&
          Op->getNumArgs() > 0) {
        Exact = false;
        E = Op->getArg(0);
        continue;
      }
    }
    return nullptr;
  }
  return nullptr;
}

/// Functions that turn a rank into the same rank of another type.
bool isConversion(const FunctionDecl *FD) {
  if (!FD || !FD->getDeclName().isIdentifier())
    return false;
  static constexpr llvm::StringLiteral Names[] = {
      "atoi", "atol", "atoll", "strtol", "strtoll", "strtoul", "strtoull",
      "stoi", "stol", "stoll", "stoul", "stoull", "to_string", "string",
      "basic_string", "from_chars", "lexical_cast", "value", "value_or"};
  return llvm::is_contained(Names, FD->getName());
}

/// Calls that allocate memory: their result is a new address, not a value
/// computed from their arguments (a rank-dependent size does not make the
/// pointer rank-dependent). realloc keeps what the old block held.
bool isAllocation(const FunctionDecl *FD) {
  if (!FD || !FD->getDeclName().isIdentifier() ||
      !FD->getReturnType()->isPointerType())
    return false;
  llvm::StringRef Name = FD->getName();
  return Name == "malloc" || Name == "calloc" || Name == "aligned_alloc" ||
         Name == "valloc" || Name == "memalign" || Name == "pvalloc";
}

bool isRealloc(const FunctionDecl *FD) {
  return FD && FD->getDeclName().isIdentifier() &&
         (FD->getName() == "realloc" || FD->getName() == "reallocf") &&
         FD->getReturnType()->isPointerType();
}

bool isGetenv(const FunctionDecl *FD) {
  if (!FD || !FD->getDeclName().isIdentifier())
    return false;
  llvm::StringRef Name = FD->getName();
  return Name == "getenv" || Name == "secure_getenv";
}

/// True for a class that is about distributed work (see declDivergence).
bool isDistributedClass(const RecordDecl *RD) {
  if (!RD)
    return false;
  if (RD->getDeclName().isIdentifier()) {
    std::string Name = RD->getName().lower();
    for (const char *Word : {"dist", "process", "comm", "parallel", "group",
                             "worker", "trainer", "cluster", "launch", "mpi",
                             "nccl", "ddp"})
      if (llvm::StringRef(Name).contains(Word))
        return true;
  }
  for (const FieldDecl *F : RD->fields()) {
    // A world size, but not any `size` (a container's, a layer's).
    if (F->getDeclName().isIdentifier() && isWorldSizeName(F->getName())) {
      std::string Lower = F->getName().lower();
      llvm::StringRef Name(Lower);
      Name.consume_front("m_");
      if (!Name.starts_with("size"))
        return true;
    }
    std::string Type = F->getType().getAsString();
    if (llvm::StringRef(Type).contains("c10d::") ||
        llvm::StringRef(Type).contains("MPI_Comm") ||
        llvm::StringRef(Type).contains("ncclComm"))
      return true;
  }
  return false;
}

/// Methods that put a value into a container.
bool isContainerUpdate(const CXXMethodDecl *MD) {
  if (!MD->getDeclName().isIdentifier())
    return false;
  static constexpr llvm::StringLiteral Updates[] = {
      "push_back", "emplace_back", "push_front", "emplace_front",
      "insert",    "emplace",      "assign",     "append",
      "push",      "resize",       "insert_or_assign", "try_emplace",
      "set",       "put"};
  return llvm::is_contained(Updates, MD->getName());
}

class Evaluator {
public:
  Evaluator(AnalysisContext &Ctx, const DivergenceState &State)
      : Ctx(Ctx), State(State) {}

  const Origin *eval(const Expr *E);
  const Origin *declDivergence(const ValueDecl *D);
  /// True if \p E names a buffer a collective made the same on every rank.
  bool isSynchronised(const Expr *E) {
    bool Exact;
    const ValueDecl *D = targetDecl(E, Exact);
    auto It = D ? State.find(D) : State.end();
    return It != State.end() && It->second == Synced;
  }
  bool isWorldSize(const Expr *E);

private:
  const Origin *call(const CallExpr *Call);
  const Origin *localData(const CallExpr *Call);
  /// A ChunkDataset whose chunk sampler splits the chunks by rank: ranks
  /// read different chunks, which can differ in size.
  const Origin *chunkShare(const Expr *Dataset);
  const Origin *comparison(const BinaryOperator *BO);
  const Origin *anyChild(const Stmt *S);

  AnalysisContext &Ctx;
  const DivergenceState &State;
};

const Origin *Evaluator::declDivergence(const ValueDecl *D) {
  if (!D)
    return nullptr;
  auto It = State.find(D);
  if (It != State.end())
    return isDivergent(It->second) ? It->second : nullptr;
  if (const Origin *Known = Ctx.Facts.decl(D))
    return Known;
  bool NotVisible = isa<ParmVarDecl>(D) || isa<FieldDecl>(D);
  // Every call of a function with internal linkage (static, anonymous
  // namespace, lambda) is in this TU, and the arguments they pass are
  // analysed: the parameter's name adds nothing.
  if (const auto *Param = dyn_cast<ParmVarDecl>(D))
    if (const auto *Fn =
            dyn_cast_or_null<FunctionDecl>(Param->getDeclContext())) {
      const auto *Method = dyn_cast<CXXMethodDecl>(Fn);
      if (!Fn->isExternallyVisible() ||
          (Method && Method->getParent()->isLambda()))
        NotVisible = false;
    }
  if (const auto *VD = dyn_cast<VarDecl>(D))
    NotVisible |= VD->hasGlobalStorage() && !VD->isStaticLocal();
  if (!NotVisible || !D->getDeclName().isIdentifier() ||
      !Ctx.isRankName(D->getName()))
    return nullptr;
  // A field is a process rank only in a class about distributed work: one
  // that also holds a world size or a process group, or is named so
  // (`DistributedContext`, `Trainer`). A LoRA config's `rank` is not.
  if (const auto *Field = dyn_cast<FieldDecl>(D))
    if (!isDistributedClass(Field->getParent()))
      return nullptr;
  if (const auto *VD = dyn_cast<VarDecl>(D))
    if (VD->getType().isConstQualified() && VD->getInit() &&
        VD->getInit()->isEvaluatable(Ctx.AST))
      return nullptr;
  return Ctx.origin(D, key(KeyName), D->getLocation(), [&] {
    return fmt::format("'{}' is taken to hold the rank because of its name; "
                       "its value is set outside the code analysed",
                       declName(D));
  }, nullptr, false, /*ExactRank=*/true);
}

bool Evaluator::isWorldSize(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    const CatalogueEntry *Entry = Ctx.Catalogue.classify(Call);
    return Entry && Entry->Role == CallRole::UniformSource;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (eval(DRE))
      return false;
    // `int n = pg->getSize();`
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (VD->getInit() && isa<CallExpr>(VD->getInit()->IgnoreParenImpCasts()) &&
          isWorldSize(VD->getInit()))
        return true;
    if (Ctx.WorldSizes.contains(DRE->getDecl()))
      return true;
    return DRE->getDecl()->getDeclName().isIdentifier() &&
           isWorldSizeName(DRE->getDecl()->getName());
  }
  // A field named just `size` is a container's or a dataset's, not the
  // number of ranks.
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const ValueDecl *Member = ME->getMemberDecl();
    if (!Member->getDeclName().isIdentifier())
      return false;
    std::string Lower = Member->getName().lower();
    llvm::StringRef Name(Lower);
    Name.consume_front("m_");
    return isWorldSizeName(Member->getName()) && !Name.starts_with("size") &&
           !eval(ME);
  }
  return false;
}

/// True if \p E is a rank on its own (not arithmetic on it).
static bool isPlainValue(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  return isa<DeclRefExpr>(E) || isa<MemberExpr>(E) || isa<CallExpr>(E);
}

/// Comparisons that have the same outcome on every rank because
/// 0 <= rank < world_size: `rank < world_size`, `rank >= 0`, `rank < 0`.
const Origin *Evaluator::comparison(const BinaryOperator *BO) {
  const Expr *L = BO->getLHS()->IgnoreParenImpCasts();
  const Expr *R = BO->getRHS()->IgnoreParenImpCasts();
  const Origin *LO = eval(L);
  const Origin *RO = eval(R);
  if (!LO && !RO)
    return nullptr;
  BinaryOperatorKind Op = BO->getOpcode();
  const Expr *Rank = LO ? L : R;
  const Expr *Other = LO ? R : L;
  if (LO && RO)
    return betterOrigin(LO, RO);
  const Origin *RankOrigin = LO ? LO : RO;
  if (!isPlainValue(Rank) || !RankOrigin->ExactRank)
    return RankOrigin;
  if (isWorldSize(Other))
    return nullptr;
  // rank <= world_size - 1 (always), rank > world_size - 1 (never); but
  // rank == world_size - 1 picks the last rank.
  BinaryOperatorKind Normalised =
      LO ? BO->getOpcode()
         : BinaryOperator::reverseComparisonOp(BO->getOpcode());
  if (const auto *Minus = dyn_cast<BinaryOperator>(Other))
    if ((Normalised == BO_LE || Normalised == BO_GT) &&
        Minus->getOpcode() == BO_Sub && isWorldSize(Minus->getLHS())) {
      Expr::EvalResult One;
      if (Minus->getRHS()->EvaluateAsInt(One, Ctx.AST) &&
          One.Val.getInt() == 1)
        return nullptr;
    }
  // Normalise to `rank OP constant`.
  if (!LO)
    Op = BinaryOperator::reverseComparisonOp(Op);
  Expr::EvalResult Result;
  if (Other->EvaluateAsInt(Result, Ctx.AST) && Result.Val.getInt() == 0 &&
      (Op == BO_GE || Op == BO_LT))
    return nullptr;
  return LO ? LO : RO;
}

const Origin *Evaluator::anyChild(const Stmt *S) {
  const Origin *Best = nullptr;
  for (const Stmt *Child : S->children())
    if (const auto *E = dyn_cast_or_null<Expr>(Child)) {
      Best = betterOrigin(Best, eval(E));
      if (Best && !Best->FromControl)
        return Best;
    }
  return Best;
}

const Origin *Evaluator::call(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (isGetenv(FD)) {
    if (Call->getNumArgs() == 0)
      return nullptr;
    const auto *Lit =
        dyn_cast<StringLiteral>(Call->getArg(0)->IgnoreParenImpCasts());
    if (!Lit || !Ctx.isRankEnvVar(Lit->getString()))
      return nullptr;
    return Ctx.origin(Call, key(KeyEnv), Call->getBeginLoc(), [&] {
      return fmt::format("'{}' reads the rank from the environment",
                         Ctx.text(Call));
    }, nullptr, false, /*ExactRank=*/true);
  }
  // How many batches a loader yields depends on its sampler, or on the
  // size of the dataset the default sampler is built over.
  if (data::isMakeDataLoader(FD)) {
    data::LoaderInputs In = data::loaderInputs(Call);
    const Origin *O = In.Count ? eval(In.Count) : nullptr;
    if (!O && In.Options)
      O = eval(In.Options);
    return O;
  }
  if (const Origin *O = chunkShare(Call))
    return O;
  if (const CatalogueEntry *Entry = Ctx.Catalogue.classify(FD)) {
    if (Entry->Role == CallRole::LocalData)
      return localData(Call);
    if (Entry->Role == CallRole::RankSource && Entry->Arg < 0) {
      // The process id differs between ranks but is not a rank: facts
      // such as rank < world_size do not hold for it.
      bool ProcessId = FD->getDeclName().isIdentifier() &&
                       FD->getName() == "getpid";
      return Ctx.origin(Call, key(KeySource), Call->getBeginLoc(), [&] {
        return fmt::format(ProcessId ? "'{}' is this process's id, different "
                                       "on every rank"
                                     : "'{}' returns the rank of this process",
                           Ctx.text(Call));
      }, nullptr, false, /*ExactRank=*/!ProcessId);
    }
    // Results of communication calls and uniform sources are the same on
    // every rank (the Work handle, the world size).
    if (Entry->Role != CallRole::RankSource)
      return nullptr;
  }
  // A new block of memory: its address does not depend on its size.
  if (isAllocation(FD))
    return nullptr;
  if (isRealloc(FD))
    return Call->getNumArgs() > 0 ? eval(Call->getArg(0)) : nullptr;
  if (FD) {
    if (const Origin *Returned = Ctx.Facts.returns(FD->getCanonicalDecl()))
      return Returned; // "'f' returns a rank-dependent value here"
    // A function whose body is analysed returns a rank-dependent value only
    // if its analysis says so (rank-dependent arguments reach its parameters
    // as facts): `meanLoss(pg, local)` returns an allreduced, uniform value.
    // So does one the whole-program driver analysed in another TU.
    if ((Ctx.isAnalysable(FD) ||
         Ctx.Facts.analysedElsewhere(FD->getCanonicalDecl())) &&
        !FD->getReturnType()->isVoidType())
      return nullptr;
  }
  const Origin *O = nullptr;
  if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(Call)) {
    O = eval(MCE->getImplicitObjectArgument());
    // The size of a container whose elements alone depend on the rank.
    if (O && O->ElementsOnly && FD && FD->getDeclName().isIdentifier() &&
        (FD->getName() == "size" || FD->getName() == "empty" ||
         FD->getName() == "length"))
      return nullptr;
  }
  for (const Expr *Arg : Call->arguments()) {
    if (O)
      break;
    O = eval(Arg);
  }
  // The driver checks this guess against the callee's own analysis.
  if (O && FD && Ctx.isExternalUserFunction(FD))
    Ctx.Facts.assumeReturn(FD->getCanonicalDecl());
  // localBatches(rank) depends on the rank but is not the rank: facts such
  // as rank >= 0 do not carry over. Conversions (atoi, stoi) keep it.
  if (O && O->ExactRank && !isConversion(FD))
    return Ctx.origin(Call, key(KeyInexact), O->Loc,
                      [&] { return O->Message; }, O->Cause, O->FromControl,
                      /*ExactRank=*/false, O->LocalData);
  return O;
}

/// What a call that reads rank-local data reads, for the explanation.
static std::string localDataMessage(const FunctionDecl *FD,
                                    const std::string &Text) {
  llvm::StringRef Name = FD && FD->getDeclName().isIdentifier()
                             ? FD->getName()
                             : llvm::StringRef();
  if (Name == "now" || Name == "time" || Name == "clock" ||
      Name == "gettimeofday" || Name == "clock_gettime")
    return fmt::format("'{}' reads this rank's clock", Text);
  if (Name == "exists" || Name == "is_regular_file" || Name == "is_directory" ||
      Name == "file_size" || Name == "access" || Name == "stat" ||
      Name == "is_open" || Name == "last_write_time")
    return fmt::format("'{}' looks at this rank's file system", Text);
  return fmt::format("'{}' is computed from this rank's own data", Text);
}

const Origin *Evaluator::localData(const CallExpr *Call) {
  if (!Ctx.Opts.RankLocalData)
    return nullptr;
  const auto *Member = dyn_cast<CXXMemberCallExpr>(Call);
  const Expr *Object = Member ? Member->getImplicitObjectArgument() : nullptr;
  if (Object && isSynchronised(Object))
    return nullptr;
  if (Object)
    if (const Origin *O = eval(Object))
      if (!O->FromControl)
        return O;
  // at::equal(a, b) of tensors that all went through a collective.
  if (!Object && Call->getNumArgs() > 0) {
    bool AllSynchronised = true, AnyTensor = false;
    for (const Expr *Arg : Call->arguments()) {
      const CXXRecordDecl *RD =
          Arg->getType().getNonReferenceType()->getAsCXXRecordDecl();
      if (!RD || !RD->getDeclName().isIdentifier() ||
          (RD->getName() != "Tensor" && RD->getName() != "TensorBase"))
        continue;
      AnyTensor = true;
      AllSynchronised &= isSynchronised(Arg);
    }
    if (AnyTensor && AllSynchronised)
      return nullptr;
  }
  return Ctx.origin(Call, key(KeyLocal), Call->getBeginLoc(), [&] {
    return localDataMessage(Call->getDirectCallee(), Ctx.text(Call));
  }, nullptr, false, false, /*LocalData=*/true);
}

const Origin *Evaluator::chunkShare(const Expr *Dataset) {
  const Expr *SamplerArg = data::chunkSamplerArgument(Dataset);
  if (!SamplerArg)
    return nullptr;
  const CXXConstructExpr *Sampler = data::constructionOf(SamplerArg);
  if (!Sampler ||
      !data::isDistributedSampler(Sampler->getConstructor()->getParent()) ||
      Sampler->getNumArgs() < 3 || isa<CXXDefaultArgExpr>(Sampler->getArg(2)))
    return nullptr;
  const Origin *Rank = eval(Sampler->getArg(2));
  if (!Rank)
    return nullptr;
  return Ctx.origin(Dataset, key(KeyChunks), SamplerArg->getBeginLoc(), [&] {
    return fmt::format("each rank reads its own chunks through '{}', and "
                       "chunks can differ in size",
                       Ctx.text(SamplerArg));
  }, Rank);
}

const Origin *Evaluator::eval(const Expr *E) {
  if (!E)
    return nullptr;
  E = E->IgnoreParenImpCasts();
  // A process group is the same group on every rank, though built with the
  // rank (ProcessGroupGloo(store, rank, size, ...)).
  if (Ctx.isGroupType(E->getType()))
    return nullptr;
  if (isa<IntegerLiteral, FloatingLiteral, StringLiteral, CharacterLiteral,
          CXXBoolLiteralExpr, CXXNullPtrLiteralExpr, CXXThisExpr, LambdaExpr,
          UnaryExprOrTypeTraitExpr, CXXDefaultArgExpr>(E))
    return nullptr;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (isa<FunctionDecl, EnumConstantDecl>(DRE->getDecl()))
      return nullptr;
    return declDivergence(DRE->getDecl());
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (isa<FieldDecl, VarDecl>(ME->getMemberDecl()))
      if (const Origin *O = declDivergence(ME->getMemberDecl()))
        return O;
    if (isa<CXXMethodDecl>(ME->getMemberDecl()))
      return nullptr;
    return eval(ME->getBase());
  }
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return call(Call);
  // `new double[n]` is a new block, whatever n is; what it is built from
  // decides what it holds.
  if (const auto *New = dyn_cast<CXXNewExpr>(E))
    return New->getInitializer() ? eval(New->getInitializer()) : nullptr;
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
    // Objects whose value is the same on every rank however they are built.
    const CatalogueEntry *Entry =
        Ctx.Catalogue.classify(Construct->getConstructor());
    if (Entry && Entry->Role == CallRole::UniformSource)
      return nullptr;
    // std::random_device: whatever it draws differs between ranks.
    if (Entry && Entry->Role == CallRole::LocalData)
      return Ctx.Opts.RankLocalData
                 ? Ctx.origin(Construct, key(KeyLocal),
                              Construct->getBeginLoc(), [&] {
                                return fmt::format(
                                    "'{}' draws random numbers on this rank",
                                    Ctx.text(Construct));
                              }, nullptr, false, false, /*LocalData=*/true)
                 : nullptr;
    // LibTorch's distributed samplers yield the same number of indices on
    // every rank given the same size: the rank only chooses which.
    if (data::isDistributedSampler(Construct->getConstructor()->getParent()))
      return Construct->getNumArgs() > 0 ? eval(Construct->getArg(0))
                                         : nullptr;
    if (const Origin *O = chunkShare(Construct))
      return O;
    return anyChild(E);
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isComparisonOp())
      return comparison(BO);
    if (BO->getOpcode() == BO_Assign)
      return eval(BO->getRHS());
    if (BO->getOpcode() == BO_Comma)
      return eval(BO->getRHS());
    const Origin *L = eval(BO->getLHS());
    if (L && !L->FromControl)
      return L;
    return betterOrigin(L, eval(BO->getRHS()));
  }
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
    if (const Origin *O = eval(CO->getCond()))
      return O;
    if (const Origin *O = eval(CO->getTrueExpr()))
      return O;
    return eval(CO->getFalseExpr());
  }
  return anyChild(E);
}

/// Copies \p From into \p Into, keeping divergence: the join of two states.
bool joinInto(DivergenceState &Into, const DivergenceState &From, bool First) {
  if (First) {
    Into = From;
    return true;
  }
  // A declaration absent on one side is unknown there: drop it unless the
  // other side knows it is divergent. Synchronised on both sides stays so.
  llvm::SmallVector<const ValueDecl *, 8> Drop;
  for (auto &[D, O] : Into) {
    auto It = From.find(D);
    if (It == From.end()) {
      if (!isDivergent(O))
        Drop.push_back(D);
      continue;
    }
    const Origin *F = It->second;
    if (isDivergent(O) || isDivergent(F))
      O = isDivergent(O) ? (isDivergent(F) ? betterOrigin(O, F) : O) : F;
    else if (O != F)
      O = nullptr;
  }
  for (const ValueDecl *D : Drop)
    Into.erase(D);
  for (auto &[D, O] : From)
    if (isDivergent(O) && !Into.count(D))
      Into[D] = O;
  return true;
}

class Transfer {
public:
  Transfer(AnalysisContext &Ctx, const FunctionDecl *FD, DivergenceState &State,
           const llvm::SmallVector<ControllingBranch, 2> *Controls,
           const llvm::DenseMap<const ValueDecl *,
                                llvm::SmallVector<const ValueDecl *, 2>>
               &Aliases)
      : Ctx(Ctx), FD(FD), State(State), Controls(Controls), Aliases(Aliases),
        Eval(Ctx, State) {}

  void element(const CFGElement &Elem);

private:
  void assign(const ValueDecl *Target, bool Exact, const Expr *Value,
              const Stmt *Anchor, const Origin *O);
  void call(const CallExpr *Call);
  void passArguments(const CallExpr *Call);
  void exportArguments(const CallExpr *Call, const FunctionDecl *Callee);

  AnalysisContext &Ctx;
  const FunctionDecl *FD;
  DivergenceState &State;
  /// The rank-dependent branches whose region this block is in.
  const llvm::SmallVector<ControllingBranch, 2> *Controls;
  const llvm::DenseMap<const ValueDecl *,
                       llvm::SmallVector<const ValueDecl *, 2>> &Aliases;
  Evaluator Eval;
};

void Transfer::assign(const ValueDecl *Target, bool Exact, const Expr *Value,
                      const Stmt *Anchor, const Origin *O) {
  if (!Target)
    return;
  // Written after a collective made it the same everywhere: no longer
  // known to be synchronised (see the joins in RankUniformity::run).
  auto Old = State.find(Target);
  if (Old != State.end() && Old->second == Synced)
    Old->second = nullptr;
  const Origin *Why = nullptr;
  if (O) {
    // "'rank' is set from 'pg->getRank()' here"; when the source itself is
    // that expression, one note says it all.
    const SourceManager &SM = Ctx.AST.getSourceManager();
    // What local data a value comes from is worth its own note ("'l' is
    // set from 'loss.item()'", "'loss.item()' is computed from this rank's
    // own data").
    const Origin *Cause = O;
    if (Value && !O->Cause && !O->LocalData && O->Loc.isValid() &&
        SM.isPointWithin(O->Loc, Value->getBeginLoc(), Value->getEndLoc()))
      Cause = nullptr;
    // An implicit variable (a range-for's __range1/__begin1) gets no note
    // of its own: the user never wrote it; nor does a default-constructed
    // one (`std::random_device rd;`), whose source is its declaration.
    const auto *Construct =
        dyn_cast_or_null<CXXConstructExpr>(Value ? Value->IgnoreImplicit()
                                                 : nullptr);
    if (Target->isImplicit() ||
        (Construct && Construct->getNumArgs() == 0 &&
         Construct->getParenOrBraceRange().isInvalid())) {
      State[Target] = O;
      return;
    }
    Why = Ctx.origin(Anchor, Target, Value ? Value->getBeginLoc()
                                           : Anchor->getBeginLoc(),
                     [&] {
                       return fmt::format("'{}' is set from '{}' here",
                                          declName(Target),
                                          Value ? Ctx.text(Value) : "?");
                     },
                     Cause, false,
                     O->ExactRank && Value && isPlainValue(Value));
  }
  if (Why) {
    State[Target] = Why;
    bool Local = false;
    if (const auto *VD = dyn_cast<VarDecl>(Target))
      Local = VD->hasLocalStorage() && !isa<ParmVarDecl>(VD);
    if (!Local)
      Ctx.Facts.addDecl(Target, Why);
  } else if (Exact) {
    State[Target] = nullptr;
  }
}

/// True for a parameter through which the callee can write the caller's
/// variable: a reference or a pointer to non-const.
static bool isOutParameter(const ParmVarDecl *Param) {
  QualType T = Param->getType();
  if (T->isReferenceType() || T->isPointerType())
    return !T->getPointeeType().isConstQualified();
  return false;
}

void Transfer::passArguments(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (Callee && Ctx.isExternalUserFunction(Callee)) {
    exportArguments(Call, Callee);
    return;
  }
  if (!Callee || !Ctx.isAnalysable(Callee))
    return;
  const FunctionDecl *Def = Callee->getDefinition();
  unsigned Offset = 0;
  if (isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(Def))
    Offset = 1;
  for (unsigned I = Offset; I < Call->getNumArgs(); ++I) {
    if (I - Offset >= Def->getNumParams())
      break;
    const ParmVarDecl *Param = Def->getParamDecl(I - Offset);
    // `queryRank(pg, r)` with `void queryRank(..., int &out) { out = rank; }`:
    // the callee wrote a rank-dependent value into the caller's variable.
    if (isOutParameter(Param))
      if (const Origin *Written = Ctx.Facts.decl(Param)) {
        bool Exact;
        if (const ValueDecl *Target = targetDecl(Call->getArg(I), Exact))
          State[Target] = Ctx.origin(Call, Target, Call->getBeginLoc(), [&] {
            return fmt::format("'{}' is set to a rank-dependent value by '{}' "
                               "here",
                               declName(Target), Def->getNameAsString());
          }, Written, false, Written->ExactRank);
      }
    const Origin *O = Eval.eval(Call->getArg(I));
    if (!O)
      continue;
    Ctx.Facts.addDecl(Param, Ctx.origin(Call, Param, Call->getArg(I)->getBeginLoc(), [&] {
      return fmt::format("'{}' receives a rank-dependent argument here",
                         declName(Param));
    }, O));
  }
}

void Transfer::exportArguments(const CallExpr *Call,
                               const FunctionDecl *Callee) {
  unsigned Offset =
      isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(Callee) ? 1 : 0;
  for (unsigned I = Offset; I < Call->getNumArgs(); ++I) {
    if (I - Offset >= Callee->getNumParams())
      break;
    if (const Origin *O = Eval.eval(Call->getArg(I)))
      Ctx.Facts.addExternalParam(
          Callee->getCanonicalDecl(), I - Offset,
          Ctx.origin(Call, Callee->getParamDecl(I - Offset),
                     Call->getArg(I)->getBeginLoc(), [&] {
                       return fmt::format(
                           "'{}' receives a rank-dependent argument ('{}') "
                           "here",
                           Callee->getNameAsString(),
                           Ctx.text(Call->getArg(I)));
                     }, O));
  }
}

void Transfer::call(const CallExpr *Call) {
  const CatalogueEntry *Entry = Ctx.Catalogue.classify(Call);
  if (Entry && Entry->Arg >= 0 &&
      static_cast<unsigned>(Entry->Arg) < Call->getNumArgs()) {
    bool Exact;
    const Expr *ArgExpr = Call->getArg(Entry->Arg);
    const ValueDecl *Target = targetDecl(ArgExpr, Exact);
    if (Target) {
      if (Entry->Role == CallRole::RankSource) {
        const Origin *O = Ctx.origin(Call, key(KeyOutArg), Call->getBeginLoc(), [&] {
          return fmt::format("'{}' is set to the rank by '{}' here",
                             declName(Target), Entry->Display);
        }, nullptr, false, /*ExactRank=*/true);
        State[Target] = O;
        const auto *VD = dyn_cast<VarDecl>(Target);
        if (!VD || !VD->hasLocalStorage() || isa<ParmVarDecl>(VD))
          Ctx.Facts.addDecl(Target, O);
      } else if (Entry->Role == CallRole::UniformSource ||
                 isCollectiveRole(Entry->Role)) {
        // The buffer now holds the same value on every rank, and so do the
        // tensors it was built from (tensors share their storage).
        if (Entry->Role == CallRole::UniformSource) {
          State[Target] = nullptr;
          Ctx.WorldSizes.insert(Target); // MPI_Comm_size(comm, &np)
        } else {
          State[Target] = Synced;
          auto Alias = Aliases.find(Target);
          if (Alias != Aliases.end())
            for (const ValueDecl *Member : Alias->second)
              State[Member] = Synced;
        }
      }
    }
  }
  // MPI_Comm_split(comm, color, key, &sub): with a rank-dependent colour, the
  // communicator a rank gets depends on its rank.
  if (const FunctionDecl *Callee = Call->getDirectCallee())
    if (Callee->getDeclName().isIdentifier() &&
        (Callee->getName() == "MPI_Comm_split" ||
         Callee->getName() == "ncclCommSplit") &&
        Call->getNumArgs() > 3)
      if (const Origin *Color = Eval.eval(Call->getArg(1))) {
        bool Exact;
        if (const ValueDecl *Target = targetDecl(Call->getArg(3), Exact))
          assign(Target, false, Call->getArg(1), Call, Color);
      }
  // A container given a rank-dependent element holds rank-dependent
  // contents: `names.push_back(rank)`. (Only the container operations: a
  // model's forward(x) does not make the model rank-dependent.)
  if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(Call)) {
    const CXXMethodDecl *MD = MCE->getMethodDecl();
    if (MD && !MD->isConst() && !Entry && isContainerUpdate(MD)) {
      for (const Expr *Arg : Call->arguments())
        if (const Origin *O = Eval.eval(Arg)) {
          bool Exact;
          const ValueDecl *Target =
              targetDecl(MCE->getImplicitObjectArgument(), Exact);
          if (!Target)
            break;
          // Inserted on every rank alike, the value leaves the size uniform.
          bool SizeUniform = !State.lookup(Target);
          assign(Target, false, Arg, Call, O);
          if (SizeUniform)
            if (const Origin *Now = State.lookup(Target))
              const_cast<Origin *>(Now)->ElementsOnly = true;
          break;
        }
    }
  }
  if (const auto *OCE = dyn_cast<CXXOperatorCallExpr>(Call)) {
    if (OCE->isAssignmentOp() && OCE->getNumArgs() == 2) {
      bool Exact;
      const ValueDecl *Target = targetDecl(OCE->getArg(0), Exact);
      const Origin *O = Eval.eval(OCE->getArg(1));
      if (OCE->getOperator() != OO_Equal && !O)
        O = Eval.eval(OCE->getArg(0));
      assign(Target, Exact && OCE->getOperator() == OO_Equal, OCE->getArg(1),
             OCE, O);
    }
  }
  passArguments(Call);
}

void Transfer::element(const CFGElement &Elem) {
  if (auto Init = Elem.getAs<CFGInitializer>()) {
    const CXXCtorInitializer *I = Init->getInitializer();
    if (FieldDecl *Field = I->getAnyMember()) {
      const Origin *O = Eval.eval(I->getInit());
      if (O)
        assign(Field, true, I->getInit(), I->getInit(), O);
    }
    return;
  }
  auto StmtElem = Elem.getAs<CFGStmt>();
  if (!StmtElem)
    return;
  const Stmt *S = StmtElem->getStmt();
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls()) {
      const auto *VD = dyn_cast<VarDecl>(D);
      if (!VD)
        continue;
      const Expr *Init = VD->getInit();
      const Origin *O = Init ? Eval.eval(Init) : nullptr;
      assign(VD, true, Init, DS, O);
    }
    return;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (!BO->isAssignmentOp())
      return;
    bool Exact;
    const ValueDecl *Target = targetDecl(BO->getLHS(), Exact);
    const Origin *O = Eval.eval(BO->getRHS());
    // `i += world`: a uniform step keeps i's own explanation.
    if (BO->isCompoundAssignmentOp() && !O && Eval.eval(BO->getLHS()))
      return;
    assign(Target, Exact && !BO->isCompoundAssignmentOp(), BO->getRHS(), BO,
           O);
    return;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
    // `++i` keeps i's divergence; it only ends a synchronised state.
    bool Exact;
    if (UO->isIncrementDecrementOp())
      if (const ValueDecl *Target = targetDecl(UO->getSubExpr(), Exact)) {
        auto It = State.find(Target);
        if (It != State.end() && It->second == Synced)
          It->second = nullptr;
      }
    return;
  }
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    call(Call);
    return;
  }
  if (const auto *RS = dyn_cast<ReturnStmt>(S)) {
    const Expr *Value = RS->getRetValue();
    if (!Value || !FD)
      return;
    const Origin *O = Eval.eval(Value);
    if (!O && Controls)
      O = Controls->front().Why;
    if (O)
      Ctx.Facts.addReturn(FD->getCanonicalDecl(), Ctx.origin(RS, key(KeyReturn), RS->getBeginLoc(), [&] {
        return fmt::format("'{}' returns a rank-dependent value here",
                           FD->getNameAsString());
      }, O, false, O->ExactRank && isPlainValue(Value)));
    return;
  }
  if (const auto *Lambda = dyn_cast<LambdaExpr>(S)) {
    // Captured variables carry their rank dependence into the lambda body.
    for (const LambdaCapture &Capture : Lambda->captures()) {
      if (!Capture.capturesVariable())
        continue;
      const ValueDecl *Var = Capture.getCapturedVar();
      if (const Origin *O = Eval.declDivergence(Var))
        Ctx.Facts.addDecl(Var, O);
    }
    return;
  }
}

} // namespace

const Origin *RankUniformity::divergenceAt(const CFGBlock *B,
                                           const Expr *E) const {
  Evaluator Eval(Ctx, Out[B->getBlockID()]);
  return Eval.eval(E);
}

const Expr *RankUniformity::branchCondition(const CFGBlock *B) {
  const Stmt *Cond = B->getTerminatorCondition(/*StripParens=*/true);
  const auto *E = dyn_cast_or_null<Expr>(Cond);
  if (!E)
    return nullptr;
  // With `a && b`, the block ending in the `if` evaluates only `b`.
  if (!isa<BinaryOperator>(B->getTerminatorStmt()))
    while (const auto *BO = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts())) {
      if (!BO->isLogicalOp())
        break;
      E = BO->getRHS();
    }
  return E;
}

RankUniformity::RankUniformity(const FunctionDecl *FD, CFG &Cfg,
                               AnalysisContext &Ctx)
    : FD(FD), Ctx(Ctx) {
  // Reverse post-order, iteratively.
  std::vector<bool> Seen(Cfg.getNumBlockIDs(), false);
  std::vector<std::pair<const CFGBlock *, CFGBlock::const_succ_iterator>> Stack;
  std::vector<const CFGBlock *> Post;
  const CFGBlock *Entry = &Cfg.getEntry();
  Seen[Entry->getBlockID()] = true;
  Stack.push_back({Entry, Entry->succ_begin()});
  while (!Stack.empty()) {
    auto &[Block, It] = Stack.back();
    if (It == Block->succ_end()) {
      Post.push_back(Block);
      Stack.pop_back();
      continue;
    }
    const CFGBlock *Succ = *It;
    ++It;
    if (Succ && !Seen[Succ->getBlockID()]) {
      Seen[Succ->getBlockID()] = true;
      Stack.push_back({Succ, Succ->succ_begin()});
    }
  }
  RPO.assign(Post.rbegin(), Post.rend());
  Out.resize(Cfg.getNumBlockIDs());
  for (const CFGBlock *B : RPO)
    for (const CFGElement &Elem : *B)
      if (auto S = Elem.getAs<CFGStmt>())
        if (const auto *DS = dyn_cast<DeclStmt>(S->getStmt()))
          for (const Decl *D : DS->decls())
            if (const auto *VD = dyn_cast<VarDecl>(D)) {
              DeclBlocks.try_emplace(VD, B);
              if (VD->getInit())
                collectAliases(VD, VD->getInit());
            }
  Visited.assign(Cfg.getNumBlockIDs(), false);
}

void RankUniformity::collectAliases(const VarDecl *Container, const Stmt *S) {
  if (!S)
    return;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S)) {
    const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
    if (Var && Var != Container && Var->hasLocalStorage() &&
        Var->getType()->isRecordType())
      Aliases[Container].push_back(Var);
    return;
  }
  if (isa<CallExpr>(S) && !isa<CXXOperatorCallExpr>(S))
    return; // A call makes new tensors.
  for (const Stmt *Child : S->children())
    collectAliases(Container, Child);
}

/// The variable or field that \p S, one element of a block, writes: an
/// assignment, `++`/`--`, a container update, a communicator split.
static const ValueDecl *assignedBy(const Stmt *S, AnalysisContext &Ctx) {
  bool Exact;
  if (const auto *BO = dyn_cast<BinaryOperator>(S))
    return BO->isAssignmentOp() ? targetDecl(BO->getLHS(), Exact) : nullptr;
  if (const auto *UO = dyn_cast<UnaryOperator>(S))
    return UO->isIncrementDecrementOp() ? targetDecl(UO->getSubExpr(), Exact)
                                        : nullptr;
  if (const auto *OCE = dyn_cast<CXXOperatorCallExpr>(S)) {
    OverloadedOperatorKind K = OCE->getOperator();
    if ((OCE->isAssignmentOp() || K == OO_PlusPlus || K == OO_MinusMinus) &&
        OCE->getNumArgs() > 0)
      return targetDecl(OCE->getArg(0), Exact);
    return nullptr;
  }
  const auto *Call = dyn_cast<CallExpr>(S);
  if (!Call || Ctx.Catalogue.classify(Call))
    return nullptr;
  if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(Call)) {
    const CXXMethodDecl *MD = MCE->getMethodDecl();
    if (MD && !MD->isConst() && isContainerUpdate(MD))
      return targetDecl(MCE->getImplicitObjectArgument(), Exact);
    return nullptr;
  }
  if (const FunctionDecl *Callee = Call->getDirectCallee())
    if (Callee->getDeclName().isIdentifier() &&
        (Callee->getName() == "MPI_Comm_split" ||
         Callee->getName() == "ncclCommSplit") &&
        Call->getNumArgs() > 3)
      return targetDecl(Call->getArg(3), Exact);
  return nullptr;
}

void RankUniformity::collectAssigned(const ControlDivergence &Control) {
  Assigned.clear();
  // The region of each branch, in reverse post-order.
  llvm::DenseMap<const CFGBlock *, std::vector<const CFGBlock *>> Regions;
  for (const CFGBlock *B : RPO) {
    auto It = Control.find(B);
    if (It != Control.end())
      for (const ControllingBranch &Branch : It->second)
        Regions[Branch.Branch].push_back(B);
  }
  for (auto &[Branch, Blocks] : Regions) {
    auto InRegion = [&, Branch = Branch](const CFGBlock *X) {
      auto It = Control.find(X);
      return It != Control.end() &&
             llvm::any_of(It->second, [&](const ControllingBranch &C) {
               return C.Branch == Branch;
             });
    };
    llvm::DenseSet<const ValueDecl *> Seen;
    std::vector<Assignment> &List = Assigned[Branch];
    for (const CFGBlock *X : Blocks)
      for (const CFGElement &Elem : *X) {
        auto S = Elem.getAs<CFGStmt>();
        const ValueDecl *Target = S ? assignedBy(S->getStmt(), Ctx) : nullptr;
        if (!Target || !Seen.insert(Target).second)
          continue;
        // A variable declared inside the region only exists on one side.
        if (const auto *VD = dyn_cast<VarDecl>(Target)) {
          auto Decl = DeclBlocks.find(VD);
          if (Decl != DeclBlocks.end() && InRegion(Decl->second))
            continue;
        }
        List.push_back({Target, S->getStmt()});
      }
  }
}

void RankUniformity::applyJoins(
    DivergenceState &State,
    llvm::ArrayRef<ControllingBranch> Branches) const {
  Evaluator Eval(Ctx, State);
  for (const ControllingBranch &Branch : Branches) {
    auto It = Assigned.find(Branch.Branch);
    if (It == Assigned.end())
      continue;
    for (const Assignment &A : It->second) {
      // Synchronised on every way into the join after its last assignment
      // (both sides broadcast it): the same on every rank.
      auto Now = State.find(A.Target);
      if (Now != State.end() && Now->second == Synced)
        continue;
      if (Eval.declDivergence(A.Target))
        continue;
      const Origin *Why = Ctx.origin(Branch.Branch, A.Target,
                                     A.Anchor->getBeginLoc(), [&] {
        return fmt::format("'{}' is assigned under a rank-dependent "
                           "condition here",
                           declName(A.Target));
      }, Branch.Why, /*FromControl=*/true);
      State[A.Target] = Why;
      const auto *VD = dyn_cast<VarDecl>(A.Target);
      if (!VD || !VD->hasLocalStorage())
        Ctx.Facts.addDecl(A.Target, Why);
    }
  }
}

uint64_t RankUniformity::run(const ControlDivergence &Control,
                             const JoinPoints &Joins) {
  constexpr unsigned MaxPasses = 24;
  uint64_t Transfers = 0;
  collectAssigned(Control);
  for (DivergenceState &S : Out)
    S.clear();
  Visited.assign(Visited.size(), false);
  for (unsigned Pass = 0; Pass < MaxPasses; ++Pass) {
    bool Changed = false;
    Transfers += RPO.size();
    for (const CFGBlock *B : RPO) {
      DivergenceState State;
      bool First = true;
      for (const CFGBlock *Pred : B->preds()) {
        if (!Pred || !Visited[Pred->getBlockID()])
          continue;
        joinInto(State, Out[Pred->getBlockID()], First);
        First = false;
      }
      auto Controlled = Control.find(B);
      auto Joined = Joins.find(B);
      if (Joined != Joins.end())
        applyJoins(State, Joined->second);
      Transfer T(Ctx, FD, State,
                 Controlled == Control.end() ? nullptr : &Controlled->second,
                 Aliases);
      for (const CFGElement &Elem : *B)
        T.element(Elem);
      unsigned Id = B->getBlockID();
      if (!Visited[Id] || State != Out[Id]) {
        Out[Id] = std::move(State);
        Visited[Id] = true;
        Changed = true;
      }
    }
    if (!Changed)
      break;
  }
  Branches.clear();
  for (const CFGBlock *B : RPO) {
    const Expr *Cond = branchCondition(B);
    if (!Cond || B->succ_size() < 2)
      continue;
    Evaluator Eval(Ctx, Out[B->getBlockID()]);
    if (const Origin *O = Eval.eval(Cond))
      Branches[B] = O;
  }
  return Transfers;
}

bool isWorldSizeName(llvm::StringRef Name) {
  std::string Lower = Name.lower();
  llvm::StringRef L(Lower);
  L.consume_front("m_");
  L.consume_back("_");
  return L == "world_size" || L == "worldsize" || L == "world" ||
         L == "size" || L == "nranks" || L == "n_ranks" || L == "num_ranks" ||
         L == "numranks" || L == "nprocs" || L == "num_procs" ||
         L == "numprocs" || L == "num_replicas" || L == "num_processes" ||
         L == "nproc" || L == "npes" || L == "comm_size";
}


} // namespace ddp
