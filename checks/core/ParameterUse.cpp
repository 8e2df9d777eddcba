//===--- ParameterUse.cpp - Which registered parameters forward uses ------===//

#include "core/ParameterUse.h"
#include "core/AnalysisContext.h"
#include "core/BrokenCode.h"
#include "core/ClassHierarchy.h"
#include "core/CollectiveCatalogue.h"
#include "core/GradientSync.h"
#include "core/LoopBody.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/Regex.h"

using namespace clang;

namespace ddp {
namespace {

bool isTorchModule(const CXXRecordDecl *RD) {
  return isOrDerivesFrom(RD, [](const CXXRecordDecl *C) {
    return C->getDeclName().isIdentifier() &&
           C->getQualifiedNameAsString() == "torch::nn::Module";
  });
}

/// The module class a type holds: NetImpl for NetImpl, NetImpl *,
/// std::shared_ptr<NetImpl>, torch::nn::ModuleHolder<NetImpl>, and the Net of
/// TORCH_MODULE(Net).
const CXXRecordDecl *moduleClassOf(const CXXRecordDecl *RD, unsigned Depth);

const CXXRecordDecl *moduleClass(QualType T, unsigned Depth = 0) {
  if (T.isNull() || Depth > 6)
    return nullptr;
  T = T.getNonReferenceType();
  if (T->isPointerType())
    return moduleClass(T->getPointeeType(), Depth + 1);
  return moduleClassOf(T->getAsCXXRecordDecl(), Depth);
}

const CXXRecordDecl *moduleClassOf(const CXXRecordDecl *RD, unsigned Depth) {
  if (!RD || Depth > 6)
    return nullptr;
  if (const CXXRecordDecl *Def = RD->getDefinition())
    RD = Def;
  if (isTorchModule(RD))
    return RD;
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD))
    if (Spec->getTemplateArgs().size() > 0 &&
        Spec->getTemplateArgs()[0].getKind() == TemplateArgument::Type)
      if (const CXXRecordDecl *Held =
              moduleClass(Spec->getTemplateArgs()[0].getAsType(), Depth + 1))
        return Held;
  if (RD->hasDefinition())
    for (const CXXBaseSpecifier &Base : RD->bases())
      if (const CXXRecordDecl *Held = moduleClass(Base.getType(), Depth + 1))
        return Held;
  return nullptr;
}

/// The type of \p E before implicit conversions and converting
/// constructions (a shared_ptr<NetImpl> passed as a shared_ptr<Module>).
QualType sourceType(const Expr *E) {
  for (unsigned Steps = 0; Steps < 8; ++Steps) {
    E = E->IgnoreImplicit();
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(E))
      if (Construct->getNumArgs() == 1 && !isa<CXXTemporaryObjectExpr>(E)) {
        E = Construct->getArg(0);
        continue;
      }
    break;
  }
  return E->getType();
}

/// The index of the constructor parameter named find_unused_parameters.
int findUnusedIndex(const FunctionDecl *FD) {
  for (unsigned I = 0; I < FD->getNumParams(); ++I)
    if (FD->getParamDecl(I)->getDeclName().isIdentifier() &&
        FD->getParamDecl(I)->getName() == "find_unused_parameters")
      return static_cast<int>(I);
  return -1;
}

/// For a construction of \p Wrapper with \p Args: the find_unused_parameters
/// argument (or default), looking through a holder to its module's
/// constructor. Sets \p Found when the wrapper has such a parameter.
const Expr *findUnusedArgument(const CXXRecordDecl *Wrapper,
                               const FunctionDecl *Ctor,
                               llvm::ArrayRef<const Expr *> Args, bool &Found) {
  Found = false;
  llvm::SmallVector<const FunctionDecl *, 4> Candidates;
  if (Ctor && findUnusedIndex(Ctor) >= 0)
    Candidates.push_back(Ctor);
  else if (const CXXRecordDecl *Impl = moduleClassOf(Wrapper, 0))
    for (const CXXConstructorDecl *C : Impl->ctors())
      if (findUnusedIndex(C) >= 0 &&
          C->getMinRequiredArguments() <= Args.size() &&
          C->getNumParams() >= Args.size())
        Candidates.push_back(C);
  if (Candidates.size() != 1)
    return nullptr;
  const FunctionDecl *C = Candidates.front();
  unsigned Index = static_cast<unsigned>(findUnusedIndex(C));
  Found = true;
  if (Index < Args.size() && !isa<CXXDefaultArgExpr>(Args[Index]))
    return Args[Index];
  const ParmVarDecl *Param = C->getParamDecl(Index);
  return Param->hasDefaultArg() ? Param->getDefaultArg() : nullptr;
}

/// Reducer(model->parameters(), ...): the module class of `model`.
const CXXRecordDecl *reducedModule(const Expr *Params) {
  const Expr *Owner = GradientSyncModel::parametersOwner(Params);
  return Owner ? moduleClass(Owner->getType()) : nullptr;
}

/// LibTorch modules without parameters: using them on some paths only is
/// harmless.
bool isParameterFree(const FieldDecl *Field) {
  const CXXRecordDecl *RD = moduleClass(Field->getType());
  if (!RD || !RD->getDeclName().isIdentifier())
    return false;
  std::string Qualified = RD->getQualifiedNameAsString();
  if (!llvm::StringRef(Qualified).starts_with("torch::nn::"))
    return false;
  static const llvm::Regex ParameterFree(
      "^(Dropout|Dropout2d|Dropout3d|AlphaDropout|FeatureAlphaDropout|ReLU|"
      "ReLU6|RReLU|LeakyReLU|ELU|SELU|CELU|GELU|GLU|SiLU|Mish|Sigmoid|"
      "LogSigmoid|Softmax|Softmin|LogSoftmax|Softmax2d|Softplus|Softshrink|"
      "Softsign|Tanh|Tanhshrink|Hardshrink|Hardtanh|Threshold|.*Pool[123]d|"
      ".*Pad[123]d|PixelShuffle|PixelUnshuffle|Upsample|Flatten|Unflatten|"
      "Identity|CosineSimilarity|PairwiseDistance|.*Loss|Fold|Unfold|"
      "ChannelShuffle)(Impl)?$");
  return ParameterFree.match(RD->getName());
}

/// A call of register_module or register_parameter inside \p S.
const CallExpr *registration(const Stmt *S) {
  if (!S)
    return nullptr;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *FD = Call->getDirectCallee())
      if (FD->getDeclName().isIdentifier() &&
          (FD->getName() == "register_module" ||
           FD->getName() == "register_parameter"))
        return Call;
  for (const Stmt *Child : S->children())
    if (const CallExpr *Found = registration(Child))
      return Found;
  return nullptr;
}

/// The registered members of \p Module: fields initialised or assigned with
/// register_module/register_parameter in its methods.
llvm::MapVector<const FieldDecl *, const Expr *>
registeredMembers(const CXXRecordDecl *Module) {
  llvm::MapVector<const FieldDecl *, const Expr *> Out;
  auto Record = [&](const FieldDecl *Field, const Expr *Call) {
    if (Field && Field->getParent() == Module && Call &&
        !isParameterFree(Field))
      Out.insert({Field, Call});
  };
  for (const CXXMethodDecl *Method : Module->methods()) {
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Method))
      for (const CXXCtorInitializer *Init : Ctor->inits())
        if (Init->isMemberInitializer())
          Record(Init->getMember(), registration(Init->getInit()));
    if (!Method->hasBody())
      continue;
    llvm::SmallVector<const Stmt *, 32> Work{Method->getBody()};
    while (!Work.empty()) {
      const Stmt *S = Work.pop_back_val();
      if (!S)
        continue;
      for (const Stmt *Child : S->children())
        Work.push_back(Child);
      const Expr *LHS = nullptr, *RHS = nullptr;
      if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
        if (BO->getOpcode() == BO_Assign) {
          LHS = BO->getLHS();
          RHS = BO->getRHS();
        }
      } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S)) {
        if (Op->getOperator() == OO_Equal && Op->getNumArgs() == 2) {
          LHS = Op->getArg(0);
          RHS = Op->getArg(1);
        }
      }
      if (!LHS)
        continue;
      if (const auto *ME = dyn_cast<MemberExpr>(LHS->IgnoreParenImpCasts()))
        Record(dyn_cast<FieldDecl>(ME->getMemberDecl()), registration(RHS));
    }
  }
  return Out;
}

/// The members and methods of the class that \p S refers to, not looking
/// into the arms of ?:, the right of && and ||, or lambdas (the CFG gives
/// those blocks of their own).
void memberRefs(const Stmt *S, const CXXRecordDecl *Module,
                llvm::SmallPtrSetImpl<const Decl *> &Out) {
  if (!S || isa<LambdaExpr>(S))
    return;
  if (const auto *ME = dyn_cast<MemberExpr>(S)) {
    const ValueDecl *D = ME->getMemberDecl();
    if (isa<FieldDecl>(D) || (isa<CXXMethodDecl>(D) &&
                              cast<CXXMethodDecl>(D)->getParent() == Module))
      Out.insert(D);
  }
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(S)) {
    memberRefs(CO->getCond(), Module, Out);
    return;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(S))
    if (BO->isLogicalOp()) {
      memberRefs(BO->getLHS(), Module, Out);
      return;
    }
  for (const Stmt *Child : S->children())
    memberRefs(Child, Module, Out);
}

/// The registered members a method of the class uses anywhere, through the
/// methods it calls.
void methodUses(const CXXMethodDecl *Method, const CXXRecordDecl *Module,
                llvm::SmallPtrSetImpl<const Decl *> &Out,
                llvm::SmallPtrSetImpl<const CXXMethodDecl *> &Seen) {
  if (!Method || !Method->hasBody() || !Seen.insert(Method).second)
    return;
  llvm::SmallVector<const Stmt *, 32> Work{Method->getBody()};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *ME = dyn_cast<MemberExpr>(S)) {
      if (const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl()))
        Out.insert(Field);
      else if (const auto *Callee =
                   dyn_cast<CXXMethodDecl>(ME->getMemberDecl()))
        if (Callee->getParent() == Module)
          methodUses(Callee->getDefinition()
                         ? cast<CXXMethodDecl>(Callee->getDefinition())
                         : Callee,
                     Module, Out, Seen);
    }
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
}

} // namespace

std::vector<StrictSync> findStrictSyncs(const FunctionDecl *FD,
                                        const AnalysisContext &Ctx) {
  std::vector<StrictSync> Out;
  if (!FD->hasBody())
    return Out;
  llvm::SmallVector<const Stmt *, 32> Work{FD->getBody()};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S || isa<LambdaExpr>(S))
      continue;
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
    const CXXRecordDecl *Class = nullptr;
    const FunctionDecl *Ctor = nullptr;
    llvm::SmallVector<const Expr *, 8> Args;
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(S)) {
      Ctor = Construct->getConstructor();
      Class = Construct->getConstructor()->getParent();
      Args.append(Construct->arg_begin(), Construct->arg_end());
    } else if (const auto *Call = dyn_cast<CallExpr>(S)) {
      // std::make_shared<Wrapper>(...), c10::make_intrusive<...>(...).
      const FunctionDecl *Callee = Call->getDirectCallee();
      const TemplateArgumentList *TArgs =
          Callee ? Callee->getTemplateSpecializationArgs() : nullptr;
      if (!Callee || !Callee->getDeclName().isIdentifier() ||
          !Callee->getName().starts_with("make_") || !TArgs ||
          TArgs->size() == 0 ||
          TArgs->get(0).getKind() != TemplateArgument::Type)
        continue;
      Class = TArgs->get(0).getAsType()->getAsCXXRecordDecl();
      Args.append(Call->arg_begin(), Call->arg_end());
    }
    if (!Class || Args.empty())
      continue;
    const CatalogueEntry *Entry = Ctor ? Ctx.Catalogue.classify(Ctor) : nullptr;
    bool IsReducer = Entry && Entry->Role == CallRole::ArmsGradSync;
    if (!IsReducer && !Ctx.Sync.isWrapper(Class))
      continue;
    if (IsReducer && Ctor && findUnusedIndex(Ctor) < 0)
      continue;
    bool Found = false;
    const Expr *FindUnused = findUnusedArgument(Class, Ctor, Args, Found);
    if (!Found || !FindUnused)
      continue;
    std::optional<bool> Value =
        evaluateCondition(FindUnused, FD->getASTContext());
    if (!Value || *Value)
      continue;
    const CXXRecordDecl *Module =
        IsReducer ? reducedModule(Args[0]) : moduleClass(sourceType(Args[0]));
    if (!Module || Ctx.isLibraryDecl(Module))
      continue;
    StrictSync Sync;
    Sync.Site = cast<Expr>(S);
    // Null when the default applies.
    Sync.FindUnused =
        llvm::is_contained(Args, FindUnused) ? FindUnused : nullptr;
    Sync.Module = Module;
    Sync.IsReducer = IsReducer;
    Out.push_back(Sync);
  }
  return Out;
}

const CXXMethodDecl *forwardOf(const CXXRecordDecl *Module) {
  for (const CXXMethodDecl *Method : Module->methods())
    if (Method->getDeclName().isIdentifier() && Method->getName() == "forward")
      if (const FunctionDecl *Def = Method->getDefinition())
        return cast<CXXMethodDecl>(Def);
  return nullptr;
}

std::vector<PartialUse> partialUses(const CXXRecordDecl *Module) {
  std::vector<PartialUse> Out;
  const CXXMethodDecl *Forward = forwardOf(Module);
  if (!Forward || !Forward->hasBody())
    return Out;
  // No CFG for a body that did not compile.
  // (Any name a dropped statement holds may matter here.)
  if (distrustOf(Forward,
                 Forward->getASTContext().getDiagnostics().hasErrorOccurred(),
                 [](llvm::StringRef) { return true; }) != Distrust::None)
    return Out;
  auto Members = registeredMembers(Module);
  if (Members.empty())
    return Out;
  ASTContext &AST = Forward->getASTContext();
  CFG::BuildOptions Options;
  std::unique_ptr<CFG> Cfg =
      CFG::buildCFG(Forward, Forward->getBody(), &AST, Options);
  if (!Cfg)
    return Out;
  // The members each block uses, through the methods it calls.
  llvm::DenseMap<const CFGBlock *, llvm::SmallPtrSet<const Decl *, 8>> Uses;
  for (const CFGBlock *B : *Cfg) {
    llvm::SmallPtrSet<const Decl *, 8> Refs;
    for (const CFGElement &E : *B)
      if (auto S = E.getAs<CFGStmt>())
        memberRefs(S->getStmt(), Module, Refs);
    if (const Stmt *Term = B->getTerminatorCondition())
      memberRefs(Term, Module, Refs);
    // A loop in forward is taken to run at least once (over the layers of
    // a model): what its body uses counts as used at its head.
    // (A do loop's body comes before its test and is used anyway.)
    const Stmt *Loop = B->getTerminatorStmt();
    const Stmt *Body = isa_and_nonnull<DoStmt>(Loop) ? nullptr : loopBody(Loop);
    if (Body) {
      llvm::SmallVector<const Stmt *, 16> Inside{Body};
      while (!Inside.empty()) {
        const Stmt *S = Inside.pop_back_val();
        if (!S || isa<LambdaExpr>(S))
          continue;
        if (const auto *ME = dyn_cast<MemberExpr>(S))
          Refs.insert(ME->getMemberDecl());
        for (const Stmt *Child : S->children())
          Inside.push_back(Child);
      }
    }
    llvm::SmallPtrSet<const Decl *, 8> All;
    for (const Decl *D : Refs) {
      All.insert(D);
      if (const auto *Method = dyn_cast<CXXMethodDecl>(D)) {
        llvm::SmallPtrSet<const CXXMethodDecl *, 4> Seen;
        const FunctionDecl *Def = Method->getDefinition();
        methodUses(Def ? cast<CXXMethodDecl>(Def) : Method, Module, All, Seen);
      }
    }
    Uses[B] = std::move(All);
  }
  // The first use of each member in forward's source, for the report.
  llvm::DenseMap<const Decl *, const Expr *> FirstUse;
  {
    llvm::SmallVector<const Stmt *, 32> Work{Forward->getBody()};
    const SourceManager &SM = AST.getSourceManager();
    while (!Work.empty()) {
      const Stmt *S = Work.pop_back_val();
      if (!S)
        continue;
      if (const auto *ME = dyn_cast<MemberExpr>(S)) {
        // A member, or the members a method of the class uses.
        llvm::SmallPtrSet<const Decl *, 8> Named{ME->getMemberDecl()};
        if (const auto *Method = dyn_cast<CXXMethodDecl>(ME->getMemberDecl()))
          if (Method->getParent() == Module) {
            llvm::SmallPtrSet<const CXXMethodDecl *, 4> Seen;
            const FunctionDecl *Def = Method->getDefinition();
            methodUses(Def ? cast<CXXMethodDecl>(Def) : Method, Module, Named,
                       Seen);
          }
        for (const Decl *D : Named) {
          const Expr *&Slot = FirstUse[D];
          if (!Slot || SM.isBeforeInTranslationUnit(ME->getBeginLoc(),
                                                    Slot->getBeginLoc()))
            Slot = ME;
        }
      }
      for (const Stmt *Child : S->children())
        Work.push_back(Child);
    }
  }
  for (const auto &[Member, Registration] : Members) {
    // Is there a path from entry to exit that never uses the member?
    llvm::SmallPtrSet<const CFGBlock *, 32> Seen;
    llvm::SmallVector<const CFGBlock *, 32> Work{&Cfg->getEntry()};
    bool Avoidable = false, UsedAnywhere = false;
    for (const auto &[B, Refs] : Uses)
      UsedAnywhere |= Refs.contains(Member);
    while (!Work.empty() && !Avoidable) {
      const CFGBlock *B = Work.pop_back_val();
      if (!B || !Seen.insert(B).second)
        continue;
      if (Uses.lookup(B).contains(Member))
        continue;
      if (B == &Cfg->getExit()) {
        Avoidable = true;
        break;
      }
      for (const CFGBlock::AdjacentBlock &Succ : B->succs())
        Work.push_back(Succ.getReachableBlock());
    }
    if (UsedAnywhere && !Avoidable)
      continue;
    PartialUse P;
    P.Member = Member;
    P.Registration = Registration;
    P.FirstUse = UsedAnywhere ? FirstUse.lookup(Member) : nullptr;
    if (P.FirstUse) {
      // The innermost branch around the use.
      DynTypedNode Node = DynTypedNode::create(*P.FirstUse);
      for (unsigned Depth = 0; Depth < 64 && !P.Branch; ++Depth) {
        DynTypedNodeList Parents = AST.getParents(Node);
        if (Parents.empty())
          break;
        const Stmt *Parent = Parents[0].get<Stmt>();
        if (!Parent)
          break;
        if (isa<IfStmt, AbstractConditionalOperator, SwitchStmt, ForStmt,
                WhileStmt, DoStmt, CXXForRangeStmt>(Parent))
          P.Branch = Parent;
        else if (const auto *BO = dyn_cast<BinaryOperator>(Parent))
          if (BO->isLogicalOp())
            P.Branch = Parent;
        Node = Parents[0];
      }
      // Otherwise an early return before it.
      if (!P.Branch) {
        const SourceManager &SM = AST.getSourceManager();
        llvm::SmallVector<const Stmt *, 32> Work2{Forward->getBody()};
        while (!Work2.empty()) {
          const Stmt *S = Work2.pop_back_val();
          if (!S)
            continue;
          if (isa<ReturnStmt>(S) &&
              SM.isBeforeInTranslationUnit(S->getEndLoc(),
                                           P.FirstUse->getBeginLoc()) &&
              (!P.Branch || SM.isBeforeInTranslationUnit(
                                P.Branch->getBeginLoc(), S->getBeginLoc())))
            P.Branch = S;
          for (const Stmt *Child : S->children())
            Work2.push_back(Child);
        }
      }
    }
    Out.push_back(P);
  }
  return Out;
}

} // namespace ddp
