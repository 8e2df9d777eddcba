//===--- RankUniformity.cpp - Which values and branches depend on the rank ===//

#include "core/RankUniformity.h"
#include "core/BrokenCode.h"
#include "core/ClassHierarchy.h"
#include "core/CommunicatorMembership.h"
#include "core/DataLoading.h"
#include "core/FailurePaths.h"
#include "core/FreshAllocations.h"
#include "core/LoopBody.h"
#include "core/PublishedValues.h"
#include "core/TensorLists.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
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
  KeyEnvInput,
  KeyEnvArg,
  KeyEnvPass,
};

/// The state of a variable that a collective made the same on every rank
/// (the buffer of an allreduce or broadcast): uniform, and synchronised.
const Dep Synced(synchronised());

bool isSynced(const Dep &D) { return D.Why == synchronised(); }

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
    // A pointer into the same block: `(char *)buf` and `buf + offset`, as a
    // helper that sends a buffer in chunks passes it.
    // Not into an opaque handle: `(MPI_Datatype)&ompi_mpi_char` names a
    // library's constant, not a buffer.
    if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E)) {
      if (!Cast->getType()->isPointerType() ||
          !Cast->getSubExpr()->getType()->isPointerType() ||
          (!Cast->getType()->isVoidPointerType() &&
           Cast->getType()->getPointeeType()->isIncompleteType()))
        return nullptr;
      E = Cast->getSubExpr();
      continue;
    }
    if (const auto *Offset = dyn_cast<BinaryOperator>(E)) {
      if (!Offset->isAdditiveOp() || !Offset->getType()->isPointerType())
        return nullptr;
      Exact = false;
      E = Offset->getLHS()->getType()->isPointerType() ? Offset->getLHS()
                                                       : Offset->getRHS();
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
    // The elements of a container, through the pointer to its storage
    // (`MPI_Allreduce(MPI_IN_PLACE, bits.data(), ...)`).
    if (const auto *Data = dyn_cast<CXXMemberCallExpr>(E)) {
      const CXXMethodDecl *MD = Data->getMethodDecl();
      if (MD && MD->getDeclName().isIdentifier() && MD->getName() == "data" &&
          MD->getNumParams() == 0 && MD->getReturnType()->isPointerType()) {
        Exact = false;
        E = Data->getImplicitObjectArgument();
        continue;
      }
    }
    return nullptr;
  }
  return nullptr;
}

/// std::vector, std::array, std::deque, std::basic_string, std::valarray.
static bool isStdSequence(const CXXRecordDecl *RD) {
  if (!RD || !RD->isInStdNamespace() || !RD->getIdentifier())
    return false;
  llvm::StringRef Name = RD->getName();
  return Name == "vector" || Name == "array" || Name == "deque" ||
         Name == "basic_string" || Name == "valarray";
}

/// at::Tensor or at::TensorBase (LibTorch's tensors).
static bool isTensorRecord(const CXXRecordDecl *RD) {
  if (!RD || !RD->getIdentifier() ||
      (RD->getName() != "Tensor" && RD->getName() != "TensorBase"))
    return false;
  const auto *NS = dyn_cast<NamespaceDecl>(RD->getDeclContext());
  return NS && NS->getIdentifier() && NS->getName() == "at";
}

static bool isTensorType(QualType T) {
  return isTensorRecord(T.getNonReferenceType()->getAsCXXRecordDecl());
}

/// A tensor's method that reads its extent, not its values: whether it is
/// defined, its shape, type and device.
static bool isExtentQuery(const FunctionDecl *FD) {
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD);
  if (!MD || !MD->getDeclName().isIdentifier() ||
      !isTensorRecord(MD->getParent()))
    return false;
  return llvm::StringSwitch<bool>(MD->getName())
      .Cases("numel", "size", "sizes", "dim", "ndimension", "defined", true)
      .Cases("dtype", "scalar_type", "device", "get_device", "is_cuda", true)
      .Cases("is_cpu", "layout", "options", "nbytes", "itemsize", true)
      .Cases("element_size", "is_contiguous", "stride", "strides", true)
      .Default(false);
}

/// Whether \p LHS is an element of a sequence container (`v[i]`,
/// `v.at(i)` on a std::vector, std::array, std::deque or string): writing
/// it leaves the container's length alone. (`m[k]` on a map inserts.)
bool isSequenceElement(const Expr *LHS) {
  if (!LHS)
    return false;
  LHS = LHS->IgnoreParenImpCasts();
  const Expr *Container = nullptr;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(LHS)) {
    if (Op->getOperator() == OO_Subscript && Op->getNumArgs() == 2)
      Container = Op->getArg(0);
  } else if (const auto *Member = dyn_cast<CXXMemberCallExpr>(LHS)) {
    const CXXMethodDecl *MD = Member->getMethodDecl();
    if (MD && MD->getDeclName().isIdentifier() && MD->getName() == "at")
      Container = Member->getImplicitObjectArgument();
  }
  if (!Container)
    return false;
  return isStdSequence(
      Container->getType().getNonReferenceType()->getAsCXXRecordDecl());
}

/// The variable a buffer expression is part of: `info` for `info[8]`,
/// `&s.n` and `*info`; null for anything else.
const ValueDecl *bufferRoot(const Expr *E) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return isa<VarDecl>(DRE->getDecl()) ? DRE->getDecl() : nullptr;
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      E = ME->isArrow() ? nullptr : ME->getBase();
    else if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
      E = ASE->getBase();
    else if (const auto *UO = dyn_cast<UnaryOperator>(E))
      E = UO->getOpcode() == UO_Deref || UO->getOpcode() == UO_AddrOf
              ? UO->getSubExpr()
              : nullptr;
    else
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

/// The semantic form of an initialiser list.
const InitListExpr *semantic(const InitListExpr *ILE) {
  if (ILE->isSyntacticForm() && ILE->getSemanticForm())
    return ILE->getSemanticForm();
  return ILE;
}

/// True for the initialiser list of a struct or class (not of an array,
/// not a transparent copy `S{other}`).
bool isFieldwise(const Expr *E) {
  const auto *ILE = dyn_cast<InitListExpr>(E);
  if (!ILE)
    return false;
  ILE = semantic(ILE);
  return ILE->getType()->isRecordType() && !ILE->isTransparent();
}

/// Calls \p Fn with each field an aggregate initialiser initialises, and
/// its initialiser.
void forEachFieldInit(
    const InitListExpr *ILE,
    llvm::function_ref<void(const FieldDecl *, const Expr *)> Fn) {
  ILE = semantic(ILE);
  const RecordDecl *RD = ILE->getType()->getAsRecordDecl();
  if (!RD)
    return;
  if (RD->isUnion()) {
    if (const FieldDecl *F = ILE->getInitializedFieldInUnion())
      if (ILE->getNumInits() > 0)
        Fn(F, ILE->getInit(0));
    return;
  }
  unsigned I = 0;
  if (const auto *CRD = dyn_cast<CXXRecordDecl>(RD))
    if (CRD->hasDefinition())
      I = CRD->getNumBases();
  for (const FieldDecl *F : RD->fields()) {
    if (I >= ILE->getNumInits())
      break;
    const Expr *Init = ILE->getInit(I++);
    if (F->isUnnamedBitField() || isa<ImplicitValueInitExpr>(Init))
      continue;
    Fn(F, Init);
  }
}

/// True for a class that is about distributed work (see declDivergence).
bool isDistributedClass(const RecordDecl *RD) {
  if (!RD)
    return false;
  // A communication library's own classes: gloo::Context::rank.
  const NamespaceDecl *NS = nullptr;
  for (const DeclContext *DC = RD->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *Enclosing = dyn_cast<NamespaceDecl>(DC))
      NS = Enclosing;
  if (NS)
    if (NS->getDeclName().isIdentifier() &&
        (NS->getName() == "gloo" || NS->getName() == "c10d"))
      return true;
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
  Evaluator(AnalysisContext &Ctx, const FunctionDecl *FD,
            const DivergenceState &State,
            llvm::DenseMap<const ValueDecl *, Dep> &Fallbacks)
      : Ctx(Ctx), FD(FD), State(State), Fallbacks(Fallbacks) {}

  Dep eval(const Expr *E);
  /// What \p D holds here: its state, else what it falls back to.
  Dep declDivergence(const ValueDecl *D);
  /// What \p D holds where no state says: a fact of the TU, the placeholder
  /// of a parameter of this function, or a rank by its name.
  Dep fallback(const ValueDecl *D);
  /// True if \p E names a buffer a collective made the same on every rank.
  bool isSynchronised(const Expr *E) {
    bool Exact;
    const ValueDecl *D = targetDecl(E, Exact);
    auto It = D ? State.find(D) : State.end();
    return It != State.end() && isSynced(It->second);
  }
  bool isWorldSize(const Expr *E);
  /// What \p E is as a string: a rank variable's name, or one of this
  /// function's parameters.
  ArgKey keyOf(const Expr *E, unsigned Depth = 0);
  /// \p D, a dependence of \p Callee's summary, at a call that passes
  /// \p Args: its inputs replaced by what the arguments depend on here.
  Dep instantiate(const Dep &D, const Expr *Call, const FunctionDecl *Callee,
                  llvm::ArrayRef<const Expr *> Args);

private:
  Dep call(const CallExpr *Call);
  /// A call that did not compile, matched by name (UnresolvedCalls).
  Dep unresolved(const Expr *Call, const UnresolvedCall &Match);
  Dep localData(const CallExpr *Call);
  /// A ChunkDataset whose chunk sampler splits the chunks by rank: ranks
  /// read different chunks, which can differ in size.
  Dep chunkShare(const Expr *Dataset);
  Dep comparison(const BinaryOperator *BO);
  Dep anyChild(const Stmt *S);
  /// \p O joined with what \p Args give an object or value of type
  /// \p Result built from them (see isPlacementOnly).
  Dep arguments(Dep O, llvm::ArrayRef<const Expr *> Args, QualType Result);
  Dep nameHeuristic(const ValueDecl *D);

  AnalysisContext &Ctx;
  const FunctionDecl *FD;
  const DivergenceState &State;
  llvm::DenseMap<const ValueDecl *, Dep> &Fallbacks;
};

/// The arguments of \p Call that go to the callee's parameters (without the
/// object of a member operator).
llvm::SmallVector<const Expr *, 4> parameterArgs(const CallExpr *Call,
                                                 const FunctionDecl *Callee) {
  llvm::SmallVector<const Expr *, 4> Args;
  unsigned Offset =
      isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(Callee) ? 1 : 0;
  for (unsigned I = Offset; I < Call->getNumArgs(); ++I)
    Args.push_back(Call->getArg(I));
  return Args;
}

llvm::SmallVector<const Expr *, 4> parameterArgs(const CXXConstructExpr *C) {
  llvm::SmallVector<const Expr *, 4> Args;
  for (const Expr *Arg : C->arguments())
    Args.push_back(Arg);
  return Args;
}

/// The declaration whose parameters a summary of \p FD speaks of: the
/// definition this TU analyses, or (for the whole-program driver) the first
/// declaration of a user function whose body is in another TU. Null for
/// anything else (a library function).
const FunctionDecl *withSummary(const FunctionDecl *FD, AnalysisContext &Ctx) {
  if (!FD)
    return nullptr;
  const FunctionDecl *Def = FD->getDefinition();
  if (Def && Ctx.isAnalysable(Def))
    return Def;
  if (Ctx.isExternalUserFunction(FD))
    return FD->getCanonicalDecl();
  return nullptr;
}

/// A virtual call of a pure method that the TU has no summary of: the
/// method, and what its overrides do together (null while unknown).
struct Dispatch {
  const CXXMethodDecl *Method = nullptr;
  const DepSummary *Summary = nullptr;
};
Dispatch dispatchOf(const CallExpr *Call, AnalysisContext &Ctx) {
  const CXXMethodDecl *Method = dispatchedMethod(Call);
  if (!Method || !Method->isPureVirtual() || withSummary(Method, Ctx))
    return {};
  const DepSummary *Summary = Ctx.dispatchSummary(Method);
  return Summary ? Dispatch{Method, Summary} : Dispatch();
}

/// True if a container that holds \p D has the same length on every rank
/// (for every caller): nothing in it depends on the rank, or only its
/// elements do.
static bool lengthUniform(const Dep &D) {
  return !D.any() || (D.Why && D.Why->ElementsOnly);
}

/// True if only the elements of the container or tensor \p D describes
/// depend on the rank: its origin says so, or it is a parameter as it came
/// in and every call that passes it a rank-dependent argument passes such a
/// container (TranslationUnitAnalysis::resolveInputs).
static bool onlyElementsVary(const Dep &D, AnalysisContext &Ctx) {
  if (!D.Why)
    return false;
  if (D.Why->ElementsOnly)
    return true;
  if (!D.conditional() || D.EnvKeys || !D.Why->Input || D.Why->EnvInput)
    return false;
  const ParmVarDecl *Param = D.Why->Input;
  if (D.Params != inputBit(Param->getFunctionScopeIndex()))
    return false;
  const Origin *Actual = Ctx.Facts.actual(Param, false);
  return Actual && Actual->ElementsOnly;
}

/// True if a container that held \p Before, given the element \p Value,
/// holds rank-dependent elements only. A divergent element over a length
/// some callers make rank-dependent gives that up, as the join does (it
/// keeps the divergent value); a conditional one keeps it, with the inputs
/// the length depends on.
static bool keepsLength(const Dep &Before, const Dep &Value) {
  return lengthUniform(Before) || (!Before.divergent() && Value.divergent());
}

/// True if \p F takes an iterator range first (`assign(first, last)`,
/// `vector(first, last)`): its first two parameters have one type.
static bool takesRange(const FunctionDecl *F) {
  return F->getNumParams() >= 2 &&
         F->getParamDecl(0)->getType() == F->getParamDecl(1)->getType();
}

/// True if argument \p I of the container update \p Call says how many
/// elements it adds or leaves: the count of `resize(n)`, `assign(n, v)` and
/// `insert(pos, n, v)`, an iterator range, or what a string appends.
static bool isLengthArgument(const CXXMemberCallExpr *Call, unsigned I) {
  const CXXMethodDecl *MD = Call->getMethodDecl();
  llvm::StringRef Name = MD->getName();
  const CXXRecordDecl *RD = MD->getParent();
  if (RD->isInStdNamespace() && RD->getIdentifier() &&
      RD->getName() == "basic_string")
    return Name != "push_back";
  if (Name == "resize" || Name == "append")
    return I == 0;
  if (Name == "assign")
    return I == 0 || (I == 1 && takesRange(MD));
  if (Name == "insert") {
    // insert(pos, n, v), insert(pos, first, last); insert(first, last).
    unsigned N = Call->getNumArgs();
    return N == 3 ? I >= 1
                  : N == 2 && MD->getNumParams() == 2 && takesRange(MD);
  }
  return false;
}

} // namespace

/// True if \p Value is a container as a whole, as a copy or a return takes
/// it: a variable or field (`copy = mine`, `return out;`), moved or copied,
/// or the result of a function whose summary is known (which says whether
/// only the elements of what it returns depend on the rank). Not a library
/// call's result, whose length may come from anything it is given.
bool isWholeContainer(const Expr *Value, AnalysisContext &Ctx) {
  for (unsigned Depth = 0; Value && Depth < 8; ++Depth) {
    Value = Value->IgnoreImplicit()->IgnoreParens();
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(Value)) {
      if (Construct->getNumArgs() != 1 ||
          !Construct->getConstructor()->isCopyOrMoveConstructor())
        return false;
      Value = Construct->getArg(0);
      continue;
    }
    if (const auto *Call = dyn_cast<CallExpr>(Value)) {
      if (isStdMove(Call) && Call->getNumArgs() == 1) {
        Value = Call->getArg(0);
        continue;
      }
      const FunctionDecl *Def = withSummary(Call->getDirectCallee(), Ctx);
      return (Def && Ctx.Facts.summary(Def)) || dispatchOf(Call, Ctx).Summary;
    }
    return isa<DeclRefExpr, MemberExpr>(Value);
  }
  return false;
}

namespace {

Dep Evaluator::nameHeuristic(const ValueDecl *D) {
  bool NotVisible = isa<ParmVarDecl>(D) || isa<FieldDecl>(D);
  // Every call of a function with internal linkage (static, anonymous
  // namespace, lambda) is in this TU, and the arguments they pass are
  // analysed: the parameter's name adds nothing.
  if (const auto *Param = dyn_cast<ParmVarDecl>(D))
    if (const auto *Fn =
            dyn_cast_or_null<FunctionDecl>(Param->getDeclContext())) {
      const auto *Method = dyn_cast<CXXMethodDecl>(Fn);
      // So is one that the TU only calls directly: the calls it sees say
      // what the parameter holds (CallSites.h).
      if (!Fn->isExternallyVisible() ||
          (Method && Method->getParent()->isLambda()) ||
          Ctx.onlyCalledDirectly(Fn))
        NotVisible = false;
    }
  if (const auto *VD = dyn_cast<VarDecl>(D))
    NotVisible |= VD->hasGlobalStorage() && !VD->isStaticLocal();
  if (!NotVisible || !D->getDeclName().isIdentifier() ||
      !Ctx.isRankName(D->getName()))
    return Dep();
  // A field is a process rank only in a class about distributed work: one
  // that also holds a world size or a process group, or is named so
  // (`DistributedContext`, `Trainer`). A LoRA config's `rank` is not.
  if (const auto *Field = dyn_cast<FieldDecl>(D))
    if (!isDistributedClass(Field->getParent()))
      return Dep();
  if (const auto *VD = dyn_cast<VarDecl>(D))
    if (VD->getType().isConstQualified() && VD->getInit() &&
        isEvaluatable(VD->getInit(), Ctx.AST))
      return Dep();
  return Dep(Ctx.origin(
      D, key(KeyName), D->getLocation(),
      [&] {
        return fmt::format(
            "'{}' is taken to hold the rank because of its name; "
            "its value is set outside the code analysed",
            declName(D));
      },
      nullptr, false, /*ExactRank=*/true));
}

Dep Evaluator::fallback(const ValueDecl *D) {
  auto [It, New] = Fallbacks.try_emplace(D);
  if (!New)
    return It->second;
  Dep Result;
  if (const Origin *Known = Ctx.Facts.decl(D)) {
    Result = Dep(Known);
  } else if (!(FD && FD->isImplicit() && isa<FieldDecl>(D))) {
    // A compiler-generated copy or move copies each field into itself: what
    // a field holds is found where the program writes or reads it.
    Result = nameHeuristic(D);
    // A parameter of this function holds what the caller passes: that, when
    // its name says nothing, or when a call is seen to pass it the rank
    // (whose explanation then beats the name's).
    if (const auto *Param = dyn_cast<ParmVarDecl>(D))
      if (FD && Param->getDeclContext() == FD &&
          (!Result.any() || Ctx.Facts.actual(Param, false)))
        Result = Dep(Ctx.placeholder(Param, false),
                     inputBit(Param->getFunctionScopeIndex()), 0);
  }
  Fallbacks[D] = Result;
  return Result;
}

Dep Evaluator::declDivergence(const ValueDecl *D) {
  if (!D)
    return Dep();
  auto It = State.find(D);
  if (It != State.end())
    return isSynced(It->second) ? Dep() : It->second;
  return fallback(D);
}

ArgKey Evaluator::keyOf(const Expr *E, unsigned Depth) {
  ArgKey Key;
  while (E && Depth++ < 8) {
    E = E->IgnoreParenImpCasts();
    if (const auto *Lit = dyn_cast<StringLiteral>(E)) {
      if (Ctx.isRankEnvVar(Lit->getString()))
        Key.K = ArgKey::RankVariable;
      return Key;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      if (const auto *Param = dyn_cast<ParmVarDecl>(DRE->getDecl())) {
        if (FD && Param->getDeclContext() == FD) {
          Key.K = ArgKey::Input;
          Key.Index = Param->getFunctionScopeIndex();
        }
        return Key;
      }
      // `const char *key = "RANK";`
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (VD && VD->getType().isConstQualified() && VD->getInit())
        return keyOf(VD->getInit(), Depth);
      if (VD && VD->getType()->isPointerType() &&
          VD->getType()->getPointeeType().isConstQualified() && VD->getInit() &&
          !VD->hasGlobalStorage())
        return keyOf(VD->getInit(), Depth);
      return Key;
    }
    // key.c_str(), std::string(key)
    if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(E)) {
      const CXXMethodDecl *MD = MCE->getMethodDecl();
      if (MD && MD->getDeclName().isIdentifier() &&
          (MD->getName() == "c_str" || MD->getName() == "data")) {
        E = MCE->getImplicitObjectArgument();
        continue;
      }
      return Key;
    }
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
      if (Construct->getNumArgs() == 0)
        return Key;
      E = Construct->getArg(0);
      continue;
    }
    if (const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(E)) {
      E = Bind->getSubExpr();
      continue;
    }
    if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(E)) {
      E = MTE->getSubExpr();
      continue;
    }
    if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(E)) {
      E = Cleanups->getSubExpr();
      continue;
    }
    return Key;
  }
  return Key;
}

Dep Evaluator::instantiate(const Dep &D, const Expr *Call,
                           const FunctionDecl *Callee,
                           llvm::ArrayRef<const Expr *> Args) {
  if (D.divergent() || !D.any())
    return D.divergent() ? D : Dep();
  const Origin *Root = AnalysisContext::rootOf(D.Why);
  Dep Result;
  // The names of environment variables first: where a helper's result is
  // either what getenv read or a fallback argument, the read is what a
  // caller's explanation should go through.
  for (bool Env : {true, false}) {
    uint64_t Mask = Env ? D.EnvKeys : D.Params;
    for (unsigned I = 0; Mask && I < Callee->getNumParams() && I < Args.size();
         ++I) {
      if (!(Mask & inputBit(I)))
        continue;
      const ParmVarDecl *Param = Callee->getParamDecl(I);
      const Expr *Arg = Args[I];
      // What the caller passes for that input, explained.
      Dep In;
      if (!Env) {
        Dep A = eval(Arg);
        if (!A.any())
          continue;
        const Origin *Receives = Ctx.origin(
            Call, Param, Arg->getBeginLoc(),
            [&] {
              return fmt::format("'{}' receives a rank-dependent argument here",
                                 declName(Param));
            },
            A.Why);
        In = A.explainedBy(Receives);
      } else {
        ArgKey K = keyOf(Arg);
        if (K.K == ArgKey::RankVariable) {
          In = Dep(Ctx.origin(
              Arg, key(KeyEnvArg), Arg->getBeginLoc(),
              [&] {
                return fmt::format("'{}' is given '{}', the name of a variable "
                                   "that holds the rank, here",
                                   declName(Param), Ctx.text(Arg));
              },
              nullptr, false, /*ExactRank=*/true));
        } else if (K.K == ArgKey::Input && FD && K.Index < FD->getNumParams()) {
          const ParmVarDecl *Own = FD->getParamDecl(K.Index);
          In = Dep(Ctx.origin(
                       Arg, key(KeyEnvPass), Arg->getBeginLoc(),
                       [&] {
                         return fmt::format(
                             "'{}' is given the name in '{}' here",
                             declName(Param), declName(Own));
                       },
                       Ctx.placeholder(Own, true)),
                   0, inputBit(K.Index));
        } else {
          continue;
        }
      }
      // The callee's own explanation, down to this input, then the caller's.
      const Origin *Why =
          Root && Root->Input == Param && Root->EnvInput == Env
              ? Ctx.substitute(D.Why, In.Why)
              : (D.Why == Root ? In.Why : Ctx.relink(D.Why, In.Why));
      Result = join(Result, In.explainedBy(Why));
      if (Result.divergent() && !Result.Why->FromControl)
        return Result;
    }
  }
  return Result;
}

bool Evaluator::isWorldSize(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (isa<CallExpr, RecoveryExpr>(E)) {
    const auto *Call = dyn_cast<CallExpr>(E);
    const CatalogueEntry *Entry = Call ? Ctx.Catalogue.classify(Call) : nullptr;
    if (!Entry && (!Call || !Call->getDirectCallee()))
      if (const UnresolvedCall *Match = Ctx.Unresolved.match(E, Ctx))
        Entry = Match->Entry;
    return Entry && Entry->Role == CallRole::UniformSource;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (eval(DRE).divergent())
      return false;
    // `int n = pg->getSize();`
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (VD->getInit() && isa<CallExpr>(VD->getInit()->IgnoreParenImpCasts()) &&
          isWorldSize(VD->getInit()))
        return true;
    if (Ctx.Facts.isWorldSize(DRE->getDecl()))
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
           !eval(ME).divergent();
  }
  return false;
}

/// True if \p E is a rank on its own (not arithmetic on it).
static bool isPlainValue(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  return isa<DeclRefExpr>(E) || isa<MemberExpr>(E) || isa<CallExpr>(E);
}

/// Whether a null test of \p Ptr, which depends on the rank by \p D, only
/// asks whether a launcher set its rank variable (`getenv("LOCAL_RANK")`,
/// or a variable holding it): the launcher sets its variables for every rank
/// or for none, so the answer is the same on every rank; only the text
/// differs.
static bool isPresenceTest(const Expr *Ptr, const Dep &D) {
  return D.divergent() && D.Why->ExactRank && isPlainValue(Ptr) &&
         Ptr->IgnoreParenImpCasts()->getType()->isPointerType();
}

/// Comparisons that have the same outcome on every rank because
/// 0 <= rank < world_size: `rank < world_size`, `rank >= 0`, `rank < 0`.
Dep Evaluator::comparison(const BinaryOperator *BO) {
  const Expr *L = BO->getLHS()->IgnoreParenImpCasts();
  const Expr *R = BO->getRHS()->IgnoreParenImpCasts();
  Dep LD = eval(L);
  Dep RD = eval(R);
  if (!LD.any() && !RD.any())
    return Dep();
  // The rules below are about a rank on one side; with both sides
  // rank-dependent, or neither yet, the result depends on both.
  if (LD.divergent() == RD.divergent())
    return join(LD, RD);
  bool Left = LD.divergent();
  const Expr *Rank = Left ? L : R;
  const Expr *Other = Left ? R : L;
  const Dep &RankDep = Left ? LD : RD;
  const Dep &OtherDep = Left ? RD : LD;
  if (!isPlainValue(Rank) || !RankDep.Why->ExactRank)
    return RankDep;
  // Uniform as far as the rank goes: what remains is the other side's.
  if (isWorldSize(Other))
    return OtherDep;
  // rank <= world_size - 1 (always), rank > world_size - 1 (never); but
  // rank == world_size - 1 picks the last rank.
  BinaryOperatorKind Normalised =
      Left ? BO->getOpcode()
           : BinaryOperator::reverseComparisonOp(BO->getOpcode());
  if (const auto *Minus = dyn_cast<BinaryOperator>(Other))
    if ((Normalised == BO_LE || Normalised == BO_GT) &&
        Minus->getOpcode() == BO_Sub && isWorldSize(Minus->getLHS())) {
      std::optional<llvm::APSInt> One = evaluateInt(Minus->getRHS(), Ctx.AST);
      if (One && *One == 1)
        return OtherDep;
    }
  // `getenv("RANK") == NULL`: whether the launcher set it.
  if (BO->isEqualityOp() && isPresenceTest(Rank, RankDep) &&
      Other->isNullPointerConstant(Ctx.AST, Expr::NPC_ValueDependentIsNotNull))
    return Dep();
  // Normalised to `rank OP constant`.
  std::optional<llvm::APSInt> Constant = evaluateInt(Other, Ctx.AST);
  if (Constant && *Constant == 0 &&
      (Normalised == BO_GE || Normalised == BO_LT))
    return Dep();
  return RankDep;
}

Dep Evaluator::anyChild(const Stmt *S) {
  Dep Best;
  for (const Stmt *Child : S->children())
    if (const auto *E = dyn_cast_or_null<Expr>(Child)) {
      Best = join(Best, eval(E));
      if (Best.divergent() && !Best.Why->FromControl)
        return Best;
    }
  return Best;
}

/// True if \p T is, or refers to, a class named \p Name.
static bool isClassNamed(QualType T, llvm::StringRef Name) {
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  return RD && RD->getDeclName().isIdentifier() && RD->getName() == Name;
}

/// True if \p Arg only says where an object of type \p Result is placed: a
/// device handle (c10::Device, a framework's own Device) given for a tensor,
/// which holds what it would hold on any other device. A device, an index or
/// a string made from a device keep it.
static bool isPlacementOnly(const Expr *Arg, QualType Result) {
  return isClassNamed(Arg->getType(), "Device") &&
         Result.getNonReferenceType()->getAsCXXRecordDecl() &&
         !isClassNamed(Result, "Device") &&
         !isClassNamed(Result, "basic_string");
}

/// A device, or what a device says of itself (`device.type()`).
static bool isDeviceValue(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E);
      Construct && Construct->getNumArgs() == 1)
    E = Construct->getArg(0)->IgnoreParenImpCasts();
  if (isClassNamed(E->getType(), "Device"))
    return true;
  const auto *Member = dyn_cast<CXXMemberCallExpr>(E);
  return Member && Member->getImplicitObjectArgument() &&
         isClassNamed(Member->getImplicitObjectArgument()->getType(), "Device");
}

/// True if objects of \p RD know their device (a `Device` field or a method
/// returning one: a tensor, a buffer).
static bool knowsItsDevice(const CXXRecordDecl *RD) {
  if (!RD || !RD->hasDefinition())
    return false;
  RD = RD->getDefinition();
  if (RD->getDeclName().isIdentifier() && RD->getName() == "Device")
    return false;
  for (const FieldDecl *F : RD->fields())
    if (isClassNamed(F->getType(), "Device"))
      return true;
  for (const CXXMethodDecl *M : RD->methods())
    if (isClassNamed(M->getReturnType(), "Device"))
      return true;
  return false;
}

/// True if what \p Target holds describes data placed on a device: an
/// object that knows its device, or a field of one.
static bool describesPlacedData(const ValueDecl *Target) {
  if (const auto *Field = dyn_cast<FieldDecl>(Target))
    return knowsItsDevice(dyn_cast<CXXRecordDecl>(Field->getParent()));
  return holdsClass(Target->getType(), knowsItsDevice);
}

/// True if \p Cond compares a device with another or with a constant
/// (`device == buffer_device`, `device.type() == kCPU`): a test of where data
/// goes, whose sides place the same data on different devices.
static bool isPlacementTest(const Expr *Cond, ASTContext &AST) {
  if (!Cond)
    return false;
  Cond = Cond->IgnoreImplicit()->IgnoreParenImpCasts();
  const Expr *L = nullptr, *R = nullptr;
  if (const auto *BO = dyn_cast<BinaryOperator>(Cond);
      BO && BO->isEqualityOp()) {
    L = BO->getLHS();
    R = BO->getRHS();
  } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Cond);
             Op && Op->getNumArgs() == 2 &&
             (Op->getOperator() == OO_EqualEqual ||
              Op->getOperator() == OO_ExclaimEqual)) {
    L = Op->getArg(0);
    R = Op->getArg(1);
  } else if (const auto *Not = dyn_cast<UnaryOperator>(Cond);
             Not && Not->getOpcode() == UO_LNot) {
    return isPlacementTest(Not->getSubExpr(), AST);
  }
  if (!L || !R || L->containsErrors() || R->containsErrors())
    return false;
  auto Constant = [&](const Expr *E) {
    return !E->isValueDependent() && E->isEvaluatable(AST);
  };
  return (isDeviceValue(L) && (isDeviceValue(R) || Constant(R))) ||
         (isDeviceValue(R) && Constant(L));
}

Dep Evaluator::arguments(Dep O, llvm::ArrayRef<const Expr *> Args,
                         QualType Result) {
  for (const Expr *Arg : Args) {
    if (O.divergent() && !O.Why->FromControl)
      break;
    if (!isPlacementOnly(Arg, Result))
      O = join(O, eval(Arg));
  }
  return O;
}

Dep Evaluator::unresolved(const Expr *Call, const UnresolvedCall &Match) {
  // Results of communication calls and uniform sources are the same on
  // every rank; a rank source's out-parameter is set by Transfer.
  if (Match.Entry->Role != CallRole::RankSource || Match.Entry->Arg >= 0)
    return Dep();
  return Dep(Ctx.origin(
      Call, key(KeySource), Call->getBeginLoc(),
      [&] {
        return fmt::format("'{}' returns the rank of this process (matched by "
                           "name: the call did not compile)",
                           Ctx.text(Call));
      },
      nullptr, false, /*ExactRank=*/true));
}

Dep Evaluator::call(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD)
    if (const UnresolvedCall *Match = Ctx.Unresolved.match(Call, Ctx))
      return unresolved(Call, *Match);
  // The shape of a tensor whose values alone depend on the rank.
  if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(Call);
      MCE && isExtentQuery(FD) &&
      llvm::none_of(MCE->arguments(),
                    [&](const Expr *Arg) { return eval(Arg).any(); }))
    if (onlyElementsVary(eval(MCE->getImplicitObjectArgument()), Ctx))
      return Dep();
  if (isGetenv(FD)) {
    if (Call->getNumArgs() == 0)
      return Dep();
    ArgKey K = keyOf(Call->getArg(0));
    if (K.K == ArgKey::RankVariable)
      return Dep(Ctx.origin(
          Call, key(KeyEnv), Call->getBeginLoc(),
          [&] {
            return fmt::format("'{}' reads the rank from the environment",
                               Ctx.text(Call));
          },
          nullptr, false, /*ExactRank=*/true));
    // getenv(key) of a parameter: the rank where a caller passes a rank
    // variable's name.
    if (K.K == ArgKey::Input && this->FD &&
        K.Index < this->FD->getNumParams()) {
      const ParmVarDecl *Key = this->FD->getParamDecl(K.Index);
      return Dep(Ctx.origin(
                     Call, key(KeyEnvInput), Call->getBeginLoc(),
                     [&] {
                       return fmt::format("'{}' reads the environment variable "
                                          "that '{}' names",
                                          Ctx.text(Call), declName(Key));
                     },
                     Ctx.placeholder(Key, true), false, /*ExactRank=*/true),
                 0, inputBit(K.Index));
    }
    return Dep();
  }
  // How many batches a loader yields depends on its sampler, or on the
  // size of the dataset the default sampler is built over.
  if (data::isMakeDataLoader(FD)) {
    data::LoaderInputs In = data::loaderInputs(Call);
    Dep O = In.Count ? eval(In.Count) : Dep();
    if (!O.divergent() && In.Options)
      O = join(O, eval(In.Options));
    return O;
  }
  if (Dep O = chunkShare(Call); O.any())
    return O;
  if (const CatalogueEntry *Entry = Ctx.Catalogue.classify(FD)) {
    if (Entry->Role == CallRole::LocalData)
      return localData(Call);
    if (Entry->Role == CallRole::RankSource && Entry->Arg < 0) {
      // The process id differs between ranks but is not a rank: facts
      // such as rank < world_size do not hold for it.
      bool ProcessId = FD->getDeclName().isIdentifier() &&
                       FD->getName() == "getpid";
      return Dep(Ctx.origin(
          Call, key(KeySource), Call->getBeginLoc(),
          [&] {
            return fmt::format(ProcessId
                                   ? "'{}' is this process's id, different "
                                     "on every rank"
                                   : "'{}' returns the rank of this process",
                               Ctx.text(Call));
          },
          nullptr, false, /*ExactRank=*/!ProcessId));
    }
    // Results of communication calls and uniform sources are the same on
    // every rank (the Work handle, the world size); so is the status that a
    // source writing the rank through an out-parameter returns
    // (`ncclCommUserRank(comm, &rank)` is not the rank).
    if (Entry->Role != CallRole::RankSource || Entry->Arg >= 0)
      return Dep();
  }
  // A new block of memory: its address does not depend on its size.
  if (isAllocation(FD))
    return Dep();
  if (isRealloc(FD))
    return Call->getNumArgs() > 0 ? eval(Call->getArg(0)) : Dep();
  if (Dispatch D = dispatchOf(Call, Ctx); D.Summary)
    return D.Method->getReturnType()->isVoidType()
               ? Dep()
               : instantiate(D.Summary->Return, Call, D.Method,
                             parameterArgs(Call, D.Method));
  if (FD) {
    // A function whose body is analysed returns what its summary says, for
    // the arguments given here: `meanLoss(pg, local)` returns an allreduced,
    // uniform value, and `id(rank)` the rank.
    // The driver brings the summaries of other TUs' functions; until it
    // has one, the result is taken to depend on the arguments, as for a
    // library function.
    if (const FunctionDecl *Def = withSummary(FD, Ctx)) {
      if (Def->getReturnType()->isVoidType())
        return Dep();
      if (const DepSummary *S = Ctx.Facts.summary(Def))
        return instantiate(S->Return, Call, Def, parameterArgs(Call, Def));
      if (!Ctx.isExternalUserFunction(FD))
        return Dep();
    }
  }
  Dep O;
  if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(Call)) {
    O = eval(MCE->getImplicitObjectArgument());
    // The size of a container whose elements alone depend on the rank,
    // here or in what every call passes the parameter it still is.
    if (FD && FD->getDeclName().isIdentifier() &&
        (FD->getName() == "size" || FD->getName() == "empty" ||
         FD->getName() == "length") &&
        onlyElementsVary(O, Ctx))
      return Dep();
  }
  O = arguments(O, llvm::ArrayRef(Call->getArgs(), Call->getNumArgs()),
                Call->getType());
  // The driver corrects this guess with the callee's summary.
  if (O.any() && FD && Ctx.isExternalUserFunction(FD))
    Ctx.Facts.assumeReturn(FD);
  // localBatches(rank) depends on the rank but is not the rank: facts such
  // as rank >= 0 do not carry over. Conversions (atoi, stoi) keep it.
  if (O.Why && O.Why->ExactRank && !isConversion(FD)) {
    const Origin *Inexact = Ctx.origin(
        Call, key(KeyInexact), O.Why->Loc, [&] { return O.Why->Message; },
        O.Why->Cause, O.Why->FromControl, /*ExactRank=*/false,
        O.Why->LocalData);
    return O.explainedBy(Inexact);
  }
  return O;
}

/// What a call that reads rank-local data reads, for the explanation.
static std::string localDataMessage(const FunctionDecl *FD,
                                    const std::string &Text) {
  llvm::StringRef Name;
  if (const auto *Ctor = dyn_cast_or_null<CXXConstructorDecl>(FD)) {
    // A constructor by its class (`directory_iterator(dir)`).
    if (Ctor->getParent()->getDeclName().isIdentifier())
      Name = Ctor->getParent()->getName();
  } else if (FD && FD->getDeclName().isIdentifier()) {
    Name = FD->getName();
  }
  if (Name == "now" || Name == "time" || Name == "clock" ||
      Name == "gettimeofday" || Name == "clock_gettime")
    return fmt::format("'{}' reads this rank's clock", Text);
  if (Name == "exists" || Name == "is_regular_file" || Name == "is_directory" ||
      Name == "file_size" || Name == "access" || Name == "stat" ||
      Name == "is_open" || Name == "last_write_time")
    return fmt::format("'{}' looks at this rank's file system", Text);
  if (Name == "defined")
    return fmt::format("'{}' depends on which parameters this rank's forward "
                       "pass used",
                       Text);
  if (Name == "opendir" || Name == "fdopendir" || Name == "readdir" ||
      Name == "scandir" || Name == "glob" || Name == "is_empty" ||
      Name == "directory_iterator" || Name == "recursive_directory_iterator")
    return fmt::format("'{}' lists a directory of this rank's file system",
                       Text);
  return fmt::format("'{}' is computed from this rank's own data", Text);
}

Dep Evaluator::localData(const CallExpr *Call) {
  if (!Ctx.Opts.RankLocalData)
    return Dep();
  const auto *Member = dyn_cast<CXXMemberCallExpr>(Call);
  const Expr *Object = Member ? Member->getImplicitObjectArgument() : nullptr;
  if (Object && isSynchronised(Object))
    return Dep();
  if (Object)
    if (Dep O = eval(Object); O.divergent() && !O.Why->FromControl) {
      // A value read from a tensor whose values alone depend on the rank
      // is no container: its own link, unmarked.
      if (O.Why->ElementsOnly)
        return Dep(Ctx.origin(
            Call, key(KeyLocal), Call->getBeginLoc(),
            [&] {
              return fmt::format("'{}' reads the tensor's values",
                                 Ctx.text(Call));
            },
            O.Why));
      return O;
    }
  // Whether a tensor is defined is rank-local only for a gradient.
  if (const FunctionDecl *Callee = Call->getDirectCallee())
    if (Callee->getDeclName().isIdentifier() &&
        Callee->getName() == "defined" && !isGradient(Object))
      return Dep();
  // at::equal(a, b) of tensors that all went through a collective.
  if (!Object && Call->getNumArgs() > 0) {
    bool AllSynchronised = true, AnyTensor = false;
    for (const Expr *Arg : Call->arguments()) {
      if (!isTensorType(Arg->getType()))
        continue;
      AnyTensor = true;
      AllSynchronised &= isSynchronised(Arg);
    }
    if (AnyTensor && AllSynchronised)
      return Dep();
  }
  return Dep(Ctx.origin(
      Call, key(KeyLocal), Call->getBeginLoc(),
      [&] { return localDataMessage(Call->getDirectCallee(), Ctx.text(Call)); },
      nullptr, false, false, /*LocalData=*/true));
}

Dep Evaluator::chunkShare(const Expr *Dataset) {
  const Expr *SamplerArg = data::chunkSamplerArgument(Dataset);
  if (!SamplerArg)
    return Dep();
  const CXXConstructExpr *Sampler = data::constructionOf(SamplerArg);
  if (!Sampler ||
      !data::isDistributedSampler(Sampler->getConstructor()->getParent()) ||
      Sampler->getNumArgs() < 3 || isa<CXXDefaultArgExpr>(Sampler->getArg(2)))
    return Dep();
  Dep Rank = eval(Sampler->getArg(2));
  if (!Rank.any())
    return Dep();
  const Origin *Why = Ctx.origin(
      Dataset, key(KeyChunks), SamplerArg->getBeginLoc(),
      [&] {
        return fmt::format("each rank reads its own chunks through '{}', and "
                           "chunks can differ in size",
                           Ctx.text(SamplerArg));
      },
      Rank.Why);
  return Rank.explainedBy(Why);
}

Dep Evaluator::eval(const Expr *E) {
  if (!E)
    return Dep();
  // `if (env)` and `!env` on a launcher's rank variable: a null test.
  const Expr *Stripped = E->IgnoreParens();
  if (const auto *Not = dyn_cast<UnaryOperator>(Stripped);
      Not && Not->getOpcode() == UO_LNot)
    Stripped = Not->getSubExpr()->IgnoreParens();
  if (const auto *Cast = dyn_cast<ImplicitCastExpr>(Stripped);
      Cast && Cast->getCastKind() == CK_PointerToBoolean) {
    Dep O = eval(Cast->getSubExpr());
    return isPresenceTest(Cast->getSubExpr(), O) ? Dep() : O;
  }
  E = E->IgnoreParenImpCasts();
  // A process group is the same group on every rank, though built with the
  // rank (ProcessGroupGloo(store, rank, size, ...)).
  if (Ctx.isGroupType(E->getType()))
    return Dep();
  if (isa<IntegerLiteral, FloatingLiteral, StringLiteral, CharacterLiteral,
          CXXBoolLiteralExpr, CXXNullPtrLiteralExpr, CXXThisExpr, LambdaExpr,
          UnaryExprOrTypeTraitExpr, CXXDefaultArgExpr>(E))
    return Dep();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (isa<FunctionDecl, EnumConstantDecl>(DRE->getDecl()))
      return Dep();
    return declDivergence(DRE->getDecl());
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    Dep Member;
    if (isa<FieldDecl, VarDecl>(ME->getMemberDecl())) {
      Member = declDivergence(ME->getMemberDecl());
      if (Member.divergent())
        return Member;
    }
    if (isa<CXXMethodDecl>(ME->getMemberDecl()))
      return Dep();
    return join(Member, eval(ME->getBase()));
  }
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return call(Call);
  // `new double[n]` is a new block, whatever n is; what it is built from
  // decides what it holds.
  if (const auto *New = dyn_cast<CXXNewExpr>(E))
    return New->getInitializer() ? eval(New->getInitializer()) : Dep();
  if (const auto *Recovery = dyn_cast<RecoveryExpr>(E))
    if (const UnresolvedCall *Match = Ctx.Unresolved.match(Recovery, Ctx))
      return unresolved(Recovery, *Match);
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
    // Objects whose value is the same on every rank however they are built.
    const CatalogueEntry *Entry =
        Ctx.Catalogue.classify(Construct->getConstructor());
    if (Entry && Entry->Role == CallRole::UniformSource)
      return Dep();
    // std::random_device: whatever it draws differs between ranks; a
    // directory_iterator lists what this rank's file system holds.
    // (A copy or move carries its source's dependence.)
    if (Entry && Entry->Role == CallRole::LocalData &&
        !Construct->getConstructor()->isCopyOrMoveConstructor()) {
      const CXXRecordDecl *Class = Construct->getConstructor()->getParent();
      bool Random = Class->getDeclName().isIdentifier() &&
                    Class->getName() == "random_device";
      if (!Ctx.Opts.RankLocalData)
        return Dep();
      return Dep(Ctx.origin(
          Construct, key(KeyLocal), Construct->getBeginLoc(),
          [&] {
            return Random ? fmt::format("'{}' draws random numbers on this "
                                        "rank",
                                        Ctx.text(Construct))
                          : localDataMessage(Construct->getConstructor(),
                                             Ctx.text(Construct));
          },
          nullptr, false, false, /*LocalData=*/true));
    }
    // LibTorch's distributed samplers yield the same number of indices on
    // every rank given the same size: the rank only chooses which.
    if (data::isDistributedSampler(Construct->getConstructor()->getParent()))
      return Construct->getNumArgs() > 0 ? eval(Construct->getArg(0)) : Dep();
    if (Dep O = chunkShare(Construct); O.any())
      return O;
    // An object built by a constructor of the user's: what it stores goes
    // into its fields, as facts of their own (`Options o(rank, steps)`:
    // `o.rank_` depends on the rank, `o.steps_` does not). A copy is what it
    // copies.
    const CXXConstructorDecl *Ctor = Construct->getConstructor();
    if (!Ctor->isCopyOrMoveConstructor())
      if (const FunctionDecl *Def = Ctor->getDefinition())
        if (Ctx.isAnalysable(Def))
          return Dep();
    return arguments(Dep(), parameterArgs(Construct), Construct->getType());
  }
  // An aggregate's initialiser stores into its fields, as facts of their
  // own (see Transfer::fields): the object as a whole is not what makes
  // `args.steps` rank-dependent when `args.rank` is.
  if (isFieldwise(E))
    return Dep();
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isComparisonOp())
      return comparison(BO);
    if (BO->getOpcode() == BO_Assign)
      return eval(BO->getRHS());
    if (BO->getOpcode() == BO_Comma)
      return eval(BO->getRHS());
    Dep L = eval(BO->getLHS());
    if (L.divergent() && !L.Why->FromControl)
      return L;
    return join(L, eval(BO->getRHS()));
  }
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
    Dep O = eval(CO->getCond());
    for (const Expr *Arm : {CO->getTrueExpr(), CO->getFalseExpr()}) {
      if (O.divergent())
        return O;
      O = join(O, eval(Arm));
    }
    return O;
  }
  return anyChild(E);
}

/// The join of two states of one declaration: synchronised only on both
/// sides; known uniform on both; else the union of the dependences.
Dep joinValues(const Dep &A, const Dep &B) {
  if (isSynced(A) && isSynced(B))
    return Synced;
  Dep X = isSynced(A) ? Dep() : A;
  Dep Y = isSynced(B) ? Dep() : B;
  return join(X, Y);
}

/// Joins \p From into \p Into. A declaration that one side does not hold
/// takes what it falls back to there; it is left out of the result when the
/// join is just that.
void joinInto(DivergenceState &Into, const DivergenceState &From, bool First,
              Evaluator &Eval) {
  if (First) {
    Into = From;
    return;
  }
  // One scan of both, in their common order.
  DivergenceState Joined;
  Joined.reserve(std::max(Into.size(), From.size()));
  auto Alone = [&](const ValueDecl *D, const Dep &Held) {
    Dep Fallback = Eval.fallback(D);
    Dep Value = joinValues(Held, Fallback);
    if (Value != Fallback)
      Joined.append(D, Value);
  };
  const DivergenceState &Left = Into;
  auto A = Left.begin(), B = From.begin();
  while (A != Left.end() || B != From.end()) {
    if (B == From.end() ||
        (A != Left.end() && DivergenceState::before(A->first, B->first))) {
      Alone(A->first, A->second);
      ++A;
    } else if (A == Left.end() || DivergenceState::before(B->first, A->first)) {
      Alone(B->first, B->second);
      ++B;
    } else {
      Joined.append(A->first, joinValues(A->second, B->second));
      ++A;
      ++B;
    }
  }
  Into = std::move(Joined);
}

/// True for a parameter through which the callee can write the caller's
/// variable: a reference or a pointer to non-const.
bool isOutParameter(const ParmVarDecl *Param) {
  QualType T = Param->getType();
  if (T->isReferenceType() || T->isPointerType())
    return !T->getPointeeType().isConstQualified();
  return false;
}

class Transfer {
public:
  Transfer(
      AnalysisContext &Ctx, const FunctionDecl *FD, DivergenceState &State,
      const llvm::SmallVector<ControllingBranch, 2> *Controls,
      const llvm::DenseMap<const ValueDecl *,
                           llvm::SmallVector<const ValueDecl *, 2>> &Aliases,
      llvm::DenseMap<const ValueDecl *, Dep> &Fallbacks,
      RankUniformity::Recording &Rec)
      : Ctx(Ctx), FD(FD), State(State), Controls(Controls), Aliases(Aliases),
        Rec(Rec), Eval(Ctx, FD, State, Fallbacks) {}

  void element(const CFGElement &Elem);

private:
  void assign(const ValueDecl *Target, bool Exact, const Expr *Value,
              const Stmt *Anchor, const Dep &O);
  /// \p Target now holds \p Why: a fact of the TU if it outlives the
  /// function (a field, a global), else the state's.
  void store(const ValueDecl *Target, const Dep &Why);
  void call(const CallExpr *Call);
  /// What a catalogued call does to its out-parameter or buffer.
  void catalogued(const Expr *Call, const CatalogueEntry *Entry,
                  llvm::ArrayRef<const Expr *> Args);
  void writeThroughPointers(const CallExpr *Call, const CatalogueEntry *Entry);
  void devicePlacement(const Expr *Call, const CatalogueEntry *Entry,
                       llvm::ArrayRef<const Expr *> Args,
                       const ValueDecl *Target);
  /// Copies between variables and buffers (`info[0] = count`,
  /// `count = info[0]`): see Copies.
  void copy(const ValueDecl *Target, bool Exact, const Expr *To,
            const Expr *From);
  /// \p Target was written: it is no longer known to be synchronised, and
  /// what it held before is no longer in a buffer.
  void written(const ValueDecl *Target);
  /// `o.n` where `o` is the only object of its class (SoleObjects.h): a
  /// write of it replaces what the field held.
  bool isSoleObjectField(const Expr *LHS) const;
  /// `o = value` of such an object writes each of its fields: true if
  /// \p Target is one, after writing them.
  bool assignSoleObject(const ValueDecl *Target, const Expr *Value,
                        const Stmt *Anchor, const Dep &O);
  /// A collective filled \p Target, the object or what it points to
  /// (`MPI_Bcast(&params, sizeof params, MPI_BYTE, 0, comm)`): it and each
  /// of its fields hold the same on every rank.
  void synchronise(const ValueDecl *Target);
  void synchroniseFields(clang::QualType T, unsigned Depth);
  /// Only the elements of the container \p Target depend on the rank (they
  /// were written or inserted on every rank alike): its length does not.
  /// \p Value is what was written: an explanation shared with it is left
  /// alone.
  void markElementsOnly(const ValueDecl *Target, const Dep &Value);
  /// True if \p Value builds a std sequence whose rank-dependent arguments
  /// are all element values (not a count or a range).
  bool fillsElementsOnly(const Expr *Value);
  /// True if \p Call, a LibTorch operation that makes a tensor, takes
  /// rank-dependent values only (`torch::full({n}, rank)`, `t * rank`):
  /// the tensor's shape is the same on every rank.
  bool tensorValuesOnly(const CallExpr *Call);
  /// A call of a function with a body: what its summary says it writes
  /// into the caller's variables, and the arguments, for its parameters.
  /// A call of \p Def, or (with \p Dispatch, its overrides' summary) a
  /// virtual call of the pure method \p Def.
  void callBody(const Expr *Call, const FunctionDecl *Def,
                llvm::ArrayRef<const Expr *> Args,
                const DepSummary *Dispatch = nullptr);

  AnalysisContext &Ctx;
  const FunctionDecl *FD;
  DivergenceState &State;
  /// The rank-dependent branches whose region this block is in.
  const llvm::SmallVector<ControllingBranch, 2> *Controls;
  const llvm::DenseMap<const ValueDecl *,
                       llvm::SmallVector<const ValueDecl *, 2>> &Aliases;
  RankUniformity::Recording &Rec;
  Evaluator Eval;
  /// Per buffer, the variables copied into it in this block and not
  /// written since (`info[0] = count; info[1] = deflt;`). A broadcast of the
  /// buffer publishes them: after it, the root's `count` is what every rank
  /// received (intel/mpi-benchmarks' IMB_basic_input packs its settings so).
  llvm::SmallDenseMap<const ValueDecl *,
                      llvm::SmallVector<const ValueDecl *, 4>, 2>
      Copies;
};

void Transfer::written(const ValueDecl *Target) {
  if (!Target)
    return;
  auto Old = State.find(Target);
  if (Old != State.end() && isSynced(Old->second))
    Old->second = Dep();
  for (auto &Buffer : Copies)
    llvm::erase(Buffer.second, Target);
}

bool Transfer::fillsElementsOnly(const Expr *Value) {
  Value = Value->IgnoreImplicit();
  if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(Value))
    Value = Cast->getSubExpr()->IgnoreImplicit();
  if (const auto *Call = dyn_cast<CallExpr>(Value))
    return tensorValuesOnly(Call);
  const auto *Construct = dyn_cast<CXXConstructExpr>(Value);
  if (!Construct || !isStdSequence(Construct->getType()->getAsCXXRecordDecl()))
    return false;
  const CXXConstructorDecl *Ctor = Construct->getConstructor();
  bool Any = false;
  for (unsigned I = 0; I < Construct->getNumArgs(); ++I) {
    if (!Eval.eval(Construct->getArg(I)).any())
      continue;
    if (I >= Ctor->getNumParams())
      return false;
    // A count (`vector(n, v)`), or the iterators of a range.
    QualType T = Ctor->getParamDecl(I)->getType();
    if (T->isIntegerType() || (I < 2 && takesRange(Ctor)))
      return false;
    Any = true;
  }
  return Any;
}

bool Transfer::tensorValuesOnly(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || !isTensorType(Call->getType()))
    return false;
  std::string Name = FD->getQualifiedNameAsString();
  if (!llvm::StringRef(Name).starts_with("at::") &&
      !llvm::StringRef(Name).starts_with("torch::"))
    return false;
  // Operations whose result's shape comes from values: a range's ends, the
  // elements a mask or a test selects, an index tensor's entries.
  if (FD->getDeclName().isIdentifier() &&
      llvm::StringSwitch<bool>(FD->getName())
          .Cases("arange", "range", "linspace", "logspace", true)
          .Cases("nonzero", "nonzero_static", "argwhere", "where", true)
          .Cases("masked_select", "unique", "unique_consecutive", true)
          .Cases("unique_dim", "bincount", "repeat_interleave", "take", true)
          .Cases("index", "index_select", "histc", true)
          .Default(false))
    return false;
  if (FD->getOverloadedOperator() == OO_Subscript)
    return false;
  llvm::SmallVector<const Expr *, 6> Inputs(Call->arguments());
  if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(Call))
    Inputs.push_back(MCE->getImplicitObjectArgument());
  bool Any = false;
  for (const Expr *Input : Inputs) {
    Dep D = Eval.eval(Input);
    if (!D.any())
      continue;
    // A fill value or a factor (a Scalar, a floating-point number), or a
    // tensor whose values alone depend on the rank: the values. Anything
    // else (a size, a dimension, an index, options) may be the shape.
    QualType T = Input->getType().getNonReferenceType();
    const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
    bool Scalar = RD && RD->getIdentifier() && RD->getName() == "Scalar";
    bool Values = Scalar || T->isRealFloatingType();
    if (!Values && isTensorType(T)) {
      const auto *Inner = dyn_cast<CallExpr>(
          Input->IgnoreImplicit()->IgnoreParens()->IgnoreImplicit());
      Values =
          (D.Why && D.Why->ElementsOnly) || (Inner && tensorValuesOnly(Inner));
    }
    if (!Values)
      return false;
    Any = true;
  }
  return Any;
}

void Transfer::markElementsOnly(const ValueDecl *Target, const Dep &Value) {
  if (!Target)
    return;
  auto It = State.find(Target);
  if (It != State.end() && It->second.Why && !isSynced(It->second) &&
      It->second.Why != Value.Why)
    const_cast<Origin *>(It->second.Why)->ElementsOnly = true;
}

void Transfer::copy(const ValueDecl *Target, bool Exact, const Expr *To,
                    const Expr *From) {
  const Expr *Read = From ? From->IgnoreParenImpCasts() : nullptr;
  if (!Read || !(isa<DeclRefExpr, MemberExpr, ArraySubscriptExpr>(Read) ||
                 (isa<UnaryOperator>(Read) &&
                  cast<UnaryOperator>(Read)->getOpcode() == UO_Deref)))
    return;
  bool SourceExact;
  const ValueDecl *Source = targetDecl(Read, SourceExact);
  if (!Target || !Source || !isa<VarDecl, FieldDecl>(Source))
    return;
  // Copied out of a synchronised buffer (`count = info[0]` after the
  // broadcast): the same on every rank that copied it, as the buffer is.
  auto Held = State.find(Source);
  if (Held != State.end() && isSynced(Held->second)) {
    if (Exact || isa<FieldDecl>(Target))
      State[Target] = Synced;
    return;
  }
  // A variable copied into an element or field of a buffer: remembered
  // until the buffer is broadcast or the variable changes.
  if (To && !Exact && !isa<ArraySubscriptExpr>(Read))
    if (const ValueDecl *Root = bufferRoot(To))
      if (Root != Source)
        Copies[Root].push_back(Source);
}

/// True for what outlives a call of the function: a field, a global or a
/// static local. Other functions read what it holds when they are called.
static bool outlivesCall(const ValueDecl *D) {
  if (const auto *VD = dyn_cast<VarDecl>(D))
    return VD->hasGlobalStorage();
  return isa<FieldDecl>(D);
}

/// \p Target now holds \p Value in \p State; a field or global is also
/// remembered in \p Outliving, to be published (see publishOutliving).
static void hold(DivergenceState &State,
                 llvm::SmallSetVector<const ValueDecl *, 8> &Outliving,
                 const ValueDecl *Target, const Dep &Value) {
  State[Target] = Value;
  if (outlivesCall(Target))
    Outliving.insert(Target);
}

void Transfer::store(const ValueDecl *Target, const Dep &Why) {
  hold(State, *Rec.Outliving, Target, Why);
}

/// Makes what \p State holds for fields and globals a fact of the TU (a
/// rank-dependent value), or an escape of the function (a value that depends
/// on its inputs). Done where other code can read them: at calls of user
/// code and at the function's exit, not at each write, so a value written
/// and then broadcast before anyone reads it is never published.
static void publishOutliving(const DivergenceState &State,
                             llvm::ArrayRef<const ValueDecl *> Outliving,
                             AnalysisContext &Ctx,
                             llvm::MapVector<const ValueDecl *, Dep> &Escapes) {
  for (const ValueDecl *D : Outliving) {
    auto Held = State.find(D);
    if (Held == State.end() || isSynced(Held->second))
      continue;
    const Dep &Value = Held->second;
    if (Value.divergent()) {
      Ctx.Facts.addDecl(D, Value.Why);
    } else if (Value.conditional()) {
      // Rank-dependent everywhere once a caller passes a rank-dependent
      // input.
      Dep &Escaped = Escapes[D];
      Escaped = join(Escaped, Value);
    }
  }
}

/// True for `*__begin1`, the element a range-for's variable is set from: it
/// has no text of its own (its range is the ':'), and the range's note
/// explains it.
static bool isRangeElement(const Expr *Value) {
  if (!Value)
    return false;
  const Expr *Deref = Value->IgnoreImplicit();
  const Expr *Operand = nullptr;
  if (const auto *Op = dyn_cast<UnaryOperator>(Deref))
    Operand = Op->getOpcode() == UO_Deref ? Op->getSubExpr() : nullptr;
  else if (const auto *Call = dyn_cast<CXXOperatorCallExpr>(Deref))
    Operand = Call->getOperator() == OO_Star && Call->getNumArgs() == 1
                  ? Call->getArg(0)
                  : nullptr;
  const auto *Ref =
      dyn_cast_or_null<DeclRefExpr>(Operand ? Operand->IgnoreImplicit() : nullptr);
  return Ref && Ref->getDecl()->isImplicit();
}

void Transfer::assign(const ValueDecl *Target, bool Exact, const Expr *Value,
                      const Stmt *Anchor, const Dep &O) {
  if (!Target)
    return;
  // A pointer parameter stands for what it points to (the caller's buffer):
  // pointing it elsewhere changes nothing there.
  if (const auto *Param = dyn_cast<ParmVarDecl>(Target))
    if (Exact && Param->getType()->isPointerType())
      return;
  // Written after a collective made it the same everywhere: no longer
  // known to be synchronised (see the joins in RankUniformity::run).
  auto Old = State.find(Target);
  if (Old != State.end() && isSynced(Old->second))
    Old->second = Dep();
  if (!O.any()) {
    if (Exact)
      hold(State, *Rec.Outliving, Target, Dep());
    return;
  }
  // "'rank' is set from 'pg->getRank()' here"; when the source itself is
  // that expression, one note says it all.
  const SourceManager &SM = Ctx.AST.getSourceManager();
  // What local data a value comes from is worth its own note ("'l' is
  // set from 'loss.item()'", "'loss.item()' is computed from this rank's
  // own data").
  const Origin *Cause = O.Why;
  if (O.divergent() && Value && !O.Why->Cause && !O.Why->LocalData &&
      O.Why->Loc.isValid() &&
      SM.isPointWithin(O.Why->Loc, Value->getBeginLoc(), Value->getEndLoc()))
    Cause = nullptr;
  // An implicit variable (a range-for's __range1/__begin1) gets no note
  // of its own: the user never wrote it; nor does a default-constructed
  // one (`std::random_device rd;`), whose source is its declaration, nor a
  // field in a compiler-generated copy or move (its text is the class's).
  const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(
      Value ? Value->IgnoreImplicit() : nullptr);
  if (Target->isImplicit() || (FD && FD->isImplicit()) ||
      isRangeElement(Value) ||
      (Construct && Construct->getNumArgs() == 0 &&
       Construct->getParenOrBraceRange().isInvalid())) {
    store(Target, O);
    return;
  }
  // A copy of a whole container whose elements alone depend on the rank
  // (`auto mine = shard(all, rank);`) keeps its length uniform, and so does
  // one filled with a rank-dependent value (`std::vector<float>(n, rank)`).
  bool ElementsOnly = Exact && Value &&
                      ((O.Why->ElementsOnly && isWholeContainer(Value, Ctx)) ||
                       fillsElementsOnly(Value));
  const Origin *Why = Ctx.origin(
      Anchor, Target, Value ? Value->getBeginLoc() : Anchor->getBeginLoc(),
      [&] {
        return fmt::format("'{}' is set from '{}' here", declName(Target),
                           Value ? Ctx.text(Value) : "?");
      },
      Cause, false, O.Why->ExactRank && Value && isPlainValue(Value),
      /*LocalData=*/false, ElementsOnly);
  Dep New = O.explainedBy(Why);
  // A weak update (`a[i] = v`, `*p = v`) adds to what was there.
  if (!Exact && !New.divergent())
    New = join(Eval.declDivergence(Target), New);
  store(Target, New);
}

bool Transfer::isSoleObjectField(const Expr *LHS) const {
  const auto *Member = dyn_cast<MemberExpr>(LHS->IgnoreParenImpCasts());
  const auto *Field =
      Member ? dyn_cast<FieldDecl>(Member->getMemberDecl()) : nullptr;
  if (!Field || Member->isArrow())
    return false;
  const auto *Ref =
      dyn_cast<DeclRefExpr>(Member->getBase()->IgnoreParenImpCasts());
  const VarDecl *Sole = Ctx.soleObject(Field->getParent());
  return Ref && Sole && Ref->getDecl()->getCanonicalDecl() == Sole;
}

bool Transfer::assignSoleObject(const ValueDecl *Target, const Expr *Value,
                                const Stmt *Anchor, const Dep &O) {
  const auto *Var = dyn_cast_or_null<VarDecl>(Target);
  const RecordDecl *Record = Var ? Var->getType()->getAsRecordDecl() : nullptr;
  if (!Record || Ctx.soleObject(Record) != Var->getCanonicalDecl())
    return false;
  if (const RecordDecl *Def = Record->getDefinition())
    for (const FieldDecl *Field : Def->fields())
      assign(Field, true, Value, Anchor, O);
  return true;
}

void Transfer::synchronise(const ValueDecl *Target) {
  State[Target] = Synced;
  if (!isa<VarDecl>(Target))
    return;
  QualType T = Target->getType().getNonReferenceType();
  synchroniseFields(T->isPointerType() ? T->getPointeeType() : T, 0);
}

void Transfer::synchroniseFields(QualType T, unsigned Depth) {
  const RecordDecl *Record = T->getAsRecordDecl();
  if (Depth > 3 || !Record || !(Record = Record->getDefinition()))
    return;
  for (const FieldDecl *Field : Record->fields()) {
    hold(State, *Rec.Outliving, Field, Synced);
    synchroniseFields(Field->getType(), Depth + 1);
  }
}

void Transfer::callBody(const Expr *Call, const FunctionDecl *Def,
                        llvm::ArrayRef<const Expr *> Args,
                        const DepSummary *Dispatch) {
  CallRecord &R = (*Rec.Calls)[Call];
  R.Call = Call;
  R.Callee = Def;
  R.Args.clear();
  R.Keys.clear();
  R.ArgExprs.clear();
  for (unsigned I = 0; I < Args.size() && I < Def->getNumParams(); ++I) {
    R.Args.push_back(Eval.eval(Args[I]));
    R.Keys.push_back(Eval.keyOf(Args[I]));
    R.ArgExprs.push_back(Args[I]);
  }
  const DepSummary *S = Dispatch ? Dispatch : Ctx.Facts.summary(Def);
  if (!S)
    return;
  // `queryRank(pg, r)` with `void queryRank(..., int &out) { out = rank; }`:
  // the callee wrote a rank-dependent value into the caller's variable.
  for (const auto &[Index, Written] : S->Writes) {
    if (Index >= Args.size())
      continue;
    bool Exact;
    const ValueDecl *Target = targetDecl(Args[Index], Exact);
    if (!Target)
      continue;
    if (isSynced(Written)) {
      synchronise(Target); // A helper that broadcasts its argument.
      continue;
    }
    // Left as the caller passed it (by a path or an override that does not
    // write it): what the caller's variable held, length included.
    const Origin *Input = Written.Why;
    bool LeftAlone = Input && Input->Input && !Input->EnvInput &&
                     !Written.EnvKeys &&
                     Input->Input->getFunctionScopeIndex() == Index &&
                     Written.Params == inputBit(Index);
    Dep Now = Eval.instantiate(Written, Call, Def, Args);
    if (!Now.any()) {
      if (Exact)
        State[Target] = Dep();
      continue;
    }
    const Origin *Why = Ctx.origin(
        Call, Target, Call->getBeginLoc(),
        [&] {
          return fmt::format(
              "'{}' is set to a rank-dependent value by '{}' here",
              declName(Target), Def->getNameAsString());
        },
        Now.Why, false, Now.Why->ExactRank);
    if (LeftAlone)
      if (Dep Held = Eval.declDivergence(Target);
          Held.Why && Held.Why->ElementsOnly)
        const_cast<Origin *>(Why)->ElementsOnly = true;
    store(Target, Now.explainedBy(Why));
  }
  // What the callee leaves in fields and globals is what they hold now; one
  // it may leave alone holds what the TU's facts say. (Of a virtual call's
  // overrides, one may leave alone what another writes.)
  for (const auto &[Target, Left] : S->Outliving) {
    if (!Left || Dispatch) {
      State.erase(Target);
      Rec.Outliving->insert(Target);
    } else {
      hold(State, *Rec.Outliving, Target,
           isSynced(*Left) ? Synced : Eval.instantiate(*Left, Call, Def, Args));
    }
  }
}

void Transfer::catalogued(const Expr *Call, const CatalogueEntry *Entry,
                          llvm::ArrayRef<const Expr *> Args) {
  if (Entry && Entry->Arg >= 0 &&
      static_cast<unsigned>(Entry->Arg) < Args.size()) {
    bool Exact;
    const Expr *ArgExpr = Args[Entry->Arg];
    const ValueDecl *Target = targetDecl(ArgExpr, Exact);
    if (Target) {
      if (Entry->Role == CallRole::RankSource) {
        const Origin *O = Ctx.origin(Call, key(KeyOutArg), Call->getBeginLoc(), [&] {
          return fmt::format("'{}' is set to the rank by '{}' here",
                             declName(Target), Entry->Display);
        }, nullptr, false, /*ExactRank=*/true);
        store(Target, Dep(O));
      } else if (Entry->Role == CallRole::LocalData) {
        // glob(pattern, flags, errfunc, &found): what this rank's file
        // system holds.
        if (Dep O = Eval.eval(Call); O.any())
          store(Target, O);
      } else if (Entry->Role == CallRole::DeviceProperty) {
        State[Target] = Dep();
        devicePlacement(Call, Entry, Args, Target);
      } else if (Entry->Role == CallRole::UniformSource ||
                 isCollectiveRole(Entry->Role)) {
        // The buffer now holds the same value on every rank, and so do the
        // tensors it was built from (tensors share their storage).
        if (Entry->Role == CallRole::UniformSource) {
          State[Target] = Dep();
          Ctx.Facts.addWorldSize(Target); // MPI_Comm_size(comm, &np)
        } else {
          synchronise(Target);
          auto Alias = Aliases.find(Target);
          if (Alias != Aliases.end())
            for (const ValueDecl *Member : Alias->second)
              State[Member] = Synced;
          // The root's values copied into the buffer are what every rank
          // now holds.
          if (publishesRootValue(Entry->Display))
            if (auto Copied = Copies.find(bufferRoot(ArgExpr));
                Copied != Copies.end())
              for (const ValueDecl *Source : Copied->second)
                State[Source] = Synced;
        }
      }
    }
  }
}

void Transfer::call(const CallExpr *Call) {
  // `read(&count)` may change what was copied.
  if (!Copies.empty())
    for (const Expr *Arg : Call->arguments())
      if (const auto *Addr =
              dyn_cast<UnaryOperator>(Arg->IgnoreParenImpCasts()))
        if (Addr->getOpcode() == UO_AddrOf) {
          bool Exact;
          written(targetDecl(Addr->getSubExpr(), Exact));
        }
  const CatalogueEntry *Entry = Ctx.Catalogue.classify(Call);
  // User code called here may read the fields and globals this function
  // wrote.
  const FunctionDecl *Direct = Call->getDirectCallee();
  if (!Entry && !(Direct && Ctx.isLibraryDecl(Direct)))
    publishOutliving(State, Rec.Outliving->getArrayRef(), Ctx, *Rec.Escapes);
  if (Entry)
    catalogued(Call, Entry,
               llvm::ArrayRef(Call->getArgs(), Call->getNumArgs()));
  else if (!Direct)
    if (const UnresolvedCall *Match = Ctx.Unresolved.match(Call, Ctx))
      catalogued(Call, Match->Entry, Match->Args);
  // MPI_Comm_split(comm, color, key, &sub): with a rank-dependent colour, the
  // communicator a rank gets depends on its rank.
  if (const FunctionDecl *Callee = Call->getDirectCallee())
    if (Callee->getDeclName().isIdentifier() &&
        (Callee->getName() == "MPI_Comm_split" ||
         Callee->getName() == "ncclCommSplit") &&
        Call->getNumArgs() > 3)
      if (Dep Color = Eval.eval(Call->getArg(1)); Color.any()) {
        bool Exact;
        if (const ValueDecl *Target = targetDecl(Call->getArg(3), Exact))
          assign(Target, false, Call->getArg(1), Call, Color);
      }
  writeThroughPointers(Call, Entry);
  // A container given a rank-dependent element holds rank-dependent
  // contents: `names.push_back(rank)`. (Only the container operations: a
  // model's forward(x) does not make the model rank-dependent.)
  if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(Call)) {
    const CXXMethodDecl *MD = MCE->getMethodDecl();
    if (MD && !MD->isConst() && !Entry && isContainerUpdate(MD)) {
      for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
        const Expr *Arg = Call->getArg(I);
        Dep O = Eval.eval(Arg);
        if (!O.any())
          continue;
        bool Exact;
        const ValueDecl *Target =
            targetDecl(MCE->getImplicitObjectArgument(), Exact);
        if (!Target)
          break;
        // Inserted on every rank alike, the value leaves the size uniform;
        // a count or a range (`resize(rank + 1)`) does not.
        bool SizeUniform = keepsLength(Eval.declDivergence(Target), O) &&
                           !isLengthArgument(MCE, I);
        assign(Target, false, Arg, Call, O);
        if (!SizeUniform)
          break;
        markElementsOnly(Target, O);
      }
    }
  }
  if (const auto *OCE = dyn_cast<CXXOperatorCallExpr>(Call)) {
    if (OCE->isAssignmentOp() && OCE->getNumArgs() == 2) {
      bool Exact;
      const ValueDecl *Target = targetDecl(OCE->getArg(0), Exact);
      Dep O = Eval.eval(OCE->getArg(1));
      if (OCE->getOperator() != OO_Equal && !O.divergent())
        O = join(O, Eval.eval(OCE->getArg(0)));
      bool LengthUniform = isSequenceElement(OCE->getArg(0)) &&
                           keepsLength(Eval.declDivergence(Target), O);
      Exact |= isSoleObjectField(OCE->getArg(0));
      if (OCE->getOperator() == OO_Equal &&
          assignSoleObject(Target, OCE->getArg(1), OCE, O))
        return;
      assign(Target, Exact && OCE->getOperator() == OO_Equal, OCE->getArg(1),
             OCE, O);
      if (LengthUniform)
        markElementsOnly(Target, O);
    }
  }
  if (const FunctionDecl *Def = withSummary(Call->getDirectCallee(), Ctx))
    callBody(Call, Def, parameterArgs(Call, Def));
  else if (Dispatch D = dispatchOf(Call, Ctx); D.Summary)
    callBody(Call, D.Method, parameterArgs(Call, D.Method), D.Summary);
}

/// A library function given a rank-dependent argument can write a
/// rank-dependent value through its pointer arguments, as its result would
/// be: `hwloc_cudart_get_device_cpuset(topo, device, set)` fills `set` for
/// this rank's device. (Functions analysed here say what they write through
/// their own out-parameters, in their summaries; catalogued calls have their
/// roles.)
/// Whether parameter \p I of \p Callee is a forwarding reference of its
/// template (`Args &&...` of std::make_shared or emplace_back): the argument
/// is passed on to a constructor, not written.
static bool isForwardingParameter(const FunctionDecl *Callee, unsigned I) {
  const FunctionDecl *Pattern = Callee->getTemplateInstantiationPattern();
  if (!Pattern)
    return false;
  auto Forwarding = [](const ParmVarDecl *P) {
    QualType T = P->getType();
    if (const auto *Pack = T->getAs<PackExpansionType>())
      T = Pack->getPattern();
    const auto *Ref = T->getAs<RValueReferenceType>();
    return Ref && !Ref->getPointeeType().hasQualifiers() &&
           Ref->getPointeeType()->getAs<TemplateTypeParmType>();
  };
  for (unsigned J = 0; J < Pattern->getNumParams(); ++J) {
    const ParmVarDecl *P = Pattern->getParamDecl(J);
    if (P->isParameterPack() || J == I)
      return Forwarding(P);
  }
  return false;
}

/// Calls that write a whole string into their first argument, made of the
/// others: sprintf and snprintf, strcpy and the like.
static bool isStringFormatter(const FunctionDecl *FD) {
  static constexpr llvm::StringLiteral Names[] = {"sprintf",
                                                  "snprintf",
                                                  "vsprintf",
                                                  "vsnprintf",
                                                  "strcpy",
                                                  "stpcpy",
                                                  "__builtin___sprintf_chk",
                                                  "__builtin___snprintf_chk",
                                                  "__builtin___strcpy_chk"};
  return FD->getDeclName().isIdentifier() &&
         llvm::is_contained(Names, FD->getName());
}

void Transfer::writeThroughPointers(const CallExpr *Call,
                                    const CatalogueEntry *Entry) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (Entry || !Callee || isa<CXXMemberCallExpr, CXXOperatorCallExpr>(Call) ||
      !Ctx.isLibraryDecl(Callee) || Ctx.isAnalysable(Callee))
    return;
  // cudaMalloc(&p, n) gives p a new block, whatever n is.
  if (isOutParamAllocator(Callee))
    return;
  // std::forward<T>(x) and std::move(x) name x; they write nothing.
  if (isStdMove(Call))
    return;
  // `snprintf(path, n, "%s/model.bin", dir)` replaces what the whole buffer
  // held: from here on it holds what the other arguments give it, whatever
  // was written into it before (a rank-named file elsewhere).
  const ValueDecl *Formatted = nullptr;
  if (isStringFormatter(Callee) && Call->getNumArgs() > 1) {
    bool Exact = false;
    const ValueDecl *Target = targetDecl(Call->getArg(0), Exact);
    if (Exact && isa_and_nonnull<VarDecl>(Target))
      Formatted = Target;
  }
  // What the arguments depend on together (a buffer parameter passed in
  // depends on its caller's buffer; the device number on the rank).
  Dep O;
  for (unsigned I = Formatted ? 1 : 0; I < Call->getNumArgs(); ++I) {
    O = join(O, Eval.eval(Call->getArg(I)));
    if (O.divergent() && !O.Why->FromControl)
      break;
  }
  auto WrittenFrom = [&](const ValueDecl *Target) {
    const Origin *Why = Ctx.origin(
        Call, Target, Call->getBeginLoc(),
        [&] {
          return fmt::format("'{}' is written by '{}' from a rank-dependent "
                             "argument here",
                             declName(Target), Ctx.text(Call));
        },
        O.Why, false, /*ExactRank=*/false, O.Why->LocalData);
    store(Target, O.explainedBy(Why));
  };
  if (Formatted) {
    written(Formatted);
    if (O.any())
      WrittenFrom(Formatted);
    else
      State[Formatted] = Dep();
    return;
  }
  if (!O.any())
    return;
  for (unsigned I = 0; I < Call->getNumArgs() && I < Callee->getNumParams();
       ++I) {
    QualType T = Callee->getParamDecl(I)->getType();
    if (!(T->isPointerType() || T->isReferenceType()) ||
        T->getPointeeType().isConstQualified() ||
        T->getPointeeType()->isFunctionType() ||
        isForwardingParameter(Callee, I) || isStreamType(T))
      continue;
    bool Exact;
    const ValueDecl *Target = targetDecl(Call->getArg(I), Exact);
    // Already rank-dependent: its own explanation stays.
    if (Target && !Eval.declDivergence(Target).divergent())
      WrittenFrom(Target);
  }
}

/// A field of a device's properties that says where the device is, not what
/// it is: different for each GPU of a node.
static bool isPlacementField(const FieldDecl *Field) {
  if (!Field->getDeclName().isIdentifier())
    return false;
  llvm::StringRef Name = Field->getName();
  return Name.starts_with("pci") || Name == "uuid" || Name == "luid" ||
         Name == "luidDeviceNodeMask";
}

void Transfer::devicePlacement(const Expr *Call, const CatalogueEntry *Entry,
                               llvm::ArrayRef<const Expr *> Args,
                               const ValueDecl *Target) {
  // cudaGetDeviceProperties(&prop, device): prop.pciBusID is as
  // rank-dependent as which device this rank uses.
  const RecordDecl *Props = Target->getType()->getAsRecordDecl();
  if (!Props)
    return;
  Dep Device;
  for (unsigned I = 0; I < Args.size(); ++I)
    if (static_cast<int>(I) != Entry->Arg)
      Device = join(Device, Eval.eval(Args[I]));
  if (!Device.any())
    return;
  for (const FieldDecl *Field : Props->fields()) {
    if (!isPlacementField(Field))
      continue;
    const Origin *Why = Ctx.origin(
        Call, Field, Call->getBeginLoc(),
        [&] {
          return fmt::format("'{}' is where this rank's device sits, written "
                             "by '{}' here",
                             Field->getName(), Entry->Display);
        },
        Device.Why, false, /*ExactRank=*/false, Device.Why->LocalData);
    store(Field, Device.explainedBy(Why));
  }
}

void Transfer::element(const CFGElement &Elem) {
  if (auto Init = Elem.getAs<CFGInitializer>()) {
    const CXXCtorInitializer *I = Init->getInitializer();
    if (FieldDecl *Field = I->getAnyMember()) {
      Dep O = Eval.eval(I->getInit());
      if (O.any())
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
      assign(VD, true, Init, DS, Init ? Eval.eval(Init) : Dep());
      if (!VD->getType()->isReferenceType())
        copy(VD, true, nullptr, Init);
    }
    return;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (!BO->isAssignmentOp())
      return;
    bool Exact;
    const ValueDecl *Target = targetDecl(BO->getLHS(), Exact);
    Dep O = Eval.eval(BO->getRHS());
    written(Target);
    // `i += world`: a uniform step keeps i's own explanation.
    if (BO->isCompoundAssignmentOp() && !O.divergent()) {
      Dep Own = Eval.eval(BO->getLHS());
      if (Own.divergent() || (!O.any() && Own.any()))
        return;
      O = join(O, Own);
    }
    bool LengthUniform = isSequenceElement(BO->getLHS()) &&
                         keepsLength(Eval.declDivergence(Target), O);
    Exact |= isSoleObjectField(BO->getLHS());
    if (BO->getOpcode() == BO_Assign &&
        assignSoleObject(Target, BO->getRHS(), BO, O))
      return;
    assign(Target, Exact && !BO->isCompoundAssignmentOp(), BO->getRHS(), BO,
           O);
    if (LengthUniform)
      markElementsOnly(Target, O);
    if (BO->getOpcode() == BO_Assign)
      copy(Target, Exact, BO->getLHS(), BO->getRHS());
    return;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
    // `++i` keeps i's divergence; it only ends a synchronised state.
    bool Exact;
    if (UO->isIncrementDecrementOp())
      written(targetDecl(UO->getSubExpr(), Exact));
    return;
  }
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    call(Call);
    return;
  }
  if (const auto *Recovery = dyn_cast<RecoveryExpr>(S)) {
    if (const UnresolvedCall *Match = Ctx.Unresolved.match(Recovery, Ctx))
      catalogued(Recovery, Match->Entry, Match->Args);
    return;
  }
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(S)) {
    if (const FunctionDecl *Def =
            withSummary(Construct->getConstructor(), Ctx)) {
      publishOutliving(State, Rec.Outliving->getArrayRef(), Ctx, *Rec.Escapes);
      callBody(Construct, Def, parameterArgs(Construct));
    }
    return;
  }
  // `TrainArgs args{rank, 32, path}`: each field is what it is given.
  if (const auto *ILE = dyn_cast<InitListExpr>(S)) {
    if (isFieldwise(ILE))
      forEachFieldInit(ILE, [&](const FieldDecl *Field, const Expr *Init) {
        Dep O = Eval.eval(Init);
        if (O.any())
          assign(Field, false, Init, Init, O);
      });
    return;
  }
  if (const auto *RS = dyn_cast<ReturnStmt>(S)) {
    const Expr *Value = RS->getRetValue();
    if (!Value || !FD)
      return;
    Dep O = Eval.eval(Value);
    // A container whose elements alone depend on the rank, returned whole
    // from the only return: the caller's copy has the same length on every
    // rank (a rank's shard of a table).
    bool ElementsOnly = Rec.SingleReturn && O.Why && O.Why->ElementsOnly &&
                        isWholeContainer(Value, Ctx);
    // Ranks that return here and ranks that go on return different values
    // (unless the root and the others each return alike after a broadcast,
    // or each returns a new block: which allocator made it is no matter).
    // Nor does a test of where the result is placed (see isPlacementTest).
    if (!O.divergent() && Controls && !Rec.Fresh->isFresh(Value))
      for (const ControllingBranch &Branch : *Controls)
        if ((!Rec.MirroredReturns ||
             !Rec.MirroredReturns->contains(Branch.Branch)) &&
            !(holdsClass(FD->getReturnType(), knowsItsDevice) &&
              isPlacementTest(dyn_cast_or_null<Expr>(
                                  Branch.Branch->getTerminatorCondition()),
                              Ctx.AST)))
          O = join(O, Branch.Why);
    if (!O.any())
      return;
    ElementsOnly &= O.Why->ElementsOnly;
    const Origin *Why = Ctx.origin(
        RS, key(KeyReturn), RS->getBeginLoc(),
        [&] {
          return fmt::format("'{}' returns a rank-dependent value here",
                             FD->getNameAsString());
        },
        O.Why, false, O.Why->ExactRank && isPlainValue(Value),
        /*LocalData=*/false, ElementsOnly);
    Rec.Return = join(Rec.Return, O.explainedBy(Why));
    return;
  }
  if (const auto *Lambda = dyn_cast<LambdaExpr>(S)) {
    // Captured variables carry their rank dependence into the lambda body.
    for (const LambdaCapture &Capture : Lambda->captures()) {
      if (!Capture.capturesVariable())
        continue;
      const ValueDecl *Var = Capture.getCapturedVar();
      Dep O = Eval.declDivergence(Var);
      if (O.divergent()) {
        Ctx.Facts.addDecl(Var, O.Why);
      } else if (O.conditional()) {
        Dep &Escaped = (*Rec.Escapes)[Var];
        Escaped = join(Escaped, O);
      }
    }
    return;
  }
}

} // namespace

Dep RankUniformity::divergenceAt(const CFGBlock *B, const Expr *E) const {
  Evaluator Eval(Ctx, FD, Out[B->getBlockID()], Fallbacks);
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
                               const FailurePaths &Failures,
                               AnalysisContext &Ctx)
    : FD(FD), Ctx(Ctx), Failures(Failures), Fresh(FD) {
  Exit = &Cfg.getExit();
  ExitId = Exit->getBlockID();
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
      if (auto S = Elem.getAs<CFGStmt>()) {
        if (const auto *DS = dyn_cast<DeclStmt>(S->getStmt()))
          for (const Decl *D : DS->decls())
            if (const auto *VD = dyn_cast<VarDecl>(D)) {
              DeclBlocks.try_emplace(VD, B);
              if (VD->getInit())
                collectAliases(VD, VD->getInit());
            }
        if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(S->getStmt()))
          collectOutputBinding(MCE);
        if (const auto *RS = dyn_cast<ReturnStmt>(S->getStmt()))
          ValueReturns += RS->getRetValue() != nullptr;
      }
  Visited.assign(Cfg.getNumBlockIDs(), false);
  collectChunkedLoops();
}

void RankUniformity::collectOutputBinding(const CXXMemberCallExpr *Call) {
  const CatalogueEntry *Entry = Ctx.Catalogue.classify(Call);
  if (!Entry || Entry->Role != CallRole::OutputBinding || Entry->Arg < 0 ||
      static_cast<unsigned>(Entry->Arg) >= Call->getNumArgs())
    return;
  bool Exact;
  const ValueDecl *Options =
      targetDecl(Call->getImplicitObjectArgument(), Exact);
  const ValueDecl *Buffer = targetDecl(Call->getArg(Entry->Arg), Exact);
  if (!Options || !Buffer || Options == Buffer)
    return;
  auto &Bound = Aliases[Options];
  if (!llvm::is_contained(Bound, Buffer))
    Bound.push_back(Buffer);
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

/// Whether a library function given \p T to write writes data the caller
/// reads back: numbers, characters, an untyped buffer, a string or a
/// sequence of them; not a handle such as a FILE or a stream, whose state
/// the call changes without the caller reading it.
static bool isPlainData(QualType T) {
  if (T.isNull() || T.isConstQualified())
    return false;
  if (T->isVoidType() || T->isArithmeticType() || T->isEnumeralType() ||
      T->isPointerType())
    return true;
  return isStdSequence(T->getAsCXXRecordDecl());
}

void forEachAssigned(const Stmt *S, AnalysisContext &Ctx,
                     llvm::function_ref<void(const ValueDecl *, bool)> Fn) {
  bool Exact;
  auto Emit = [&](const Expr *E) {
    if (const ValueDecl *D = targetDecl(E, Exact))
      Fn(D, isSequenceElement(E));
  };
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (BO->isAssignmentOp())
      Emit(BO->getLHS());
    return;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
    if (UO->isIncrementDecrementOp())
      Emit(UO->getSubExpr());
    return;
  }
  if (const auto *OCE = dyn_cast<CXXOperatorCallExpr>(S)) {
    OverloadedOperatorKind K = OCE->getOperator();
    if ((OCE->isAssignmentOp() || K == OO_PlusPlus || K == OO_MinusMinus) &&
        OCE->getNumArgs() > 0) {
      Emit(OCE->getArg(0));
      return;
    }
  }
  const auto *Call = dyn_cast<CallExpr>(S);
  if (!Call || Ctx.Catalogue.classify(Call))
    return;
  if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(Call)) {
    const CXXMethodDecl *MD = MCE->getMethodDecl();
    // Grown or shrunk under a rank-dependent condition, its length differs
    // between ranks after the join, like a variable assigned there
    // (`if (p.grad().defined()) grads.push_back(p.grad());`).
    if (MD && !MD->isConst() &&
        (isContainerUpdate(MD) || (MD->getDeclName().isIdentifier() &&
                                   changesLength(MD->getName())))) {
      Emit(MCE->getImplicitObjectArgument());
      return;
    }
  }
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee)
    return;
  if (Callee->getDeclName().isIdentifier() &&
      (Callee->getName() == "MPI_Comm_split" ||
       Callee->getName() == "ncclCommSplit") &&
      Call->getNumArgs() > 3) {
    Emit(Call->getArg(3));
    return;
  }
  const DepSummary *Summary = nullptr;
  const FunctionDecl *Def = withSummary(Callee, Ctx);
  if (Def)
    Summary = Ctx.Facts.summary(Def);
  else if (Dispatch D = dispatchOf(Call, Ctx); D.Summary) {
    Summary = D.Summary;
    Def = D.Method;
  }
  // A library function writes what it is given to write to: `fscanf(f,
  // "%d", &steps)`, `fread(buf, ...)`, `std::getline(in, line)` under
  // `if (rank == 0)` leave the others' values as they were.
  if (!Summary && !isa<CXXOperatorCallExpr>(Call) &&
      Ctx.isLibraryDecl(Callee)) {
    for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
      const Expr *Arg = Call->getArg(I);
      if (I >= Callee->getNumParams()) {
        // A variadic argument is an output only as an address (scanf).
        const auto *Addr = dyn_cast<UnaryOperator>(Arg->IgnoreParenImpCasts());
        if (Addr && Addr->getOpcode() == UO_AddrOf)
          Emit(Addr->getSubExpr());
        continue;
      }
      QualType T = Callee->getParamDecl(I)->getType();
      // Not what a variadic template forwards (`std::format("{}", n)`).
      if ((T->isPointerType() || T->isReferenceType()) &&
          isPlainData(T->getPointeeType()) && !isForwardingParameter(Callee, I))
        Emit(Arg);
    }
    return;
  }
  if (Summary) {
    auto Args = parameterArgs(Call, Def);
    for (const auto &[Index, Written] : Summary->Writes)
      if (Index < Args.size())
        Emit(Args[Index]);
    // The globals and only objects' fields it writes on every way through
    // (`if (rank == 0) readParams(path);` with no broadcast after it), not
    // those it may leave alone: a lazy initialisation (`if (!registry)
    // registry = new ...;`) that rank 0 runs again builds what the others
    // built.
    for (const auto &[Target, Left] : Summary->Outliving)
      if (Left)
        Fn(Target, false);
  }
}

/// The function whose call \p Anchor writes what it assigns (`readConfig` in
/// `if (rank == 0) readConfig(path);`), or empty for an assignment and for a
/// standard container's own update.
static std::string assigningCallee(const Stmt *Anchor) {
  const auto *Call = dyn_cast<CallExpr>(Anchor);
  if (!Call || isa<CXXOperatorCallExpr>(Call))
    return "";
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || !Callee->getDeclName().isIdentifier())
    return "";
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Callee))
    if (MD->getParent()->isInStdNamespace())
      return "";
  return Callee->getName().str();
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
    llvm::DenseMap<const ValueDecl *, size_t> Seen;
    std::vector<Assignment> &List = Assigned[Branch];
    for (const CFGBlock *X : Blocks)
      for (const CFGElement &Elem : *X) {
        auto S = Elem.getAs<CFGStmt>();
        if (!S)
          continue;
        forEachAssigned(
            S->getStmt(), Ctx, [&](const ValueDecl *Target, bool ElementOnly) {
              auto [It, New] = Seen.try_emplace(Target, List.size());
              if (!New) {
                if (It->second < List.size())
                  List[It->second].ElementsOnly &= ElementOnly;
                return;
              }
              // A variable declared inside the region only exists
              // on one side.
              if (const auto *VD = dyn_cast<VarDecl>(Target)) {
                auto Decl = DeclBlocks.find(VD);
                if (Decl != DeclBlocks.end() && InRegion(Decl->second)) {
                  It->second = SIZE_MAX;
                  return;
                }
              }
              List.push_back({Target, S->getStmt(), ElementOnly});
            });
      }
  }
}

const PublishingBranch *RankUniformity::publishing(const CFGBlock *Branch,
                                                   const CFGBlock *Join) {
  auto [It, New] = Publishing.try_emplace(Branch);
  if (New) {
    auto IsRank = [&](const Expr *E) {
      if (!isPlainValue(E))
        return false;
      Dep D = divergenceAt(Branch, E);
      return D.divergent() && D.Why->ExactRank;
    };
    It->second = publishingBranch(Branch, Join, RPO, IsRank, Ctx);
    if (It->second) {
      for (const CFGBlock *Merge : It->second->Merges) {
        MergesAt[Merge].push_back(Branch);
        ++MergeCount;
      }
      if (It->second->BothReturn)
        MirroredReturns.insert(Branch);
    }
  }
  return It->second ? &*It->second : nullptr;
}

std::optional<Dep> RankUniformity::publishedValue(const Assignment &A,
                                                  const CFGBlock *At,
                                                  const CFGBlock *Branch,
                                                  const PublishingBranch &P) {
  // What the other ranks hold on every way into the join (or where the
  // sides meet) from their side; past where they met, the root's value has
  // been replaced by theirs.
  bool Any = false, AllSynced = true;
  Dep Joined;
  for (const CFGBlock *Pred : At->preds()) {
    if (!Pred || !Visited[Pred->getBlockID()] ||
        !(P.OtherSide.contains(Pred) || P.Shared.contains(Pred)))
      continue;
    Any = true;
    const DivergenceState &From = Out[Pred->getBlockID()];
    auto Held = From.find(A.Target);
    if (Held != From.end() && isSynced(Held->second))
      continue;
    Evaluator Eval(Ctx, FD, From, Fallbacks);
    Dep Value = Eval.declDivergence(A.Target);
    AllSynced = false;
    if (Value.divergent())
      return std::nullopt;
    // Still conditional on the function's inputs (a pointer parameter's
    // placeholder, for one).
    Joined = join(Joined, Value);
  }
  // A plain copy of what was received is the root's only if the root copied
  // it into the buffer before the broadcast: Transfer::copy knows that, and
  // the join keeps what both sides synchronised.
  if (!Any || AllSynced || !writtenFromData(A.Target, Branch, P.OtherSide))
    return std::nullopt;
  return Joined;
}

bool RankUniformity::writtenFromData(
    const ValueDecl *Target, const CFGBlock *Branch,
    const llvm::DenseSet<const CFGBlock *> &Blocks) {
  auto [Cached, New] = FromDataCache.try_emplace({Branch, Target}, false);
  if (!New)
    return Cached->second;
  for (const CFGBlock *B : Blocks)
    for (const CFGElement &Elem : *B) {
      auto S = Elem.getAs<CFGStmt>();
      if (!S)
        continue;
      // `is_root = false`: a constant is not something received.
      const auto *BO = dyn_cast<BinaryOperator>(S->getStmt());
      const Expr *RHS = BO && BO->getOpcode() == BO_Assign
                            ? BO->getRHS()->IgnoreParenImpCasts()
                            : nullptr;
      bool Constant = RHS && !RHS->containsErrors() &&
                      !RHS->isValueDependent() && RHS->isEvaluatable(Ctx.AST);
      bool Writes = false;
      forEachAssigned(S->getStmt(), Ctx,
                      [&](const ValueDecl *D, bool) { Writes |= D == Target; });
      if (Writes && !Constant)
        return Cached->second = true;
    }
  return false;
}

void RankUniformity::applyJoins(DivergenceState &State, const CFGBlock *Join,
                                llvm::ArrayRef<ControllingBranch> Branches) {
  Evaluator Eval(Ctx, FD, State, Fallbacks);
  for (const ControllingBranch &Branch : Branches) {
    auto It = Assigned.find(Branch.Branch);
    if (It == Assigned.end())
      continue;
    const PublishingBranch *Publisher = publishing(Branch.Branch, Join);
    bool Placement = isPlacementTest(
        dyn_cast_or_null<Expr>(Branch.Branch->getTerminatorCondition()),
        Ctx.AST);
    for (const Assignment &A : It->second) {
      // Where the data goes: the objects assigned on either side hold the
      // same data (see isPlacementOnly).
      if (Placement && describesPlacedData(A.Target))
        continue;
      // Synchronised on every way into the join after its last assignment
      // (both sides broadcast it): the same on every rank.
      auto Now = State.find(A.Target);
      if (Now != State.end() && isSynced(Now->second))
        continue;
      // Set by the other ranks from what the root broadcast them: what the
      // root holds.
      if (Publisher)
        if (std::optional<Dep> Published =
                publishedValue(A, Join, Branch.Branch, *Publisher)) {
          hold(State, Outliving, A.Target, *Published);
          continue;
        }
      Dep Current = Eval.declDivergence(A.Target);
      if (Current.divergent())
        continue;
      const Origin *Why = Ctx.origin(
          Branch.Branch, A.Target, A.Anchor->getBeginLoc(),
          [&] {
            std::string By = assigningCallee(A.Anchor);
            return By.empty()
                       ? fmt::format("'{}' is assigned under a rank-dependent "
                                     "condition here",
                                     declName(A.Target))
                       : fmt::format("'{}' is assigned by '{}' under a "
                                     "rank-dependent condition here",
                                     declName(A.Target), By);
          },
          Branch.Why.Why, /*FromControl=*/true);
      // Only elements written alike on every rank: the length is uniform.
      if (A.ElementsOnly && keepsLength(Current, Dep(Why)))
        const_cast<Origin *>(Why)->ElementsOnly = true;
      Dep Value = Branch.Why.divergent()
                      ? Dep(Why)
                      : Dep(Why, Branch.Why.Params, Branch.Why.EnvKeys);
      Value = join(Current, Value);
      hold(State, Outliving, A.Target, Value);
    }
  }
}

size_t RankUniformity::memoryBytes() const {
  size_t Bytes = Out.capacity() * sizeof(DivergenceState);
  for (const DivergenceState &S : Out)
    Bytes += S.getMemorySize();
  return Bytes;
}

uint64_t RankUniformity::run(const ControlDivergence &Control,
                             const JoinPoints &Joins) {
  constexpr unsigned MaxPasses = 24;
  uint64_t Transfers = 0;
  Fallbacks.clear();
  Calls.clear();
  Escapes.clear();
  collectAssigned(Control);
  Publishing.clear();
  MergesAt.clear();
  MergeCount = 0;
  MirroredReturns.clear();
  FromDataCache.clear();
  for (DivergenceState &S : Out)
    S.clear();
  Visited.assign(Visited.size(), false);
  Outliving.clear();
  Recording Rec{Dep(),  &Calls,     &Escapes,         &MirroredReturns,
                &Fresh, &Outliving, ValueReturns == 1};
  // A pass transfers only the blocks whose input may have changed since
  // their last transfer: a predecessor's state did, or a publishing branch
  // was found to merge there. The others would give what they gave, so
  // each pass ends with the states a full pass would. The last pass, which
  // changes nothing, is a full one: it records the result (every return,
  // with what is known of publishing branches by then).
  std::vector<char> Pending(Out.size(), true);
  size_t MergesKnown = 0;
  bool Full = true;
  for (unsigned Pass = 0; Pass < MaxPasses; ++Pass) {
    bool Changed = false;
    if (Pass + 1 == MaxPasses)
      Full = true;
    Rec.Return = Dep();
    for (const CFGBlock *B : RPO) {
      unsigned Id = B->getBlockID();
      if (!Full && !Pending[Id])
        continue;
      Pending[Id] = false;
      ++Transfers;
      DivergenceState State;
      bool First = true;
      Evaluator JoinEval(Ctx, FD, State, Fallbacks);
      for (const CFGBlock *Pred : B->preds()) {
        // A path that ends the job with an error (an assertion's failure,
        // abort, MPI_Abort) leaves nobody waiting: what it held does not
        // reach the function's exit as a value the ranks disagree on.
        if (!Pred || !Visited[Pred->getBlockID()] ||
            (B->getBlockID() == ExitId && Failures.failsIn(Pred)))
          continue;
        joinInto(State, Out[Pred->getBlockID()], First, JoinEval);
        First = false;
      }
      auto Controlled = Control.find(B);
      // Where a publishing branch's sides meet before its join: the root
      // holds what the others set from what it sent them.
      if (auto Merging = MergesAt.find(B); Merging != MergesAt.end())
        for (const CFGBlock *Branch : Merging->second) {
          auto Assignments = Assigned.find(Branch);
          if (Assignments == Assigned.end())
            continue;
          const PublishingBranch &P = *Publishing.find(Branch)->second;
          for (const Assignment &A : Assignments->second)
            if (std::optional<Dep> Published = publishedValue(A, B, Branch, P))
              hold(State, Outliving, A.Target, *Published);
        }
      auto Joined = Joins.find(B);
      if (Joined != Joins.end())
        applyJoins(State, B, Joined->second);
      // After a loop every rank ran alike, what it sent in chunks.
      if (auto Chunked = ChunkedExits.find(B); Chunked != ChunkedExits.end()) {
        const CFGBlock *Test = Chunked->second.Test;
        Evaluator TestEval(Ctx, FD, Out[Test->getBlockID()], Fallbacks);
        if (!TestEval.eval(branchCondition(Test)).divergent())
          for (const VarDecl *Buffer : Chunked->second.Buffers)
            State[Buffer] = Synced;
      }
      Transfer T(Ctx, FD, State,
                 Controlled == Control.end() ? nullptr : &Controlled->second,
                 Aliases, Fallbacks, Rec);
      for (const CFGElement &Elem : *B)
        T.element(Elem);
      if (!Visited[Id] || State != Out[Id]) {
        Out[Id] = std::move(State);
        Visited[Id] = true;
        Changed = true;
        for (const CFGBlock *Succ : B->succs())
          if (Succ)
            Pending[Succ->getBlockID()] = true;
      }
      if (MergeCount != MergesKnown) {
        MergesKnown = MergeCount;
        for (const auto &Entry : MergesAt)
          Pending[Entry.first->getBlockID()] = true;
      }
    }
    if (!Changed && Full)
      break;
    Full = !Changed;
  }
  // What the function leaves in fields and globals, for the functions that
  // run after it (and for its next call).
  if (Visited[ExitId])
    publishOutliving(Out[ExitId], Outliving.getArrayRef(), Ctx, Escapes);
  Branches.clear();
  for (const CFGBlock *B : RPO) {
    const Expr *Cond = branchCondition(B);
    if (!Cond || B->succ_size() < 2)
      continue;
    Evaluator Eval(Ctx, FD, Out[B->getBlockID()], Fallbacks);
    if (Dep O = Eval.eval(Cond); O.any())
      Branches[B] = O;
  }
  // The summary: the result, and what the parameters the caller can see
  // through hold when the function returns.
  Summary = DepSummary();
  Summary.Return = Rec.Return;
  if (FD && Visited[ExitId]) {
    const DivergenceState &AtExit = Out[ExitId];
    for (unsigned I = 0; I < FD->getNumParams(); ++I) {
      const ParmVarDecl *Param = FD->getParamDecl(I);
      if (!isOutParameter(Param))
        continue;
      auto It = AtExit.find(Param);
      if (It == AtExit.end())
        continue;
      bool Success = !isSynced(It->second) && syncedOnSuccess(Param);
      Summary.Writes.push_back({I, Success ? Synced : It->second});
    }
    // Only what names one location: a global, or the field of a class's
    // only object (a field of many objects is written for one of them).
    for (const ValueDecl *D : Outliving) {
      const auto *Field = dyn_cast<FieldDecl>(D);
      if (Field && !Ctx.soleObject(Field->getParent()))
        continue;
      auto It = AtExit.find(D);
      Summary.Outliving.push_back(
          {D, It == AtExit.end() ? std::nullopt : std::optional(It->second)});
    }
  }
  return Transfers;
}

/// The integer \p B returns, when it ends in `return <constant>`.
static std::optional<int64_t> returnedStatus(const CFGBlock *B,
                                             const ASTContext &AST) {
  for (auto It = B->rbegin(); It != B->rend(); ++It) {
    std::optional<CFGStmt> S = It->getAs<CFGStmt>();
    if (!S)
      continue;
    const auto *Return = dyn_cast<ReturnStmt>(S->getStmt());
    if (!Return || !Return->getRetValue())
      return std::nullopt;
    const Expr *Value = Return->getRetValue();
    if (Value->containsErrors() || Value->isValueDependent())
      return std::nullopt;
    Expr::EvalResult Result;
    if (!Value->EvaluateAsInt(Result, AST))
      return std::nullopt;
    return Result.Val.getInt().getExtValue();
  }
  return std::nullopt;
}

/// The collectives \p S runs every time it runs: not those under a
/// condition, in a nested loop or in a lambda.
static void unconditionalCalls(const Stmt *S,
                               llvm::SmallVectorImpl<const CallExpr *> &Out) {
  if (!S || isa<IfStmt>(S) || isa<SwitchStmt>(S) || loopBody(S) ||
      isa<AbstractConditionalOperator>(S) || isa<LambdaExpr>(S))
    return;
  if (const auto *Logical = dyn_cast<BinaryOperator>(S))
    if (Logical->isLogicalOp()) {
      unconditionalCalls(Logical->getLHS(), Out);
      return;
    }
  if (const auto *Call = dyn_cast<CallExpr>(S))
    Out.push_back(Call);
  for (const Stmt *Child : S->children())
    unconditionalCalls(Child, Out);
}

void RankUniformity::collectChunkedLoops() {
  // `while (remaining > 0) { MPI_Bcast((char *)buf + offset, n, ...); ... }`:
  // every iteration sends the next chunk, and a loop that runs alike on
  // every rank sends them all; it runs no iteration only when there is
  // nothing to send. Only a loop left by its test alone (no break).
  for (const CFGBlock *Test : RPO) {
    const Stmt *Body = loopBody(Test->getTerminatorStmt());
    if (!Body || Test->succ_size() != 2 || !branchCondition(Test))
      continue;
    const CFGBlock *After = *(Test->succ_begin() + 1);
    if (!After || After->pred_size() != 1)
      continue;
    llvm::SmallVector<const CallExpr *, 4> Calls;
    unconditionalCalls(Body, Calls);
    ChunkedLoop Loop{Test, {}};
    for (const CallExpr *Call : Calls) {
      const CatalogueEntry *Entry = Ctx.Catalogue.classify(Call);
      if (!Entry || !isCollectiveRole(Entry->Role) || Entry->Arg < 0 ||
          static_cast<unsigned>(Entry->Arg) >= Call->getNumArgs())
        continue;
      bool Exact;
      const auto *Buffer = dyn_cast_or_null<VarDecl>(
          targetDecl(Call->getArg(Entry->Arg), Exact));
      if (Buffer && !llvm::is_contained(Loop.Buffers, Buffer))
        Loop.Buffers.push_back(Buffer);
    }
    if (!Loop.Buffers.empty())
      ChunkedExits[After] = std::move(Loop);
  }
}

bool RankUniformity::syncedOnSuccess(const ParmVarDecl *Param) const {
  // `if (cudaDev >= devices) return testNotImplemented; ... MPI_Allreduce(
  // maxMem, ...); return testSuccess;`: the caller is told when the value
  // was not synchronised, and goes on with it only on success.
  std::optional<int64_t> Success;
  llvm::SmallVector<int64_t, 2> Failed;
  for (const CFGBlock *Pred : Exit->preds()) {
    if (!Pred || !Visited[Pred->getBlockID()] || Failures.failsIn(Pred))
      continue;
    std::optional<int64_t> Status = returnedStatus(Pred, Ctx.AST);
    if (!Status)
      return false;
    const DivergenceState &State = Out[Pred->getBlockID()];
    auto It = State.find(Param);
    if (It == State.end() || !isSynced(It->second)) {
      Failed.push_back(*Status);
      continue;
    }
    if (Success && *Success != *Status)
      return false;
    Success = Status;
  }
  return Success && !Failed.empty() && !llvm::is_contained(Failed, *Success);
}

bool isStdMove(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  return FD && Call->getNumArgs() == 1 && FD->isInStdNamespace() &&
         FD->getDeclName().isIdentifier() &&
         (FD->getName() == "move" || FD->getName() == "forward");
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
