//===--- PointToPointOrder.cpp - Exchanges where ranks receive first ------===//

#include "core/PointToPointOrder.h"
#include "core/BrokenCode.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/MathExtras.h"
#include <cstdint>
#include <optional>

using namespace clang;

namespace ddp {
namespace {

/// What a call does in an exchange.
enum class P2pKind {
  None,
  Send,
  /// Blocks until a message from its source arrives (MPI_Recv, MPI_Probe).
  BlockingRecv,
  /// Posts a receive; it blocks where it is waited for (MPI_Irecv's
  /// request, c10d's Work).
  PostedRecv,
  /// Waits for the requests given (MPI_Wait, MPI_Waitall).
  Wait,
};

struct CallKind {
  P2pKind K = P2pKind::None;
  std::string Name;
  /// A receive's source rank (null: any source, or not known).
  const Expr *Peer = nullptr;
  /// MPI_Irecv: the request it fills; MPI_Wait(all): what it waits for.
  const Expr *Request = nullptr;
};

const Expr *argument(const CallExpr *Call, unsigned I) {
  return I < Call->getNumArgs() ? Call->getArg(I) : nullptr;
}

/// The point-to-point role of a call, by its catalogue entry. Sends of every
/// kind count (a rank that waits in a receive reaches none of them), and so
/// do the combined exchanges, which send while they receive.
CallKind classify(const CallExpr *Call, AnalysisContext &Ctx) {
  CallKind Out;
  const CatalogueEntry *Entry = Ctx.Catalogue.classify(Call);
  if (!Entry)
    return Out;
  llvm::StringRef N(Entry->Display);
  if (Entry->Role == CallRole::Local) {
    // The waits of MPI's nonblocking calls, catalogued as local.
    if (N == "MPI_Wait" || N == "MPI_Waitall") {
      Out.K = P2pKind::Wait;
      Out.Name = N.str();
      Out.Request = argument(Call, N == "MPI_Wait" ? 0 : 1);
    }
    return Out;
  }
  if (Entry->Role != CallRole::PointToPoint)
    return Out;
  Out.Name = N.str();
  if (N == "MPI_Recv" || N == "MPI_Probe") {
    Out.K = P2pKind::BlockingRecv;
    Out.Peer = argument(Call, N == "MPI_Recv" ? 3 : 0);
  } else if (N == "MPI_Irecv") {
    Out.K = P2pKind::PostedRecv;
    Out.Peer = argument(Call, 3);
    Out.Request = argument(Call, 6);
  } else if ((N.starts_with("MPI_") && N.contains_insensitive("send")) ||
             N.ends_with("send")) {
    // MPI_Send, MPI_Isend, ..., MPI_Sendrecv(_replace); c10d's send and
    // sends named by the options. (NCCL's grouped calls are not modelled.)
    Out.K = P2pKind::Send;
  } else if (N.ends_with("recv") || N == "recvAnysource") {
    // c10d's recv(tensors, srcRank, tag): blocking once its Work is waited
    // for. recvAnysource, and receives named by the options, from anyone.
    Out.K = P2pKind::PostedRecv;
    if (N == "recv" && isa<CXXMemberCallExpr>(Call))
      Out.Peer = argument(Call, 1);
  }
  return Out;
}

/// The variable a request or Work is kept in: `&req`, `&reqs[i]`, `reqs`,
/// `work`.
const ValueDecl *heldIn(const Expr *E) {
  if (!E)
    return nullptr;
  E = E->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_AddrOf)
      return heldIn(UO->getSubExpr());
  if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(E))
    return heldIn(Subscript->getBase());
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    return Ref->getDecl();
  if (const auto *Member = dyn_cast<MemberExpr>(E))
    return Member->getMemberDecl();
  return nullptr;
}

/// The object whose Work `X->wait()` or `X.get()->wait()` waits for.
const Expr *waitedWork(const CallExpr *Call) {
  const auto *Wait = dyn_cast<CXXMemberCallExpr>(Call);
  if (!Wait || !Wait->getMethodDecl() ||
      !Wait->getMethodDecl()->getDeclName().isIdentifier() ||
      Wait->getMethodDecl()->getName() != "wait")
    return nullptr;
  const Expr *Object = Wait->getImplicitObjectArgument();
  for (unsigned Depth = 0; Object && Depth < 8; ++Depth) {
    Object = Object->IgnoreImplicit();
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Object)) {
      Object = Op->getNumArgs() ? Op->getArg(0) : nullptr; // operator->
      continue;
    }
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Object))
      if (isa_and_nonnull<CXXConversionDecl>(Member->getMethodDecl()) ||
          (Member->getMethodDecl() &&
           Member->getMethodDecl()->getDeclName().isIdentifier() &&
           Member->getMethodDecl()->getName() == "get")) {
        Object = Member->getImplicitObjectArgument(); // .get()
        continue;
      }
    return Object;
  }
  return Object;
}

/// A receive that has been posted and is not yet known to be complete.
struct Posted {
  const CallExpr *Recv = nullptr;
  const Expr *Peer = nullptr;
};

/// One event of straight-line code, in evaluation order.
struct Event {
  enum Kind { Send, Wait, Opaque } K = Send;
  /// Where: the send, the blocking receive, the wait of a posted receive
  /// (the receive itself when it is waited for in the same expression,
  /// `pg->recv(...)->wait()`), or a helper that communicates.
  const CallExpr *At = nullptr;
  std::string Name;
  /// Wait: the receives waited for.
  llvm::SmallVector<Posted, 2> From;
};

/// Turns statements into events, keeping the receives posted by earlier
/// statements until they are waited for.
class EventScanner {
public:
  explicit EventScanner(AnalysisContext &Ctx) : Ctx(Ctx) {}

  /// The events of \p S's own expressions: not those of nested blocks,
  /// branches, loops or lambdas.
  llvm::SmallVector<Event, 2> statement(const Stmt *S) {
    llvm::SmallVector<Event, 2> Out;
    scan(S, Out);
    Pending.clear(); // A Work not kept in a variable is never waited for.
    return Out;
  }

  /// True for a helper of the user's whose body exchanges messages.
  bool communicates(const FunctionDecl *FD, unsigned Depth) {
    if (!FD || Depth > 3 || Ctx.isLibraryDecl(FD))
      return false;
    const FunctionDecl *Def = FD->getDefinition();
    if (!Def || !Def->getBody())
      return false;
    auto [It, New] = Memo.try_emplace(Def, false);
    if (!New)
      return It->second;
    bool Result = containsExchange(Def->getBody(), Depth);
    Memo[Def] = Result;
    return Result;
  }

private:
  void scan(const Stmt *S, llvm::SmallVectorImpl<Event> &Out) {
    if (!S || isa<LambdaExpr, CompoundStmt, IfStmt, ForStmt, WhileStmt, DoStmt,
                  CXXForRangeStmt, SwitchStmt, CXXTryStmt>(S))
      return;
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *Var = dyn_cast<VarDecl>(D); Var && Var->getInit()) {
          size_t Before = Pending.size();
          scan(Var->getInit(), Out);
          // `auto work = pg->recv(...)`: waited for later, by its name.
          for (size_t I = Before; I < Pending.size(); ++I)
            Held[Var].push_back(Pending[I]);
          Pending.resize(Before);
        }
      return;
    }
    // Children first: evaluation order of `a(b(), c())` is b, c, a.
    for (const Stmt *Child : S->children())
      scan(Child, Out);
    if (const auto *Call = dyn_cast<CallExpr>(S))
      onCall(Call, Out);
  }

  void onCall(const CallExpr *Call, llvm::SmallVectorImpl<Event> &Out) {
    if (const Expr *Work = waitedWork(Call)) {
      for (auto It = Pending.begin(); It != Pending.end(); ++It)
        if (It->Recv == Work->IgnoreImplicit()) {
          Out.push_back({Event::Wait, It->Recv, "recv", {*It}});
          Pending.erase(It);
          return;
        }
      waitFor(heldIn(Work), Call, "wait", Out);
      return;
    }
    CallKind Kind = classify(Call, Ctx);
    switch (Kind.K) {
    case P2pKind::Send:
      Out.push_back({Event::Send, Call, Kind.Name, {}});
      return;
    case P2pKind::BlockingRecv:
      Out.push_back({Event::Wait, Call, Kind.Name, {{Call, Kind.Peer}}});
      return;
    case P2pKind::PostedRecv:
      if (const ValueDecl *Request = heldIn(Kind.Request))
        Held[Request].push_back({Call, Kind.Peer});
      else
        Pending.push_back({Call, Kind.Peer});
      return;
    case P2pKind::Wait:
      waitFor(heldIn(Kind.Request), Call, Kind.Name, Out);
      return;
    case P2pKind::None:
      break;
    }
    if (communicates(Call->getDirectCallee(), 0))
      Out.push_back({Event::Opaque, Call, "", {}});
  }

  void waitFor(const ValueDecl *Var, const CallExpr *Call, llvm::StringRef Name,
               llvm::SmallVectorImpl<Event> &Out) {
    if (!Var)
      return;
    auto It = Held.find(Var);
    if (It == Held.end())
      return; // Not a receive's (a send's request: the send came first).
    Out.push_back({Event::Wait, Call, Name.str(), It->second});
    Held.erase(It);
  }

  bool containsExchange(const Stmt *S, unsigned Depth) {
    if (!S)
      return false;
    if (const auto *Call = dyn_cast<CallExpr>(S))
      if (classify(Call, Ctx).K != P2pKind::None ||
          communicates(Call->getDirectCallee(), Depth + 1))
        return true;
    for (const Stmt *Child : S->children())
      if (containsExchange(Child, Depth))
        return true;
    return false;
  }

  AnalysisContext &Ctx;
  /// c10d receives of the current statement whose Work is not kept.
  llvm::SmallVector<Posted, 2> Pending;
  /// Receives posted into a request or Work variable.
  llvm::DenseMap<const ValueDecl *, llvm::SmallVector<Posted, 2>> Held;
  llvm::DenseMap<const FunctionDecl *, bool> Memo;
};

/// True for a test of one particular rank or class of ranks: an == or !=
/// with an integer constant on one side (`rank == 0`, `rank % 2 == 1`). The
/// other ranks' part of the exchange is elsewhere.
bool testsOneRole(const Expr *Cond, ASTContext &AST) {
  if (!Cond)
    return false;
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(Cond)) {
    if (BO->isLogicalOp())
      return testsOneRole(BO->getLHS(), AST) || testsOneRole(BO->getRHS(), AST);
    if (BO->isEqualityOp())
      return isIntegerConstant(BO->getLHS(), AST) ||
             isIntegerConstant(BO->getRHS(), AST);
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(Cond))
    if (UO->getOpcode() == UO_LNot)
      return testsOneRole(UO->getSubExpr(), AST);
  return false;
}

/// True if \p S sends anywhere inside.
bool sendsIn(const Stmt *S, AnalysisContext &Ctx) {
  if (!S)
    return false;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (classify(Call, Ctx).K == P2pKind::Send)
      return true;
  for (const Stmt *Child : S->children())
    if (sendsIn(Child, Ctx))
      return true;
  return false;
}

/// Every rank of the exchange runs the same code: receive, then send.
class Finder {
public:
  Finder(const FunctionDecl *FD, AnalysisContext &Ctx) : FD(FD), Ctx(Ctx) {}

  std::vector<ReceiveFirst> run() {
    collect(FD->getBody());
    std::vector<ReceiveFirst> Out;
    // A function that sends before it receives somewhere has two roles.
    if (SendsFirstSomewhere)
      return Out;
    for (const auto &[Block, Pair] : Pairs)
      if (!escaped(Block))
        Out.push_back(Pair);
    return Out;
  }

private:
  void collect(const Stmt *S) {
    if (!S || isa<LambdaExpr>(S))
      return;
    if (const auto *Block = dyn_cast<CompoundStmt>(S))
      pairsIn(Block);
    for (const Stmt *Child : S->children())
      collect(Child);
  }

  void pairsIn(const CompoundStmt *Block) {
    // The block's events in order; stop at the first pair.
    EventScanner Scanner(Ctx);
    std::optional<Event> Recv;
    bool SentBefore = false;
    for (const Stmt *S : Block->body()) {
      for (const Event &E : Scanner.statement(S)) {
        if (E.K == Event::Send) {
          if (!Recv) {
            SentBefore = true;
            continue;
          }
          if (!fromFixedRank(*Recv))
            Pairs.push_back({Block, {Recv->At, E.At, Recv->Name, E.Name}});
          return;
        }
        if (E.K != Event::Wait || Recv)
          continue;
        if (SentBefore) {
          // This role sends first: the function has more than one role.
          SendsFirstSomewhere = true;
          return;
        }
        Recv = E;
      }
    }
  }

  /// True if \p Recv waits only for messages from fixed ranks
  /// (`MPI_Recv(buf, n, type, 0, ...)`): the rank named cannot be one of
  /// the ranks that run this code, since it would wait for itself; it runs
  /// another role (OSU's recv_thread, run on rank 1 only).
  bool fromFixedRank(const Event &Recv) const {
    return !Recv.From.empty() && llvm::all_of(Recv.From, [&](const Posted &P) {
      std::optional<llvm::APSInt> V =
          P.Peer ? evaluateInt(P.Peer, Ctx.AST) : std::nullopt;
      return V && !V->isNegative(); // Not MPI_ANY_SOURCE.
    });
  }

  /// True if the ranks reaching \p Block are one role of several: an
  /// enclosing branch's other arm sends, or tests for particular ranks.
  bool escaped(const CompoundStmt *Block) {
    ASTContext &AST = Ctx.AST;
    const Stmt *Child = Block;
    for (unsigned Depth = 0; Depth < 64; ++Depth) {
      auto Parents = AST.getParents(*Child);
      if (Parents.empty())
        return false;
      const Stmt *Parent = Parents[0].get<Stmt>();
      if (!Parent)
        return false;
      if (const auto *If = dyn_cast<IfStmt>(Parent)) {
        const Stmt *Other = If->getThen() == Child ? If->getElse()
                            : If->getElse() == Child ? If->getThen()
                                                     : nullptr;
        if (Other && sendsIn(Other, Ctx))
          return true;
        if ((If->getThen() == Child || If->getElse() == Child) &&
            testsOneRole(If->getCond(), AST))
          return true;
      }
      if (isa<SwitchStmt>(Parent))
        return true; // A case per role.
      if (Parent == FD->getBody())
        return false;
      Child = Parent;
    }
    return false;
  }

  const FunctionDecl *FD;
  AnalysisContext &Ctx;
  std::vector<std::pair<const CompoundStmt *, ReceiveFirst>> Pairs;
  bool SendsFirstSomewhere = false;
};

/// Whether \p A and \p B read the same variable or member (parentheses and
/// implicit casts aside). Not Expr::isSameComparisonOperand: Clang 19 takes
/// two DeclRefExprs for the same operand only as prvalues, and the operands
/// here are the lvalues under their implicit casts.
bool sameOperand(const Expr *A, const Expr *B, unsigned Depth = 0) {
  if (!A || !B || Depth > 8)
    return false;
  A = A->IgnoreParenImpCasts();
  B = B->IgnoreParenImpCasts();
  if (A->getStmtClass() != B->getStmtClass())
    return false;
  if (isa<CXXThisExpr>(A))
    return true;
  if (const auto *RefA = dyn_cast<DeclRefExpr>(A))
    return declaresSameEntity(RefA->getDecl(), cast<DeclRefExpr>(B)->getDecl());
  if (const auto *MemberA = dyn_cast<MemberExpr>(A)) {
    const auto *MemberB = cast<MemberExpr>(B);
    if (!declaresSameEntity(MemberA->getMemberDecl(), MemberB->getMemberDecl()))
      return false;
    if (const auto *Var = dyn_cast<VarDecl>(MemberA->getMemberDecl());
        Var && Var->isStaticDataMember())
      return true;
    return MemberA->isArrow() == MemberB->isArrow() &&
           sameOperand(MemberA->getBase(), MemberB->getBase(), Depth + 1);
  }
  return false;
}

/// Where one arm of a role branch first blocks, and the send after it.
struct ArmWait {
  std::optional<Event> Wait;
  const CallExpr *Send = nullptr;
  std::string SendName;
};

/// An arm of a role branch: the statements one rank (or, for an `else`,
/// every rank not named by the others) runs.
struct Arm {
  std::optional<int64_t> Rank; ///< None for `else` and `default`.
  /// Run by ranks that are not known (`case 0: case 1:`).
  bool Unknown = false;
  const Expr *Test = nullptr;
  llvm::SmallVector<const Stmt *, 4> Body;
  ArmWait First;
};

/// Role branches matched against each other by peer.
class RoleFinder {
public:
  RoleFinder(const FunctionDecl *FD, AnalysisContext &Ctx,
             llvm::function_ref<bool(const Expr *)> IsRank)
      : FD(FD), Ctx(Ctx), AST(Ctx.AST), IsRank(IsRank) {}

  std::vector<RoleDeadlock> run() {
    noteWritten(FD->getBody());
    visit(FD->getBody());
    return std::move(Found);
  }

private:
  /// The variables the function writes after their initialisation: their
  /// initial value cannot be taken for a peer.
  void noteWritten(const Stmt *S) {
    if (!S)
      return;
    auto Target = [](const Expr *E) -> const ValueDecl * {
      E = E->IgnoreParenImpCasts();
      if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
        return Ref->getDecl();
      return nullptr;
    };
    const ValueDecl *D = nullptr;
    if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
      if (BO->isAssignmentOp())
        D = Target(BO->getLHS());
    } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
      if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf)
        D = Target(UO->getSubExpr());
    }
    if (D)
      Written.insert(D);
    for (const Stmt *Child : S->children())
      noteWritten(Child);
  }

  std::optional<int64_t> constant(const Expr *E) {
    if (!E || E->isValueDependent() || E->containsErrors())
      return std::nullopt;
    std::optional<llvm::APSInt> Value = evaluateInt(E, AST);
    if (!Value)
      return std::nullopt;
    return Value->tryExtValue();
  }

  /// `R == K` or `K == R` with K a constant: (R, K).
  std::optional<std::pair<const Expr *, int64_t>> roleTest(const Expr *Cond) {
    const auto *BO = dyn_cast_or_null<BinaryOperator>(
        Cond ? Cond->IgnoreParenImpCasts() : nullptr);
    if (!BO || BO->getOpcode() != BO_EQ)
      return std::nullopt;
    const Expr *L = BO->getLHS()->IgnoreParenImpCasts(),
               *R = BO->getRHS()->IgnoreParenImpCasts();
    if (auto K = constant(R); K && !constant(L))
      return std::make_pair(L, *K);
    if (auto K = constant(L); K && !constant(R))
      return std::make_pair(R, *K);
    return std::nullopt;
  }

  /// The value of peer \p E on the rank whose rank, \p Rank, is \p RankValue.
  std::optional<int64_t> evaluate(const Expr *E, const Expr *Rank,
                                  int64_t RankValue, unsigned Depth = 0) {
    if (!E || Depth > 8)
      return std::nullopt;
    // (The comparison is of expressions without their implicit casts.)
    E = E->IgnoreParenCasts();
    if (sameOperand(E, Rank))
      return RankValue;
    if (auto K = constant(E))
      return K;
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      auto L = evaluate(BO->getLHS(), Rank, RankValue, Depth + 1);
      auto R = evaluate(BO->getRHS(), Rank, RankValue, Depth + 1);
      if (!L || !R)
        return std::nullopt;
      int64_t Out = 0;
      switch (BO->getOpcode()) {
      case BO_Add:
        return llvm::AddOverflow(*L, *R, Out) ? std::nullopt
                                              : std::optional<int64_t>(Out);
      case BO_Sub:
        return llvm::SubOverflow(*L, *R, Out) ? std::nullopt
                                              : std::optional<int64_t>(Out);
      case BO_Mul:
        return llvm::MulOverflow(*L, *R, Out) ? std::nullopt
                                              : std::optional<int64_t>(Out);
      case BO_Xor:
        return *L ^ *R;
      case BO_EQ:
        return *L == *R;
      case BO_NE:
        return *L != *R;
      case BO_LT:
        return *L < *R;
      case BO_GT:
        return *L > *R;
      case BO_LE:
        return *L <= *R;
      case BO_GE:
        return *L >= *R;
      case BO_Div:
      case BO_Rem:
        if (*R == 0 || (*R == -1 && *L == INT64_MIN))
          return std::nullopt;
        return BO->getOpcode() == BO_Div ? *L / *R : *L % *R;
      default:
        return std::nullopt;
      }
    }
    if (const auto *Cond = dyn_cast<ConditionalOperator>(E)) {
      auto C = evaluate(Cond->getCond(), Rank, RankValue, Depth + 1);
      if (!C)
        return std::nullopt;
      return evaluate(*C ? Cond->getTrueExpr() : Cond->getFalseExpr(), Rank,
                      RankValue, Depth + 1);
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E))
      if (UO->getOpcode() == UO_Minus)
        if (auto V = evaluate(UO->getSubExpr(), Rank, RankValue, Depth + 1);
            V && *V != INT64_MIN)
          return -*V;
    // A local variable that keeps its initial value: `int peer = 1 - rank;`.
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
      if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
        if (Var->hasLocalStorage() && Var->getInit() &&
            !Written.contains(Var) && !Var->getType()->isReferenceType())
          return evaluate(Var->getInit(), Rank, RankValue, Depth + 1);
    return std::nullopt;
  }

  /// The sources the arm's first wait waits for, on rank \p RankValue; none
  /// if one of them is not known or is any source (negative).
  std::optional<llvm::SmallVector<int64_t, 2>>
  peersOf(const Arm &A, const Expr *Rank, int64_t RankValue) {
    if (!A.First.Wait)
      return std::nullopt;
    llvm::SmallVector<int64_t, 2> Peers;
    for (const Posted &P : A.First.Wait->From) {
      auto V = evaluate(P.Peer, Rank, RankValue);
      if (!V || *V < 0)
        return std::nullopt;
      Peers.push_back(*V);
    }
    return Peers;
  }

  void visit(const Stmt *S) {
    if (!S || isa<LambdaExpr>(S))
      return;
    if (const auto *If = dyn_cast<IfStmt>(S); If && !InChain.contains(If))
      ifChain(If);
    else if (const auto *Switch = dyn_cast<SwitchStmt>(S))
      switchArms(Switch);
    for (const Stmt *Child : S->children())
      visit(Child);
  }

  void ifChain(const IfStmt *First) {
    std::vector<Arm> Arms;
    const Expr *Rank = nullptr;
    for (const IfStmt *If = First; If;) {
      auto Test =
          If->getConditionVariable() ? std::nullopt : roleTest(If->getCond());
      if (!Test || (Rank && !sameOperand(Rank, Test->first)))
        break; // Not one of the roles: what the else holds is not known.
      InChain.insert(If);
      Rank = Test->first;
      Arm A;
      A.Rank = Test->second;
      A.Test = If->getCond();
      A.Body.push_back(If->getThen());
      Arms.push_back(std::move(A));
      const Stmt *Else = If->getElse();
      if (const auto *Next = dyn_cast_or_null<IfStmt>(Else)) {
        If = Next;
        continue;
      }
      if (Else) {
        Arm Rest;
        Rest.Body.push_back(Else);
        Arms.push_back(std::move(Rest));
      }
      break;
    }
    if (Rank)
      match(Rank, Arms);
  }

  void switchArms(const SwitchStmt *Switch) {
    const auto *Body = dyn_cast_or_null<CompoundStmt>(Switch->getBody());
    if (!Body || Switch->getConditionVariable())
      return;
    std::vector<Arm> Arms;
    for (const Stmt *S : Body->body()) {
      const auto *Label = dyn_cast<SwitchCase>(S);
      if (!Label) {
        if (!Arms.empty())
          Arms.back().Body.push_back(S);
        continue;
      }
      Arm A;
      const Stmt *Sub = Label->getSubStmt();
      if (const auto *Case = dyn_cast<CaseStmt>(Label)) {
        // One label per role: `case 0: case 1:` is two ranks in one arm.
        std::optional<int64_t> K;
        if (!Case->getRHS() && !isa<SwitchCase>(Sub))
          K = constant(Case->getLHS());
        A.Rank = K;
        A.Unknown = !K;
        A.Test = Case->getLHS();
      }
      A.Body.push_back(Sub);
      Arms.push_back(std::move(A));
    }
    match(Switch->getCond()->IgnoreParenImpCasts(), Arms);
  }

  /// Walks \p S in execution order for the arm's first wait and, after it,
  /// its first send. False once the walk must stop.
  bool walk(const Stmt *S, EventScanner &Scanner, ArmWait &W, bool &Failed,
            unsigned Depth) {
    if (!S)
      return true;
    if (Depth > 64 ||
        isa<ReturnStmt, BreakStmt, ContinueStmt, GotoStmt, CXXThrowExpr>(S)) {
      if (const auto *Return = dyn_cast<ReturnStmt>(S))
        events(Return, Scanner, W, Failed);
      if (!W.Wait)
        Failed = true; // Leaves before it communicates, or too deep.
      return false;
    }
    if (const auto *Block = dyn_cast<CompoundStmt>(S)) {
      for (const Stmt *Child : Block->body())
        if (!walk(Child, Scanner, W, Failed, Depth + 1))
          return false;
      return true;
    }
    // A loop's body runs first, once the loop runs at all.
    if (const auto *For = dyn_cast<ForStmt>(S))
      return walk(For->getInit(), Scanner, W, Failed, Depth + 1) &&
             events(For->getCond(), Scanner, W, Failed) &&
             walk(For->getBody(), Scanner, W, Failed, Depth + 1);
    if (const auto *While = dyn_cast<WhileStmt>(S))
      return events(While->getCond(), Scanner, W, Failed) &&
             walk(While->getBody(), Scanner, W, Failed, Depth + 1);
    if (const auto *Do = dyn_cast<DoStmt>(S))
      return walk(Do->getBody(), Scanner, W, Failed, Depth + 1);
    if (const auto *Range = dyn_cast<CXXForRangeStmt>(S))
      return walk(Range->getBody(), Scanner, W, Failed, Depth + 1);
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      if (!walk(If->getInit(), Scanner, W, Failed, Depth + 1) ||
          !events(If->getCond(), Scanner, W, Failed))
        return false;
      return passes(If->getThen(), W, Failed) &&
             passes(If->getElse(), W, Failed);
    }
    if (isa<SwitchStmt, CXXTryStmt>(S))
      return passes(S, W, Failed);
    return events(S, Scanner, W, Failed);
  }

  /// Code that only some runs of the arm execute: the walk goes on past it
  /// only if it exchanges nothing.
  bool passes(const Stmt *S, ArmWait &W, bool &Failed) {
    if (!exchangesIn(S))
      return true;
    if (!W.Wait)
      Failed = true;
    return false;
  }

  bool exchangesIn(const Stmt *S) {
    if (!S || isa<LambdaExpr>(S))
      return false;
    if (const auto *Call = dyn_cast<CallExpr>(S))
      if (classify(Call, Ctx).K != P2pKind::None || waitedWork(Call) ||
          Helpers.communicates(Call->getDirectCallee(), 0))
        return true;
    for (const Stmt *Child : S->children())
      if (exchangesIn(Child))
        return true;
    return false;
  }

  bool events(const Stmt *S, EventScanner &Scanner, ArmWait &W, bool &Failed) {
    if (!S)
      return true;
    for (Event &E : Scanner.statement(S)) {
      if (!W.Wait) {
        if (E.K != Event::Wait) {
          Failed = true; // Sends first, or a helper might.
          return false;
        }
        W.Wait = std::move(E);
        continue;
      }
      if (E.K == Event::Send) {
        W.Send = E.At;
        W.SendName = E.Name;
        return false;
      }
    }
    return true;
  }

  void match(const Expr *Rank, std::vector<Arm> &Arms) {
    if (Arms.size() < 2)
      return;
    unsigned Waiting = 0;
    for (Arm &A : Arms) {
      EventScanner Scanner(Ctx);
      bool Failed = false;
      for (const Stmt *S : A.Body)
        if (!walk(S, Scanner, A.First, Failed, 0))
          break;
      if (Failed)
        A.First.Wait.reset();
      Waiting += A.First.Wait.has_value();
    }
    // Whether the branch is on the rank is the expensive question: last.
    if (Waiting < 2 || !IsRank(Rank))
      return;
    // The ranks the `else` runs: every rank no other arm names, unless an
    // arm's ranks are not known.
    const Arm *Else = nullptr;
    if (llvm::none_of(Arms, [](const Arm &A) { return A.Unknown; }))
      for (const Arm &A : Arms)
        if (!A.Rank)
          Else = &A;
    auto ArmOf = [&](int64_t R) -> const Arm * {
      for (const Arm &A : Arms)
        if (A.Rank && *A.Rank == R)
          return &A;
      return Else;
    };
    for (unsigned I = 0; I < Arms.size(); ++I) {
      const Arm &A = Arms[I];
      if (!A.Rank)
        continue;
      auto Peers = peersOf(A, Rank, *A.Rank);
      if (!Peers)
        continue;
      for (int64_t Peer : *Peers) {
        const Arm *B = Peer == *A.Rank ? nullptr : ArmOf(Peer);
        // Each pair of explicit roles once, from its first arm.
        if (!B || (B->Rank && B < &A))
          continue;
        auto Back = peersOf(*B, Rank, Peer);
        if (!Back || !llvm::is_contained(*Back, *A.Rank))
          continue;
        RoleDeadlock D;
        D.First = role(A, *A.Rank);
        D.Second = role(*B, Peer);
        Found.push_back(D);
        break;
      }
    }
  }

  static RoleDeadlock::Role role(const Arm &A, int64_t Rank) {
    RoleDeadlock::Role R;
    R.Rank = Rank;
    R.Test = A.Test;
    R.Wait = A.First.Wait->At;
    R.WaitName = A.First.Wait->Name;
    R.Send = A.First.Send;
    R.SendName = A.First.SendName;
    return R;
  }

  const FunctionDecl *FD;
  AnalysisContext &Ctx;
  ASTContext &AST;
  llvm::function_ref<bool(const Expr *)> IsRank;
  llvm::DenseSet<const ValueDecl *> Written;
  /// Which helpers exchange messages.
  EventScanner Helpers{Ctx};
  /// The `else if`s already taken as part of a chain.
  llvm::DenseSet<const IfStmt *> InChain;
  std::vector<RoleDeadlock> Found;
};

} // namespace

std::vector<ReceiveFirst> findReceiveFirst(const FunctionDecl *FD,
                                           AnalysisContext &Ctx) {
  if (!FD || !FD->getBody())
    return {};
  return Finder(FD, Ctx).run();
}

std::vector<RoleDeadlock>
findRoleDeadlocks(const FunctionDecl *FD, AnalysisContext &Ctx,
                  llvm::function_ref<bool(const Expr *)> IsRank) {
  if (!FD || !FD->getBody())
    return {};
  return RoleFinder(FD, Ctx, IsRank).run();
}

} // namespace ddp
