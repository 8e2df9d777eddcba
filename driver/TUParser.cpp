//===--- TUParser.cpp - Parse one TU and summarise it ---------------------===//

#include "TUParser.h"
#include "ParseArguments.h"
#include "SharedPreamble.h"
#include "SummaryCache.h"
#include "TUSummarizer.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <fmt/format.h>

using namespace clang;

namespace ddp::driver {
namespace {

/// Keeps the first error, counts the rest, prints nothing.
class ErrorCollector : public DiagnosticConsumer {
public:
  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level < DiagnosticsEngine::Error)
      return;
    if (++Errors > 1)
      return;
    llvm::SmallString<128> Text;
    Info.FormatDiagnostic(Text);
    Message = Text.str().str();
    First = Message;
    if (Info.hasSourceManager() && Info.getLocation().isValid()) {
      const SourceManager &SM = Info.getSourceManager();
      SourceLocation Loc = SM.getExpansionLoc(Info.getLocation());
      PresumedLoc P = SM.getPresumedLoc(Loc);
      if (P.isValid()) {
        First = fmt::format("{}:{}:{}: {}", P.getFilename(), P.getLine(),
                            P.getColumn(), First);
        At.Line = P.getLine();
        At.Column = P.getColumn();
        At.File = P.getFilename();
        if (OptionalFileEntryRef Entry =
                SM.getFileEntryRefForID(SM.getFileID(Loc)))
          if (!Entry->getFileEntry().tryGetRealPathName().empty())
            At.File = Entry->getFileEntry().tryGetRealPathName().str();
      }
    }
  }
  unsigned Errors = 0;
  /// The first error: with its location, without it, and where it is.
  std::string First, Message;
  Location At;
};

} // namespace

ParsedTU::ParsedTU() = default;
ParsedTU::ParsedTU(ParsedTU &&) = default;
ParsedTU::~ParsedTU() = default;

ParsedTU ParsedTU::parse(const tooling::CompileCommand &Command,
                         const Preamble *Against) {
  ParsedTU Out;
  // A database that answers with exactly this command.
  class Single : public tooling::CompilationDatabase {
  public:
    explicit Single(tooling::CompileCommand C) : C(std::move(C)) {}
    std::vector<tooling::CompileCommand>
    getCompileCommands(StringRef) const override {
      return {C};
    }

  private:
    tooling::CompileCommand C;
  } Database(Command);

  // Each TU gets a file system of its own whose working directory is the
  // command's: the process's one is shared by the threads.
  llvm::SmallString<256> File(Command.Filename);
  if (!llvm::sys::path::is_absolute(File)) {
    File = Command.Directory;
    llvm::sys::path::append(File, Command.Filename);
  }
  tooling::ClangTool Tool(Database, {std::string(File)},
                          std::make_shared<PCHContainerOperations>(),
                          llvm::vfs::createPhysicalFileSystem());
  Tool.setPrintErrorMessage(false);
  Tool.appendArgumentsAdjuster(tooling::getClangStripOutputAdjuster());
  Tool.appendArgumentsAdjuster(tooling::getClangSyntaxOnlyAdjuster());
  Tool.appendArgumentsAdjuster(
      tooling::getClangStripDependencyFileAdjuster());
  appendParseAdjusters(Tool, Command);
  if (Against)
    Tool.appendArgumentsAdjuster(Against->parseAdjuster());
  ErrorCollector Errors;
  Tool.setDiagnosticConsumer(&Errors);
  std::vector<std::unique_ptr<ASTUnit>> ASTs;
  Tool.buildASTs(ASTs);
  // A TU with compile errors is analysed as far as it compiled, as
  // clang-tidy does; only one that did not parse at all is an input error.
  if (ASTs.size() != 1 || !ASTs[0]) {
    Out.Error = Errors.First.empty() ? "the compiler could not run"
                                     : Errors.First;
    if (Errors.Errors > 1)
      Out.Error += fmt::format(" (and {} more error{})", Errors.Errors - 1,
                               Errors.Errors > 2 ? "s" : "");
    return Out;
  }
  Out.CompileErrors = Errors.Errors;
  Out.FirstError = Errors.Message;
  Out.FirstErrorAt = Errors.At;
  Out.AST = std::move(ASTs[0]);
  // The unit keeps its diagnostics engine, whose client is Errors: detach.
  Out.AST->getDiagnostics().setClient(new DiagnosticConsumer(),
                                      /*ShouldOwnClient=*/true);
  Out.Dependencies = dependenciesOf(Out.AST->getSourceManager());
  if (Against)
    Against->addDependencies(Out.Dependencies);
  return Out;
}

size_t ParsedTU::memoryBytes() const {
  if (!AST)
    return 0;
  const ASTContext &Context = AST->getASTContext();
  const SourceManager &SM = AST->getSourceManager();
  SourceManager::MemoryBufferSizes Buffers = SM.getMemoryBufferSizes();
  size_t Bytes = Context.getASTAllocatedMemory() +
                 Context.getSideTableAllocatedMemory() +
                 SM.getDataStructureSizes() + SM.getContentCacheSize() +
                 Buffers.malloc_bytes + Buffers.mmap_bytes;
  if (AST->getPreprocessorPtr())
    Bytes += AST->getPreprocessor().getTotalMemory();
  if (Analysis)
    Bytes += Analysis->memoryBytes();
  return Bytes;
}

TUSummary ParsedTU::summarize(const AnalysisOptions &Opts,
                              const std::vector<FactRecord> &Imports) {
  if (!AST) {
    TUSummary Failed;
    Failed.Error = Error;
    return Failed;
  }
  if (!Analysis || !Analysis->extends(Imports))
    Analysis = std::make_unique<TUAnalysis>(AST->getASTContext(), Opts);
  TUSummary Out = Analysis->summarize(Imports);
  Out.Dependencies = Dependencies;
  Out.CompileErrors = CompileErrors;
  Out.FirstError = FirstError;
  Out.FirstErrorAt = FirstErrorAt;
  return Out;
}

} // namespace ddp::driver
