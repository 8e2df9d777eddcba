//===--- ProcessGroupSetup.cpp - How a program builds its process groups --===//

#include "core/ProcessGroupSetup.h"
#include "core/BrokenCode.h"
#include "core/UserCodeVisitor.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace ddp {
namespace {

/// "TCPStore" for c10d::TCPStore, "ProcessGroupGloo" for the process groups,
/// "" for anything else.
std::string setupClass(const CXXRecordDecl *RD, SetupCall::Kind &K) {
  if (!RD || !RD->getDeclName().isIdentifier())
    return "";
  std::string Qualified = RD->getQualifiedNameAsString();
  if (Qualified == "c10d::TCPStore") {
    K = SetupCall::Kind::Store;
    return "TCPStore";
  }
  if (Qualified == "c10d::ProcessGroupGloo" ||
      Qualified == "c10d::ProcessGroupNCCL" ||
      Qualified == "c10d::ProcessGroupMPI") {
    K = SetupCall::Kind::Group;
    return RD->getName().str();
  }
  return "";
}

/// The class a make_intrusive / make_shared / make_unique call builds.
const CXXRecordDecl *madeClass(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || !Callee->getDeclName().isIdentifier())
    return nullptr;
  llvm::StringRef Name = Callee->getName();
  if (Name != "make_intrusive" && Name != "make_shared" &&
      Name != "make_unique")
    return nullptr;
  const TemplateArgumentList *Args = Callee->getTemplateSpecializationArgs();
  if (!Args || Args->size() == 0 ||
      Args->get(0).getKind() != TemplateArgument::Type)
    return nullptr;
  return Args->get(0).getAsType()->getAsCXXRecordDecl();
}

std::optional<std::string> literal(const Expr *E) {
  if (!E)
    return std::nullopt;
  if (const auto *S = dyn_cast<StringLiteral>(E->IgnoreParenCasts()))
    return S->getString().str();
  return std::nullopt;
}

/// std::ratio<N, D> as N / D.
std::optional<double> ratioOf(QualType T) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T->getAsCXXRecordDecl());
  if (!Spec || Spec->getName() != "ratio")
    return std::nullopt;
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  if (Args.size() < 2 || Args[0].getKind() != TemplateArgument::Integral ||
      Args[1].getKind() != TemplateArgument::Integral)
    return std::nullopt;
  double N = double(Args[0].getAsIntegral().getSExtValue());
  double D = double(Args[1].getAsIntegral().getSExtValue());
  return D == 0 ? std::nullopt : std::optional<double>(N / D);
}

/// The period of a std::chrono::duration type, in seconds.
std::optional<double> periodOf(QualType T) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T.getNonReferenceType()->getAsCXXRecordDecl());
  if (!Spec || Spec->getName() != "duration")
    return std::nullopt;
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  if (Args.size() < 2 || Args[1].getKind() != TemplateArgument::Type)
    return std::nullopt;
  return ratioOf(Args[1].getAsType());
}

class Collector : public UserCodeVisitor<Collector> {
public:
  Collector(AnalysisContext &Ctx, ProcessGroupSetup &Out)
      : UserCodeVisitor(Ctx), Out(Out) {}

  /// Keeps track of the function each call is in: null in one the analysis
  /// does not trust (code that did not compile), where nothing is
  /// collected.
  bool TraverseDecl(Decl *D) {
    const auto *FD = dyn_cast_or_null<FunctionDecl>(D);
    bool Body =
        FD && FD->doesThisDeclarationHaveABody() && !FD->isDependentContext();
    if (Body)
      Functions.push_back(Libraries.isAnalysable(FD) ? FD : nullptr);
    bool Result = UserCodeVisitor::TraverseDecl(D);
    if (Body)
      Functions.pop_back();
    return Result;
  }

  bool TraverseLambdaExpr(LambdaExpr *L) {
    const CXXMethodDecl *Call = L->getCallOperator();
    Functions.push_back(Call && Libraries.isAnalysable(Call) ? Call : nullptr);
    bool Result = UserCodeVisitor::TraverseLambdaExpr(L);
    Functions.pop_back();
    return Result;
  }

  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    if (Functions.empty() || !Functions.back())
      return true;
    SetupCall::Kind K;
    std::string Class = setupClass(E->getConstructor()->getParent(), K);
    if (Class.empty())
      return true;
    SetupCall C;
    C.K = K;
    C.Site = E;
    C.Function = Functions.back();
    C.Class = Class;
    for (const Expr *Arg : E->arguments())
      if (!isa<CXXDefaultArgExpr>(Arg))
        C.Args.push_back(Arg);
    add(std::move(C));
    return true;
  }

  bool VisitCallExpr(CallExpr *Call) {
    if (Functions.empty() || !Functions.back())
      return true;
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee)
      return true;
    if (const CXXRecordDecl *Made = madeClass(Call)) {
      SetupCall::Kind K;
      std::string Class = setupClass(Made, K);
      if (!Class.empty()) {
        SetupCall C;
        C.K = K;
        C.Site = Call;
        C.Function = Functions.back();
        C.Class = Class;
        for (const Expr *Arg : Call->arguments())
          C.Args.push_back(Arg);
        add(std::move(C));
      }
      return true;
    }
    if (!Callee->getDeclName().isIdentifier())
      return true;
    llvm::StringRef Name = Callee->getName();
    if ((Name == "getenv" || Name == "secure_getenv") && Call->getNumArgs() == 1)
      env(Call, literal(Call->getArg(0)), false, std::nullopt);
    else if (Name == "setenv" && Call->getNumArgs() >= 2)
      env(Call, literal(Call->getArg(0)), true, literal(Call->getArg(1)));
    else if (Name == "putenv" && Call->getNumArgs() == 1)
      if (auto Text = literal(Call->getArg(0))) {
        auto [Var, Value] = llvm::StringRef(*Text).split('=');
        env(Call, Var.str(), true, Value.str());
      }
    // ProcessGroupGloo::Options::create(timeout).
    if (Name == "create" && Call->getNumArgs() >= 1)
      if (const auto *Method = dyn_cast<CXXMethodDecl>(Callee))
        if (Method->getParent()->getName() == "Options" &&
            llvm::StringRef(Method->getParent()->getQualifiedNameAsString())
                .starts_with("c10d::") &&
            !isa<CXXDefaultArgExpr>(Call->getArg(0)) &&
            periodOf(Call->getArg(0)->getType().getCanonicalType()))
          Out.Timeouts.push_back(
              {Call->getArg(0), Functions.back(),
               Method->getParent()->getQualifiedNameAsString()});
    return true;
  }

  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (!Functions.empty() && Functions.back() && BO->getOpcode() == BO_Assign)
      assign(BO->getLHS(), BO->getRHS());
    return true;
  }

  /// opts.numWorkers = n, where numWorkers is a c10::optional.
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Op) {
    if (!Functions.empty() && Functions.back() &&
        Op->getOperator() == OO_Equal && Op->getNumArgs() == 2)
      assign(Op->getArg(0), Op->getArg(1));
    return true;
  }

  /// opts.isServer = ..., opts->timeout = ...
  bool assign(const Expr *LHS, const Expr *RHS) {
    const auto *Member = dyn_cast<MemberExpr>(LHS->IgnoreParenImpCasts());
    if (!Member)
      return true;
    const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
    if (!Field || !Field->getDeclName().isIdentifier())
      return true;
    std::string Owner = Field->getParent()->getQualifiedNameAsString();
    if (!llvm::StringRef(Owner).starts_with("c10d::"))
      return true;
    if (Field->getName() == "timeout")
      Out.Timeouts.push_back({RHS, Functions.back(), Owner});
    if (Owner == "c10d::TCPStoreOptions")
      if (const auto *Ref =
              dyn_cast<DeclRefExpr>(Member->getBase()->IgnoreParenImpCasts()))
        Fields[{Ref->getDecl(), Field->getName()}] = RHS;
    return true;
  }

  /// Fills in what the options variables of TCPStore(host, opts) hold.
  void resolveOptions() {
    for (SetupCall &C : Out.Calls) {
      if (C.K != SetupCall::Kind::Store || C.Args.size() != 2)
        continue;
      const auto *Ref = dyn_cast<DeclRefExpr>(C.Args[1]->IgnoreImplicit());
      if (!Ref || Ref->getType()->getAsCXXRecordDecl() == nullptr ||
          Ref->getType()->getAsCXXRecordDecl()->getName() != "TCPStoreOptions")
        continue;
      C.FromOptions = true;
      C.OptionIsServer = Fields.lookup({Ref->getDecl(), "isServer"});
      C.OptionNumWorkers = Fields.lookup({Ref->getDecl(), "numWorkers"});
      C.OptionPort = Fields.lookup({Ref->getDecl(), "port"});
    }
    // The timeout argument of TCPStore(host, port, workers, server, timeout).
    for (const SetupCall &C : Out.Calls)
      if (C.K == SetupCall::Kind::Store && C.Args.size() >= 5)
        Out.Timeouts.push_back({C.Args[4], C.Function, "TCPStore"});
  }

private:
  void add(SetupCall C) {
    // make_intrusive<TCPStore>(...) builds it again inside the library: the
    // user's call is the one kept (library code is not visited anyway).
    Out.Calls.push_back(std::move(C));
  }

  void env(const CallExpr *Call, std::optional<std::string> Name, bool Sets,
           std::optional<std::string> Value) {
    if (!Name)
      return;
    Out.Env.push_back({Call, Functions.back(), *Name, Sets, std::move(Value)});
  }

  ProcessGroupSetup &Out;
  std::vector<const FunctionDecl *> Functions;
  llvm::DenseMap<std::pair<const Decl *, llvm::StringRef>, const Expr *> Fields;
};

/// A constant integer count, as a number.
std::optional<double> countOf(const Expr *E, ASTContext &AST) {
  if (!E || E->isValueDependent() || E->isTypeDependent() ||
      !E->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  std::optional<llvm::APSInt> Count = evaluateInt(E, AST);
  if (!Count)
    return std::nullopt;
  return double(Count->getSExtValue());
}

} // namespace

ProcessGroupSetup collectProcessGroupSetup(AnalysisContext &Ctx) {
  ProcessGroupSetup Out;
  Collector C(Ctx, Out);
  C.TraverseDecl(Ctx.AST.getTranslationUnitDecl());
  C.resolveOptions();
  return Out;
}

std::optional<double> durationSeconds(const Expr *E, ASTContext &AST) {
  for (unsigned Depth = 0; E && Depth < 16; ++Depth) {
    E = E->IgnoreParenImpCasts();
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E)) {
      E = M->getSubExpr();
      continue;
    }
    if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E)) {
      E = B->getSubExpr();
      continue;
    }
    if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(E)) {
      E = Cast->getSubExpr();
      continue;
    }
    // 5000ms, 5s.
    if (const auto *UDL = dyn_cast<UserDefinedLiteral>(E)) {
      std::optional<double> Period = periodOf(UDL->getType());
      if (!Period)
        return std::nullopt;
      std::optional<double> Count;
      switch (UDL->getLiteralOperatorKind()) {
      case UserDefinedLiteral::LOK_Integer:
        Count = countOf(UDL->getCookedLiteral(), AST);
        break;
      case UserDefinedLiteral::LOK_Template:
      case UserDefinedLiteral::LOK_Raw: {
        // libstdc++'s chrono literals are literal operator templates: read
        // the digits as written ("30s", "1'000ms").
        llvm::StringRef Text = Lexer::getSourceText(
            CharSourceRange::getTokenRange(UDL->getSourceRange()),
            AST.getSourceManager(), AST.getLangOpts());
        std::string Digits;
        for (char C : Text) {
          if (C == '\'')
            continue;
          if (!isdigit(static_cast<unsigned char>(C)))
            break;
          Digits += C;
        }
        unsigned long long Value;
        if (!Digits.empty() && !llvm::StringRef(Digits).getAsInteger(10, Value))
          Count = double(Value);
        break;
      }
      default:
        break;
      }
      if (Count)
        return *Count * *Period;
      return std::nullopt;
    }
    const auto *Construct = dyn_cast<CXXConstructExpr>(E);
    if (!Construct || Construct->getNumArgs() != 1)
      return std::nullopt;
    std::optional<double> Period = periodOf(Construct->getType());
    if (!Period)
      return std::nullopt;
    const Expr *Arg = Construct->getArg(0);
    // A conversion from another duration (seconds -> milliseconds).
    if (periodOf(Arg->IgnoreImplicit()->getType())) {
      E = Arg;
      continue;
    }
    std::optional<double> Count = countOf(Arg, AST);
    if (!Count)
      return std::nullopt;
    return *Count * *Period;
  }
  return std::nullopt;
}

} // namespace ddp
