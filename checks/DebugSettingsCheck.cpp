//===--- DebugSettingsCheck.cpp - ddp-debug-settings ----------------------===//

#include "DebugSettingsCheck.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "core/ProcessGroupSetup.h"
#include <cmath>

using namespace clang::ast_matchers;

namespace clang::tidy::ddp {

DebugSettingsCheck::DebugSettingsCheck(StringRef Name,
                                       ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      MinTimeoutSeconds(Options.get("MinTimeoutSeconds", 60u)),
      BlockingWaitWithAsyncErrorHandling(
          Options.get("BlockingWaitWithAsyncErrorHandling", true)),
      DebugLogging(Options.get("DebugLogging", true)),
      IgnoreTestPrograms(Options.get("IgnoreTestPrograms", true)) {
  ::ddp::AnalysisOptions Defaults;
  Analysis.LibraryNamespaces =
      Options.getLocalOrGlobal("LibraryNamespaces", Defaults.LibraryNamespaces)
          .str();
}

void DebugSettingsCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "MinTimeoutSeconds", MinTimeoutSeconds);
  Options.store(Opts, "BlockingWaitWithAsyncErrorHandling",
                BlockingWaitWithAsyncErrorHandling);
  Options.store(Opts, "DebugLogging", DebugLogging);
  Options.store(Opts, "IgnoreTestPrograms", IgnoreTestPrograms);
  Options.store(Opts, "LibraryNamespaces", Analysis.LibraryNamespaces);
}

void DebugSettingsCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(translationUnitDecl().bind("tu"), this);
}

/// "5 s", "500 ms", "2 min".
static std::string showDuration(double Seconds) {
  if (Seconds < 1)
    return std::to_string(long(std::lround(Seconds * 1000))) + " ms";
  if (Seconds >= 120 && std::fmod(Seconds, 60) == 0)
    return std::to_string(long(Seconds / 60)) + " min";
  return std::to_string(long(std::lround(Seconds))) + " s";
}

/// True if the value a variable is set to turns the setting on: anything
/// but empty, "0", "false", "off", "no".
static bool turnsOn(const std::optional<std::string> &Value) {
  if (!Value)
    return true; // Not a literal: assume it does.
  llvm::StringRef V(*Value);
  return !(V.empty() || V == "0" || V.equals_insensitive("false") ||
           V.equals_insensitive("off") || V.equals_insensitive("no"));
}

/// True if \p DC, in the main file, defines a GoogleTest test (a class
/// derived from testing::Test, as TEST and TEST_F make).
static bool definesTest(const DeclContext *DC, const SourceManager &SM) {
  for (const Decl *D : DC->decls()) {
    if (!SM.isInMainFile(SM.getExpansionLoc(D->getLocation())))
      continue;
    if (const auto *NS = dyn_cast<NamespaceDecl>(D)) {
      if (definesTest(NS, SM))
        return true;
      continue;
    }
    const auto *RD = dyn_cast<CXXRecordDecl>(D);
    if (!RD || !RD->hasDefinition())
      continue;
    bool Derived = false;
    RD->forallBases([&](const CXXRecordDecl *Base) {
      Derived |= Base->getQualifiedNameAsString() == "testing::Test";
      return !Derived;
    });
    if (Derived)
      return true;
  }
  return false;
}

void DebugSettingsCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &AST = *Result.Context;
  // A test sets what it tests: the short timeout that makes a hang fail
  // fast, the error handling or logging it exercises.
  if (IgnoreTestPrograms &&
      definesTest(AST.getTranslationUnitDecl(), AST.getSourceManager()))
    return;
  ::ddp::AnalysisContext Ctx(AST, Analysis);
  ::ddp::ProcessGroupSetup Setup = ::ddp::collectProcessGroupSetup(Ctx);

  // 1. Short timeouts.
  if (MinTimeoutSeconds > 0)
    for (const ::ddp::TimeoutSetting &T : Setup.Timeouts) {
      std::optional<double> Seconds = ::ddp::durationSeconds(T.Value, AST);
      if (!Seconds || *Seconds >= MinTimeoutSeconds || *Seconds <= 0)
        continue;
      diag(T.Value->getBeginLoc(),
           "a %0 timeout of %1 is hard-coded: right for making a hang fail "
           "fast while debugging, too short for production, where a "
           "legitimately slow step or checkpoint trips it; read it from the "
           "configuration (below %2 s is reported)")
          << T.Of << showDuration(*Seconds) << MinTimeoutSeconds;
    }

  // 2. Blocking wait and async error handling both set from code.
  if (BlockingWaitWithAsyncErrorHandling) {
    const ::ddp::EnvAccess *Blocking = nullptr, *Async = nullptr;
    for (const ::ddp::EnvAccess &E : Setup.Env) {
      if (!E.Sets || !turnsOn(E.Value))
        continue;
      if (E.Name == "TORCH_NCCL_BLOCKING_WAIT" ||
          E.Name == "NCCL_BLOCKING_WAIT")
        Blocking = Blocking ? Blocking : &E;
      if (E.Name == "TORCH_NCCL_ASYNC_ERROR_HANDLING" ||
          E.Name == "NCCL_ASYNC_ERROR_HANDLING")
        Async = Async ? Async : &E;
    }
    if (Blocking && Async) {
      const ::ddp::EnvAccess *Later =
          AST.getSourceManager().isBeforeInTranslationUnit(
              Blocking->Call->getBeginLoc(), Async->Call->getBeginLoc())
              ? Async
              : Blocking;
      const ::ddp::EnvAccess *Earlier = Later == Async ? Blocking : Async;
      diag(Later->Call->getBeginLoc(),
           "'%0' and '%1' are both set in code: blocking wait is for "
           "diagnosing a hang (the stuck rank's stack shows the collective), "
           "async error handling for production (the watchdog aborts and "
           "torchelastic restarts); do not ship both, and set them in the "
           "job's environment rather than in code")
          << Later->Name << Earlier->Name;
      diag(Earlier->Call->getBeginLoc(), "'%0' is set here",
           DiagnosticIDs::Note)
          << Earlier->Name;
    }
  }

  // 3. Debug logging forced on.
  if (DebugLogging)
    for (const ::ddp::EnvAccess &E : Setup.Env) {
      if (!E.Sets)
        continue;
      bool Nccl = E.Name == "NCCL_DEBUG" || E.Name == "NCCL_DEBUG_SUBSYS";
      bool Torch = E.Name == "TORCH_DISTRIBUTED_DEBUG" ||
                   E.Name == "TORCH_CPP_LOG_LEVEL";
      if (!Nccl && !Torch)
        continue;
      if (E.Value) {
        llvm::StringRef V(*E.Value);
        if (V.empty() || V.equals_insensitive("OFF") ||
            V.equals_insensitive("WARN") || V.equals_insensitive("VERSION") ||
            V.equals_insensitive("ERROR"))
          continue;
      }
      diag(E.Call->getBeginLoc(),
           "'%0' is forced %select{to '%2'|on}1 in code: debug logging that "
           "floods every rank's log and slows collectives; set it in the "
           "environment of the run you are debugging")
          << E.Name << !E.Value.has_value() << E.Value.value_or("");
    }
}

} // namespace clang::tidy::ddp
