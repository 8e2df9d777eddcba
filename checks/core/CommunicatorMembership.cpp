//===--- CommunicatorMembership.cpp - Conditions a communicator's members share //

#include "core/CommunicatorMembership.h"
#include "core/AnalysisContext.h"
#include "core/BrokenCode.h"
#include "core/ClassHierarchy.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace ddp {

/// True if \p T is, through typedefs, one named \p Names.
static bool isTypedefNamed(QualType T,
                           std::initializer_list<llvm::StringRef> Names) {
  if (T.isNull())
    return false;
  T = T.getNonReferenceType();
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    const auto *Typedef = T->getAs<TypedefType>();
    if (!Typedef)
      return false;
    const TypedefNameDecl *D = Typedef->getDecl();
    if (D->getDeclName().isIdentifier() &&
        llvm::is_contained(Names, D->getName()))
      return true;
    T = D->getUnderlyingType();
  }
  return false;
}

/// True for a pointer or smart pointer to a gloo::Context (or a class derived
/// from it, gloo::rendezvous::Context): Gloo's communicator.
static bool isGlooContextHandle(QualType T) {
  if (T.isNull())
    return false;
  T = T.getNonReferenceType();
  const CXXRecordDecl *RD = nullptr;
  if (T->isPointerType()) {
    RD = T->getPointeeType()->getAsCXXRecordDecl();
  } else if (const auto *Spec =
                 dyn_cast_or_null<ClassTemplateSpecializationDecl>(
                     T->getAsCXXRecordDecl())) {
    if (Spec->getDeclName().isIdentifier() &&
        (Spec->getName() == "shared_ptr" || Spec->getName() == "unique_ptr") &&
        Spec->getTemplateArgs().size() > 0 &&
        Spec->getTemplateArgs()[0].getKind() == TemplateArgument::Type)
      RD = Spec->getTemplateArgs()[0].getAsType()->getAsCXXRecordDecl();
  }
  // By name, not by the qualified string: this runs for every parameter
  // of every call.
  return RD && isOrDerivesFrom(RD, [](const CXXRecordDecl *Base) {
           const auto *NS = dyn_cast<NamespaceDecl>(Base->getDeclContext());
           return Base->getIdentifier() && Base->getName() == "Context" && NS &&
                  NS->getIdentifier() && NS->getName() == "gloo" &&
                  NS->getDeclContext()->getRedeclContext()->isTranslationUnit();
         });
}

bool isCommunicatorType(QualType T) {
  return isTypedefNamed(T, {"MPI_Comm", "ncclComm_t", "MPI_Win"}) ||
         isGlooContextHandle(T);
}

/// The communicator an options object was built for: `ctx` in
/// `gloo::AllgatherOptions opts(ctx); gloo::allgather(opts);`.
static const Expr *communicatorOfOptions(const Expr *Arg) {
  const auto *Ref = dyn_cast<DeclRefExpr>(Arg->IgnoreParenImpCasts());
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var || !Var->hasLocalStorage() || !Var->getType()->isRecordType() ||
      !Var->getInit())
    return nullptr;
  const auto *Construct =
      dyn_cast<CXXConstructExpr>(Var->getInit()->IgnoreImplicit());
  if (!Construct || Construct->getNumArgs() == 0 ||
      !isCommunicatorType(Construct->getArg(0)->getType()))
    return nullptr;
  return Construct->getArg(0);
}

bool isWindowType(QualType T) { return isTypedefNamed(T, {"MPI_Win"}); }

bool isStreamType(QualType T) {
  return isTypedefNamed(T, {"cudaStream_t", "cudaEvent_t", "CUstream",
                            "CUevent", "hipStream_t", "hipEvent_t"});
}

const Expr *communicatorOf(const CallExpr *Call, bool Catalogued) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee)
    return nullptr;
  const Expr *Found = nullptr;
  for (unsigned I = 0; I < Callee->getNumParams() && I < Call->getNumArgs();
       ++I) {
    // By value, or by address (MPI_Comm_free(&comm) frees it collectively).
    QualType T = Callee->getParamDecl(I)->getType();
    if (!isCommunicatorType(T) &&
        !(T->isPointerType() && isCommunicatorType(T->getPointeeType()))) {
      if (Catalogued)
        if (const Expr *Comm = communicatorOfOptions(Call->getArg(I)))
          return Comm;
      continue;
    }
    // A collective runs on its (first) communicator; a helper given two
    // could use either.
    if (Catalogued)
      return Call->getArg(I);
    if (Found)
      return nullptr;
    Found = Call->getArg(I);
  }
  return Found;
}

static const Expr *stripObject(const Expr *E) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    const auto *UO = dyn_cast<UnaryOperator>(E);
    if (!UO || (UO->getOpcode() != UO_AddrOf && UO->getOpcode() != UO_Deref))
      return E;
    E = UO->getSubExpr();
  }
  return E;
}

bool sameObject(const Expr *A, const Expr *B) {
  A = stripObject(A);
  B = stripObject(B);
  if (!A || !B)
    return false;
  if (isa<CXXThisExpr>(A) && isa<CXXThisExpr>(B))
    return true;
  if (const auto *RA = dyn_cast<DeclRefExpr>(A)) {
    const auto *RB = dyn_cast<DeclRefExpr>(B);
    return RB && RA->getDecl()->getCanonicalDecl() ==
                     RB->getDecl()->getCanonicalDecl();
  }
  if (const auto *MA = dyn_cast<MemberExpr>(A)) {
    const auto *MB = dyn_cast<MemberExpr>(B);
    return MB && MA->getMemberDecl() == MB->getMemberDecl() &&
           sameObject(MA->getBase(), MB->getBase());
  }
  if (const auto *SA = dyn_cast<ArraySubscriptExpr>(A)) {
    const auto *SB = dyn_cast<ArraySubscriptExpr>(B);
    return SB && sameObject(SA->getBase(), SB->getBase()) &&
           sameObject(SA->getIdx(), SB->getIdx());
  }
  return false;
}

/// The object a field belongs to: `info` for `info->rank`.
static const Expr *ownerOf(const Expr *E) {
  const auto *Member = dyn_cast_or_null<MemberExpr>(stripObject(E));
  return Member ? Member->getBase() : nullptr;
}

CommunicatorMembership::CommunicatorMembership(const FunctionDecl *FD,
                                               AnalysisContext &Ctx)
    : Ctx(Ctx) {
  if (FD)
    collect(FD->getBody());
}

void CommunicatorMembership::collect(const Stmt *S) {
  if (!S)
    return;
  for (const Stmt *Child : S->children())
    collect(Child);
  const auto *Call = dyn_cast<CallExpr>(S);
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  if (!Callee)
    return;
  // A rank source with an out-parameter and a communicator gives the rank
  // in that communicator.
  if (const CatalogueEntry *Entry = Ctx.Catalogue.classify(Callee))
    if (Entry->Role == CallRole::RankSource && Entry->Arg >= 0 &&
        static_cast<unsigned>(Entry->Arg) < Call->getNumArgs())
      if (const Expr *Comm = communicatorOf(Call, true))
        RanksIn.push_back({Call->getArg(Entry->Arg), Comm});
  if (!Callee->getDeclName().isIdentifier())
    return;
  // The colour decides which communicator a rank gets; MPI_UNDEFINED gets
  // none.
  llvm::StringRef Name = Callee->getName();
  unsigned Out = Name == "MPI_Comm_split" || Name == "ncclCommSplit" ? 3
                 : Name == "MPI_Comm_split_type"                     ? 4
                                                                     : 0;
  if (Out && Call->getNumArgs() > Out)
    SplitBy.push_back({Call->getArg(1), Call->getArg(Out)});
}

/// True if a macro named \p Name produced \p E (looking through the macros
/// it is expanded in).
static bool spelledAs(const Expr *E, llvm::StringRef Name, ASTContext &AST) {
  const SourceManager &SM = AST.getSourceManager();
  SourceLocation Loc = E->getBeginLoc();
  for (unsigned Depth = 0; Loc.isMacroID() && Depth < 16; ++Depth) {
    if (Lexer::getImmediateMacroName(Loc, SM, AST.getLangOpts()) == Name)
      return true;
    Loc = SM.getImmediateMacroCallerLoc(Loc);
  }
  return false;
}

bool isSelfCommunicator(const Expr *Comm, ASTContext &AST) {
  return spelledAs(Comm, "MPI_COMM_SELF", AST);
}

bool CommunicatorMembership::isNullCommunicator(const Expr *E) const {
  return E->isNullPointerConstant(Ctx.AST, Expr::NPC_ValueDependentIsNotNull) ||
         spelledAs(E, "MPI_COMM_NULL", Ctx.AST);
}

bool CommunicatorMembership::isRankIn(const Expr *Rank,
                                      const Expr *Comm) const {
  bool Known = false;
  for (const auto &[R, C] : RanksIn) {
    if (!sameObject(R, Rank))
      continue;
    if (sameObject(C, Comm))
      return true;
    Known = true;
  }
  // Where the function does not show which communicator the rank is in, a
  // rank kept in one object with a communicator is taken as the rank in it
  // (`info->rank` and `info->comm`).
  if (Known)
    return false;
  const Expr *Owner = ownerOf(Rank);
  return Owner && sameObject(Owner, ownerOf(Comm));
}

/// Strips parentheses, implicit conversions and negations: `!(x)` is the
/// same on every member when x is. \p Negated, if given, is flipped once
/// per negation.
static const Expr *stripCondition(const Expr *E, bool *Negated = nullptr) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    const auto *Not = dyn_cast<UnaryOperator>(E);
    if (!Not || Not->getOpcode() != UO_LNot)
      return E;
    if (Negated)
      *Negated = !*Negated;
    E = Not->getSubExpr();
  }
  return E;
}

namespace {
/// A comparison read with one operand as its subject: `-1 != rank` is also
/// `rank != -1`.
struct Oriented {
  const Expr *Subject;
  const Expr *Other;
  BinaryOperatorKind Op;
};
} // namespace

/// Both readings of \p Cond if it is a comparison, else none.
static llvm::SmallVector<Oriented, 2> orientations(const Expr *Cond) {
  const Expr *L, *R;
  BinaryOperatorKind Op;
  if (const auto *BO = dyn_cast<BinaryOperator>(Cond)) {
    if (!BO->isComparisonOp())
      return {};
    L = BO->getLHS();
    R = BO->getRHS();
    Op = BO->getOpcode();
  } else if (const auto *OCE = dyn_cast<CXXOperatorCallExpr>(Cond)) {
    // `ctx != nullptr` on a std::shared_ptr.
    if (OCE->getNumArgs() != 2 || (OCE->getOperator() != OO_EqualEqual &&
                                   OCE->getOperator() != OO_ExclaimEqual))
      return {};
    L = OCE->getArg(0);
    R = OCE->getArg(1);
    Op = OCE->getOperator() == OO_EqualEqual ? BO_EQ : BO_NE;
  } else {
    return {};
  }
  L = L->IgnoreParenImpCasts();
  R = R->IgnoreParenImpCasts();
  return {{L, R, Op}, {R, L, BinaryOperator::reverseComparisonOp(Op)}};
}

bool CommunicatorMembership::sharedByMembers(const Expr *Cond,
                                             const Expr *Comm) const {
  Cond = stripCondition(Cond);
  if (!Cond || !Comm)
    return false;
  // `if (comm)` on a handle, `if (colour)`.
  if (isCommunicatorType(Cond->getType()) && sameObject(Cond, Comm))
    return true;
  for (const auto &[Colour, Split] : SplitBy)
    if (sameObject(Colour, Cond) && sameObject(Split, Comm))
      return true;
  // The communicator against the null communicator: only members hold it.
  if (auto Test = nullTest(Cond))
    return sameObject(Test->first, Comm);
  for (const auto &[Subject, Other, Op] : orientations(Cond)) {
    std::optional<llvm::APSInt> Value;
    if (Other->HasSideEffects(Ctx.AST) ||
        !(Value = evaluateInt(Other, Ctx.AST)))
      continue;
    // The colour against a constant: each communicator the split makes
    // holds the ranks of one colour.
    for (const auto &[Colour, Split] : SplitBy)
      if (sameObject(Colour, Subject) && sameObject(Split, Comm))
        return true;
    // The rank in the communicator against "no rank": a rank is never
    // negative, so `rank != -1` (MPI_UNDEFINED, MPI_PROC_NULL) and
    // `rank >= 0` hold exactly on the members.
    const llvm::APSInt &V = *Value;
    bool NoRank = V.isNegative() ||
                  (V == 0 && (Op == BO_GE || Op == BO_LT));
    if (NoRank && isRankIn(Subject, Comm))
      return true;
  }
  return false;
}

std::optional<bool>
CommunicatorMembership::nonMemberOutcome(const Expr *Cond,
                                         const Expr *Comm) const {
  bool Negated = false;
  Cond = stripCondition(Cond, &Negated);
  if (!Cond || !Comm)
    return std::nullopt;
  auto Outcome = [&](bool NonMember) -> std::optional<bool> {
    return NonMember != Negated;
  };
  // `if (comm)`: non-members hold the null handle.
  if (isCommunicatorType(Cond->getType()))
    return sameObject(Cond, Comm) ? Outcome(false) : std::nullopt;
  if (auto Test = nullTest(Cond))
    return sameObject(Test->first, Comm) ? Outcome(Test->second) : std::nullopt;
  for (const auto &[Subject, Other, Op] : orientations(Cond)) {
    if (Other->HasSideEffects(Ctx.AST) || !isRankIn(Subject, Comm))
      continue;
    std::optional<llvm::APSInt> Value = evaluateInt(Other, Ctx.AST);
    if (!Value)
      continue;
    // A member's rank is never negative: `rank == -1`, `rank < 0` and
    // `rank <= -1` hold only outside, their negations only inside.
    const llvm::APSInt &V = *Value;
    if (V.isNegative() && (Op == BO_EQ || Op == BO_NE))
      return Outcome(Op == BO_EQ);
    if (V.isZero() && (Op == BO_LT || Op == BO_GE))
      return Outcome(Op == BO_LT);
    if (V == -1 && (Op == BO_LE || Op == BO_GT))
      return Outcome(Op == BO_LE);
  }
  return std::nullopt;
}

std::optional<std::pair<const Expr *, bool>>
CommunicatorMembership::nullTest(const Expr *Cond) const {
  bool Negated = false;
  Cond = stripCondition(Cond, &Negated);
  if (!Cond)
    return std::nullopt;
  // `if (comm)` on a handle whose null value is a null pointer (Open MPI's
  // MPI_COMM_NULL is the address of an object).
  if (isCommunicatorType(Cond->getType()))
    return isTypedefNamed(Cond->getType(), {"MPI_Comm", "MPI_Win"})
               ? std::nullopt
               : std::make_optional(std::make_pair(Cond, Negated));
  for (const auto &[Subject, Other, Op] : orientations(Cond))
    if ((Op == BO_EQ || Op == BO_NE) &&
        isCommunicatorType(Subject->getType()) && isNullCommunicator(Other))
      return std::make_pair(Subject, (Op == BO_EQ) != Negated);
  return std::nullopt;
}

} // namespace ddp
