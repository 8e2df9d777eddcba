//===--- PointToPointOrder.cpp - Exchanges where every rank receives first -===//

#include "core/PointToPointOrder.h"
#include "core/BrokenCode.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace ddp {
namespace {

enum class Kind { None, BlockingRecv, Send };

/// The point-to-point role of a call by its catalogue name. Receives are
/// blocking when they wait (MPI_Recv; c10d's recv(...)->wait(), decided by
/// the caller); sends of every kind count, since a rank that waits in a
/// receive reaches none of them.
Kind kindOf(const CallExpr *Call, AnalysisContext &Ctx, std::string &Name) {
  const CatalogueEntry *Entry = Ctx.Catalogue.classify(Call);
  if (!Entry || Entry->Role != CallRole::PointToPoint)
    return Kind::None;
  Name = Entry->Display;
  llvm::StringRef N(Name);
  if (N == "MPI_Recv" || N == "recv" || N == "recvAnysource" ||
      N.ends_with("::recv"))
    return Kind::BlockingRecv;
  if (N == "MPI_Send" || N == "MPI_Ssend" || N == "MPI_Rsend" ||
      N == "MPI_Bsend" || N == "MPI_Isend" || N == "MPI_Issend" ||
      N == "send" || N.ends_with("::send"))
    return Kind::Send;
  return Kind::None;
}

/// True for a CallExpr that calls wait() on the result of \p Inner:
/// `pg->recv(...)->wait()`.
bool waitsOn(const Stmt *S, const CallExpr *Inner) {
  const auto *Wait = dyn_cast<CXXMemberCallExpr>(S);
  if (!Wait || !Wait->getMethodDecl() ||
      !Wait->getMethodDecl()->getDeclName().isIdentifier() ||
      Wait->getMethodDecl()->getName() != "wait")
    return false;
  const Expr *Object = Wait->getImplicitObjectArgument();
  while (Object) {
    Object = Object->IgnoreImplicit();
    if (Object == Inner)
      return true;
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Object)) {
      Object = Op->getNumArgs() ? Op->getArg(0) : nullptr;
      continue;
    }
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Object)) {
      Object = Member->getImplicitObjectArgument(); // .get()
      continue;
    }
    return Object == Inner;
  }
  return false;
}

/// The point-to-point calls one statement makes unconditionally: its own
/// expressions, not the bodies of nested blocks, branches, loops or lambdas.
struct StatementCalls {
  const CallExpr *Recv = nullptr, *Send = nullptr;
  std::string RecvName, SendName;
  /// Which came first, when the statement has both.
  bool SendFirst = false;
};

void scan(const Stmt *S, AnalysisContext &Ctx, StatementCalls &Out,
          llvm::SmallVectorImpl<const CallExpr *> &C10dRecvs) {
  if (!S || isa<LambdaExpr, CompoundStmt, IfStmt, ForStmt, WhileStmt, DoStmt,
                CXXForRangeStmt, SwitchStmt, CXXTryStmt>(S))
    return;
  // Children first: evaluation order of `a(b(), c())` is b, c, a.
  for (const Stmt *Child : S->children())
    scan(Child, Ctx, Out, C10dRecvs);
  const auto *Call = dyn_cast<CallExpr>(S);
  if (!Call)
    return;
  for (const CallExpr *Recv : C10dRecvs)
    if (!Out.Recv && waitsOn(Call, Recv)) {
      Out.Recv = Recv;
      Out.RecvName = "recv";
    }
  std::string Name;
  switch (kindOf(Call, Ctx, Name)) {
  case Kind::BlockingRecv:
    if (Name == "MPI_Recv") {
      if (!Out.Recv) {
        Out.Recv = Call;
        Out.RecvName = Name;
      }
    } else {
      C10dRecvs.push_back(Call); // Blocking once waited on.
    }
    break;
  case Kind::Send:
    if (!Out.Send) {
      Out.Send = Call;
      Out.SendName = Name;
      Out.SendFirst = !Out.Recv;
    }
    break;
  case Kind::None:
    break;
  }
}

StatementCalls callsOf(const Stmt *S, AnalysisContext &Ctx) {
  StatementCalls Out;
  llvm::SmallVector<const CallExpr *, 2> C10dRecvs;
  scan(S, Ctx, Out, C10dRecvs);
  return Out;
}

/// True if \p S sends anywhere inside.
bool sendsIn(const Stmt *S, AnalysisContext &Ctx) {
  if (!S)
    return false;
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    std::string Name;
    if (kindOf(Call, Ctx, Name) == Kind::Send)
      return true;
  }
  for (const Stmt *Child : S->children())
    if (sendsIn(Child, Ctx))
      return true;
  return false;
}

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
    // The block's point-to-point events in order; stop at the first pair.
    const CallExpr *Recv = nullptr;
    std::string RecvName;
    bool SentBefore = false;
    for (const Stmt *S : Block->body()) {
      StatementCalls Calls = callsOf(S, Ctx);
      auto OnSend = [&] {
        if (!Recv) {
          SentBefore = true;
          return false;
        }
        Pairs.push_back({Block, {Recv, Calls.Send, RecvName, Calls.SendName}});
        return true;
      };
      auto OnRecv = [&] {
        if (Recv)
          return false;
        if (SentBefore) {
          // This role sends first: the function has more than one role.
          SendsFirstSomewhere = true;
          return true;
        }
        Recv = Calls.Recv;
        RecvName = Calls.RecvName;
        return false;
      };
      bool Stop = false;
      if (Calls.Send && Calls.SendFirst)
        Stop = OnSend();
      if (!Stop && Calls.Recv)
        Stop = OnRecv();
      if (!Stop && Calls.Send && !Calls.SendFirst)
        Stop = OnSend();
      if (Stop)
        return;
    }
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

} // namespace

std::vector<ReceiveFirst> findReceiveFirst(const FunctionDecl *FD,
                                           AnalysisContext &Ctx) {
  if (!FD || !FD->getBody())
    return {};
  return Finder(FD, Ctx).run();
}

} // namespace ddp
