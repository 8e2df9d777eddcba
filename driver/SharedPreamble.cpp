//===--- SharedPreamble.cpp - One precompiled header for TUs that share it ===//

#include "SharedPreamble.h"
#include "InputNesting.h"
#include "LeadingIncludes.h"
#include "ParseArguments.h"
#include "SummaryCache.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
#include <chrono>
#include <fmt/format.h>
#include <optional>

using namespace clang;
namespace json = llvm::json;

namespace ddp::driver {

#ifndef DDP_LINT_VERSION
#define DDP_LINT_VERSION "0"
#endif

namespace {

constexpr llvm::StringLiteral RecordFormat = "ddp-lint-preamble";
constexpr unsigned RecordVersion = 1;

std::string absolutePath(llvm::StringRef Base, llvm::StringRef Path) {
  llvm::SmallString<256> Abs(Path);
  if (!llvm::sys::path::is_absolute(Abs)) {
    Abs = Base;
    llvm::sys::path::append(Abs, Path);
  }
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return std::string(Abs);
}

/// The header kind a precompiled prefix of \p File is compiled as, or empty
/// for a file that is neither C nor C++ by its name.
std::string headerLanguage(llvm::StringRef File) {
  llvm::StringRef Ext = llvm::sys::path::extension(File);
  if (Ext == ".c")
    return "c-header";
  if (Ext == ".cc" || Ext == ".cpp" || Ext == ".cxx" || Ext == ".c++" ||
      Ext == ".C" || Ext == ".cp" || Ext == ".CPP")
    return "c++-header";
  return "";
}

/// A flag after which the TU's parse does not begin with its own leading
/// includes (forced includes, another PCH), whose language is not the
/// file's, or whose includes may become module imports.
bool changesThePrefix(llvm::StringRef Arg) {
  return Arg.starts_with("-include") || Arg.starts_with("--include") ||
         Arg.starts_with("-imacros") || Arg.starts_with("--imacros") ||
         Arg.starts_with("-x") || Arg.starts_with("--language") ||
         Arg.starts_with("-fmodules") || Arg.starts_with("-fmodule-") ||
         Arg.starts_with("-fcxx-modules") || Arg.starts_with("--driver-mode") ||
         Arg.starts_with("-emit-");
}

/// One TU that could share a preamble.
struct Candidate {
  size_t Index;
  /// Working directory, language and flags: what must be equal.
  std::string Flags;
  std::vector<std::string> Arguments;
  std::string Language;
  std::vector<std::string> Includes;
};

std::optional<Candidate> candidate(const tooling::CompileCommand &Command,
                                   size_t Index, llvm::StringRef Dir,
                                   std::string &Why) {
  std::string File = absolutePath(Command.Directory, Command.Filename);
  Candidate C;
  C.Index = Index;
  C.Language = headerLanguage(File);
  if (C.Language.empty()) {
    Why = "not a C or C++ file by its name";
    return std::nullopt;
  }
  // The flags as the parse gets them, less the file itself.
  tooling::CommandLineArguments Args = Command.CommandLine;
  for (const tooling::ArgumentsAdjuster &Adjust :
       {tooling::getClangStripOutputAdjuster(),
        tooling::getClangSyntaxOnlyAdjuster(),
        tooling::getClangStripDependencyFileAdjuster()})
    Args = Adjust(Args, Command.Filename);
  unsigned Named = 0;
  for (size_t I = 1; I < Args.size(); ++I) {
    if (Args[I] == Command.Filename ||
        (!llvm::StringRef(Args[I]).starts_with("-") &&
         absolutePath(Command.Directory, Args[I]) == File)) {
      ++Named;
      continue;
    }
    if (changesThePrefix(Args[I])) {
      Why = "its flags hold '" + Args[I] + "'";
      return std::nullopt;
    }
    C.Arguments.push_back(Args[I]);
  }
  if (Args.empty() || Named != 1) {
    Why = "its command does not name the file once";
    return std::nullopt;
  }
  llvm::StringRef Compiler = llvm::sys::path::stem(Args[0]);
  if (Compiler == "clang-cl" || Compiler.equals_insensitive("cl")) {
    Why = "a clang-cl command";
    return std::nullopt;
  }
  C.Arguments.insert(C.Arguments.begin(), Args[0]);

  auto Text = llvm::MemoryBuffer::getFile(File);
  if (!Text) {
    Why = "the file cannot be read";
    return std::nullopt;
  }
  llvm::StringRef Here = llvm::sys::path::parent_path(File);
  for (const LeadingInclude &I : leadingIncludes((*Text)->getBuffer())) {
    if (I.Angled || llvm::sys::path::is_absolute(I.Name)) {
      C.Includes.push_back(I.spelling());
      continue;
    }
    // A quoted name is looked up beside the includer first. A header found
    // beside the TU is named by its path; any other must not be found
    // beside the precompiled header either.
    llvm::SmallString<256> Beside(Here);
    llvm::sys::path::append(Beside, I.Name);
    if (llvm::sys::fs::is_regular_file(Beside)) {
      C.Includes.push_back("\"" + std::string(Beside) + "\"");
      continue;
    }
    llvm::SmallString<256> InDir(Dir);
    llvm::sys::path::append(InDir, I.Name);
    if (llvm::sys::fs::exists(InDir))
      break;
    C.Includes.push_back(I.spelling());
  }
  if (C.Includes.empty()) {
    Why = "it does not start with #include";
    return std::nullopt;
  }
  C.Flags = Command.Directory + '\0' + C.Language;
  for (const std::string &A : C.Arguments)
    C.Flags += '\0' + A;
  return C;
}

size_t commonPrefix(const Candidate &A, const Candidate &B) {
  if (A.Flags != B.Flags)
    return 0;
  size_t N = 0;
  while (N < A.Includes.size() && N < B.Includes.size() &&
         A.Includes[N] == B.Includes[N])
    ++N;
  return N;
}

/// Names a preamble's files: a hash of what its TUs share, up to their first
/// #include. A later run, or a run over one of the TUs, finds it again
/// whatever else the TUs include.
std::string bucketKey(const Candidate &C) {
  std::string Text =
      fmt::format("ddp-lint {} preamble {} llvm {}\n", DDP_LINT_VERSION,
                  RecordVersion, LLVM_VERSION_MAJOR);
  Text += C.Flags + '\0' + C.Includes.front();
  return fmt::format("{:016x}", llvm::xxh3_64bits(Text));
}

/// Keeps the first error of the build, prints nothing.
class FirstError : public DiagnosticConsumer {
public:
  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level < DiagnosticsEngine::Error || !First.empty())
      return;
    llvm::SmallString<128> Text;
    Info.FormatDiagnostic(Text);
    First = Text.str().str();
    if (Info.hasSourceManager() && Info.getLocation().isValid()) {
      PresumedLoc P =
          Info.getSourceManager().getPresumedLoc(Info.getLocation());
      if (P.isValid())
        First = fmt::format("{}:{}:{}: {}", P.getFilename(), P.getLine(),
                            P.getColumn(), First);
    }
  }
  std::string First;
};

struct BuildResult {
  /// The first top-level header that a second #include would enter again,
  /// by its directive's index.
  std::optional<size_t> Unguarded;
  std::vector<Dependency> Dependencies;
};

/// The headers the precompiled header's own directives entered.
class TopLevelIncludes : public PPCallbacks {
public:
  TopLevelIncludes(SourceManager &SM,
                   std::vector<std::pair<size_t, FileEntryRef>> &Out)
      : SM(SM), Out(Out) {}

  void FileChanged(SourceLocation Loc, FileChangeReason Reason,
                   SrcMgr::CharacteristicKind, FileID) override {
    if (Reason != EnterFile)
      return;
    FileID Entered = SM.getFileID(Loc);
    SourceLocation From = SM.getIncludeLoc(Entered);
    if (From.isInvalid() || SM.getFileID(From) != SM.getMainFileID())
      return;
    if (OptionalFileEntryRef File = SM.getFileEntryRefForID(Entered))
      Out.push_back({SM.getSpellingLineNumber(From) - 1, *File});
  }

private:
  SourceManager &SM;
  std::vector<std::pair<size_t, FileEntryRef>> &Out;
};

/// Builds the PCH, and checks that each header its directives entered is
/// skipped by a second #include of it (#pragma once, or an include guard
/// still defined at the end), as the TU's own directives will be.
class BuildAction : public GeneratePCHAction {
public:
  explicit BuildAction(BuildResult &Out) : Out(Out) {}

protected:
  bool BeginSourceFileAction(CompilerInstance &CI) override {
    if (!GeneratePCHAction::BeginSourceFileAction(CI))
      return false;
    CI.getPreprocessor().addPPCallbacks(
        std::make_unique<TopLevelIncludes>(CI.getSourceManager(), Entered));
    return true;
  }

  void EndSourceFileAction() override {
    CompilerInstance &CI = getCompilerInstance();
    Preprocessor &PP = CI.getPreprocessor();
    HeaderSearch &HS = PP.getHeaderSearchInfo();
    for (const auto &[Index, File] : Entered) {
      HeaderFileInfo &Info = HS.getFileInfo(File);
      bool Guarded = Info.isPragmaOnce || Info.isImport;
      if (!Guarded)
        if (const IdentifierInfo *Macro =
                Info.getControllingMacro(PP.getExternalSource()))
          Guarded = PP.isMacroDefined(Macro);
      if (!Guarded && (!Out.Unguarded || Index < *Out.Unguarded))
        Out.Unguarded = Index;
    }
    Out.Dependencies = dependenciesOf(CI.getSourceManager());
    GeneratePCHAction::EndSourceFileAction();
  }

private:
  BuildResult &Out;
  std::vector<std::pair<size_t, FileEntryRef>> Entered;
};

class BuildFactory : public tooling::FrontendActionFactory {
public:
  BuildFactory(std::string PCHPath, BuildResult &Out)
      : PCHPath(std::move(PCHPath)), Out(Out) {}

  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<BuildAction>(Out);
  }

  bool runInvocation(std::shared_ptr<CompilerInvocation> Invocation,
                     FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> Ops,
                     DiagnosticConsumer *Diags) override {
    FrontendOptions &Frontend = Invocation->getFrontendOpts();
    Frontend.OutputFile = PCHPath;
    Frontend.ProgramAction = frontend::GeneratePCH;
    // The templates the headers need are instantiated once, here, not in
    // every TU. A TU's own uses are instantiated in the TU.
    Invocation->getLangOpts().PCHInstantiateTemplates = true;
    // A header touched but not changed does not invalidate the PCH.
    Invocation->getHeaderSearchOpts().ValidateASTInputFilesContent = true;
    return FrontendActionFactory::runInvocation(std::move(Invocation), Files,
                                                std::move(Ops), Diags);
  }

private:
  std::string PCHPath;
  BuildResult &Out;
};

/// Compiles \p HeaderPath, a file of the group's directives, into \p PCHPath.
/// Returns the first error, if any.
std::string build(const PreambleGroup &G, const std::string &HeaderPath,
                  const std::string &PCHPath, BuildResult &Out) {
  tooling::CompileCommand Command;
  Command.Directory = G.Directory;
  Command.Filename = HeaderPath;
  Command.CommandLine = G.Arguments;
  Command.CommandLine.insert(Command.CommandLine.end(),
                             {"-x", G.Language, HeaderPath});
  class Single : public tooling::CompilationDatabase {
  public:
    explicit Single(tooling::CompileCommand C) : C(std::move(C)) {}
    std::vector<tooling::CompileCommand>
    getCompileCommands(llvm::StringRef) const override {
      return {C};
    }

  private:
    tooling::CompileCommand C;
  } Database(Command);
  tooling::ClangTool Tool(Database, {HeaderPath},
                          std::make_shared<PCHContainerOperations>(),
                          llvm::vfs::createPhysicalFileSystem());
  Tool.setPrintErrorMessage(false);
  appendParseAdjusters(Tool, Command);
  FirstError Errors;
  Tool.setDiagnosticConsumer(&Errors);
  BuildFactory Factory(PCHPath, Out);
  int Status = Tool.run(&Factory);
  if (!Errors.First.empty())
    return Errors.First;
  if (Status != 0)
    return "the compiler could not run";
  if (!llvm::sys::fs::exists(PCHPath))
    return "the precompiled header was not written";
  return "";
}

using Record = PreambleRecord;

std::optional<Record> readRecord(const std::string &Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return std::nullopt;
  llvm::Expected<Record> R = preambleRecordFromJSON((*Buffer)->getBuffer());
  if (!R) {
    // A damaged record is built again.
    llvm::consumeError(R.takeError());
    return std::nullopt;
  }
  return std::move(*R);
}

void writeRecord(const Record &R, const std::string &Path) {
  // Written whole or not at all: another run may read it meanwhile.
  llvm::consumeError(llvm::writeToOutput(Path, [&](llvm::raw_ostream &OS) {
    OS << toJSON(R);
    return llvm::Error::success();
  }));
}

/// A record is valid while every file it was built from is unchanged and
/// its PCH is the one it describes.
bool valid(const Record &R, llvm::StringRef Key) {
  if (R.Key != Key || !llvm::all_of(R.Dependencies, isUnchanged))
    return false;
  if (!R.Error.empty())
    return true;
  return R.PCH && !R.Includes.empty() && isUnchanged(*R.PCH);
}

bool isPrefix(const std::vector<std::string> &Prefix,
              const std::vector<std::string> &Of) {
  return Prefix.size() <= Of.size() &&
         std::equal(Prefix.begin(), Prefix.end(), Of.begin());
}

std::string pathIn(llvm::StringRef Dir, llvm::StringRef Name) {
  llvm::SmallString<256> Path(Dir);
  llvm::sys::path::append(Path, Name);
  return std::string(Path);
}

/// Names the files of the preamble of \p Includes in \p Bucket: preambles of
/// other directives never share a file, so that concurrent runs (two targets
/// of one build) cannot replace each other's.
std::string fileStem(llvm::StringRef Bucket,
                     const std::vector<std::string> &Includes) {
  std::string Text;
  for (const std::string &I : Includes)
    Text += I + "\n";
  return fmt::format("{}-{:08x}", Bucket.str(),
                     uint32_t(llvm::xxh3_64bits(Text)));
}

/// The valid, usable preamble of \p Bucket in \p Dir whose directives begin
/// \p Includes, the one with the most; with its file stem.
std::optional<std::pair<std::string, Record>>
bestExisting(llvm::StringRef Dir, llvm::StringRef Bucket,
             const std::vector<std::string> &Includes) {
  std::optional<std::pair<std::string, Record>> Best;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC)) {
    llvm::StringRef Name = llvm::sys::path::filename(It->path());
    if (!Name.starts_with((Bucket + "-").str()) || !Name.ends_with(".json"))
      continue;
    std::optional<Record> R = readRecord(It->path());
    if (!R || !R->Error.empty() || !isPrefix(R->Includes, Includes) ||
        (Best && Best->second.Includes.size() >= R->Includes.size()) ||
        !valid(*R, Bucket))
      continue;
    Best.emplace(Name.drop_back(strlen(".json")).str(), std::move(*R));
  }
  return Best;
}

} // namespace

static bool fromJSON(const json::Value &V, PreambleRecord &R, json::Path P) {
  json::ObjectMapper M(V, P);
  std::string Format;
  int64_t Version = 0;
  if (!M || !M.map("format", Format) || !M.map("version", Version))
    return false;
  if (Format != RecordFormat || Version != RecordVersion) {
    P.report("not a ddp-lint preamble record of this version");
    return false;
  }
  return M.map("key", R.Key) && M.map("planned", R.Planned) &&
         M.map("includes", R.Includes) && M.map("error", R.Error) &&
         M.mapOptional("pch", R.PCH) && M.map("dependencies", R.Dependencies);
}

llvm::Expected<PreambleRecord> preambleRecordFromJSON(llvm::StringRef Text) {
  llvm::Expected<json::Value> V = parseBoundedJSON(Text);
  if (!V)
    return V.takeError();
  PreambleRecord R;
  json::Path::Root Root("preamble");
  if (!fromJSON(*V, R, Root))
    return Root.getError();
  return R;
}

std::string toJSON(const PreambleRecord &R) {
  json::Array Deps;
  for (const Dependency &D : R.Dependencies)
    Deps.push_back(toJSON(D));
  json::Object O{{"format", RecordFormat},
                 {"version", RecordVersion},
                 {"key", R.Key},
                 {"planned", R.Planned},
                 {"includes", R.Includes},
                 {"error", R.Error},
                 {"dependencies", std::move(Deps)}};
  if (R.PCH)
    O["pch"] = toJSON(*R.PCH);
  std::string Text;
  llvm::raw_string_ostream(Text) << json::Value(std::move(O));
  return Text;
}

PreamblePlan planPreambles(const std::vector<tooling::CompileCommand> &Commands,
                           llvm::StringRef Dir) {
  PreamblePlan Plan;
  Plan.GroupOf.assign(Commands.size(), -1);
  Plan.Why.assign(Commands.size(), "");
  std::vector<Candidate> Candidates;
  for (size_t I = 0; I < Commands.size(); ++I)
    if (auto C = candidate(Commands[I], I, Dir, Plan.Why[I]))
      Candidates.push_back(std::move(*C));
  // One preamble per flags and first #include: the fewest builds. It holds
  // what all its TUs start with; a longer prefix shared by only some of
  // them would cost another build, which costs more than the few headers
  // it would save each TU.
  llvm::StringMap<std::vector<const Candidate *>> Buckets;
  std::vector<std::string> Order;
  for (const Candidate &C : Candidates) {
    std::string Bucket = bucketKey(C);
    auto [It, New] = Buckets.try_emplace(Bucket);
    if (New)
      Order.push_back(Bucket);
    It->second.push_back(&C);
  }
  for (const std::string &Bucket : Order) {
    const std::vector<const Candidate *> &Members = Buckets[Bucket];
    if (Members.size() < 2) {
      Plan.Why[Members.front()->Index] =
          "no other TU has its flags and first #include";
      continue;
    }
    size_t Shared = Members.front()->Includes.size();
    for (const Candidate *C : Members)
      Shared = std::min(Shared, commonPrefix(*Members.front(), *C));
    PreambleGroup G;
    G.Directory = Commands[Members.front()->Index].Directory;
    G.Arguments = Members.front()->Arguments;
    G.Language = Members.front()->Language;
    G.Includes.assign(Members.front()->Includes.begin(),
                      Members.front()->Includes.begin() + Shared);
    G.Key = Bucket;
    for (const Candidate *C : Members) {
      G.Members.push_back(C->Index);
      Plan.GroupOf[C->Index] = int(Plan.Groups.size());
    }
    Plan.Groups.push_back(std::move(G));
  }
  return Plan;
}

std::optional<Preamble> existingPreamble(const tooling::CompileCommand &Command,
                                         llvm::StringRef Dir) {
  std::string Why;
  std::optional<Candidate> C = candidate(Command, 0, Dir, Why);
  if (!C)
    return std::nullopt;
  auto Found = bestExisting(Dir, bucketKey(*C), C->Includes);
  if (!Found)
    return std::nullopt;
  Preamble P;
  P.PCHPath = pathIn(Dir, Found->first + ".pch");
  P.Includes = std::move(Found->second.Includes);
  P.Dependencies = std::move(Found->second.Dependencies);
  P.Reused = true;
  return P;
}

tooling::ArgumentsAdjuster Preamble::parseAdjuster() const {
  return tooling::getInsertArgumentAdjuster(
      {"-include-pch", PCHPath, "-fpch-validate-input-files-content"},
      tooling::ArgumentInsertPosition::END);
}

void Preamble::addDependencies(std::vector<Dependency> &TU) const {
  // The preamble's own header is a file of the cache, not of the program.
  llvm::StringRef Dir = llvm::sys::path::parent_path(PCHPath);
  llvm::SmallString<256> RealDir;
  if (llvm::sys::fs::real_path(Dir, RealDir))
    RealDir = Dir;
  llvm::erase_if(TU, [&](const Dependency &D) {
    llvm::StringRef Parent = llvm::sys::path::parent_path(D.Path);
    return Parent == Dir || Parent == RealDir;
  });
  TU.insert(TU.end(), Dependencies.begin(), Dependencies.end());
  llvm::sort(TU, [](const Dependency &A, const Dependency &B) {
    return A.Path < B.Path;
  });
  TU.erase(std::unique(TU.begin(), TU.end(),
                       [](const Dependency &A, const Dependency &B) {
                         return A.Path == B.Path;
                       }),
           TU.end());
}

Preamble obtainPreamble(const PreambleGroup &G, llvm::StringRef Dir) {
  auto Start = std::chrono::steady_clock::now();
  std::string Stem = fileStem(G.Key, G.Includes);
  std::string Header = pathIn(Dir, Stem + ".h");
  std::string RecordPath = pathIn(Dir, Stem + ".json");
  Preamble P;
  P.PCHPath = pathIn(Dir, Stem + ".pch");
  auto Done = [&] {
    P.Seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
            .count();
    return P;
  };
  // A failure stands for the directives it was tried on.
  std::optional<Record> R = readRecord(RecordPath);
  if (R && !R->Error.empty() && R->Planned == G.Includes &&
      valid(*R, G.Key)) {
    P.Error = std::move(R->Error);
    P.Reused = true;
    return Done();
  }
  // A valid preamble of these directives or of fewer of them serves (one
  // built for more TUs, or before a header lost its guard).
  if (auto Found = bestExisting(Dir, G.Key, G.Includes)) {
    P.PCHPath = pathIn(Dir, Found->first + ".pch");
    P.Includes = std::move(Found->second.Includes);
    P.Dependencies = std::move(Found->second.Dependencies);
    P.Reused = true;
    return Done();
  }

  R = Record();
  R->Key = G.Key;
  R->Planned = R->Includes = G.Includes;
  BuildResult Built;
  bool Recordable = true;
  while (true) {
    std::string Text;
    for (const std::string &I : R->Includes)
      Text += "#include " + I + "\n";
    if (llvm::Error E = llvm::writeToOutput(Header, [&](llvm::raw_ostream &OS) {
          OS << Text;
          return llvm::Error::success();
        })) {
      R->Error =
          "cannot write '" + Header + "': " + llvm::toString(std::move(E));
      Recordable = false;
      break;
    }
    Built = BuildResult();
    R->Error = build(G, Header, P.PCHPath, Built);
    if (!R->Error.empty()) {
      // A header that does not compile is recorded; a PCH that could not be
      // written is tried again next time.
      Recordable = !Built.Dependencies.empty();
      break;
    }
    if (!Built.Unguarded)
      break;
    if (*Built.Unguarded == 0) {
      R->Error = "its first header, " + R->Includes.front() +
                 ", has no include guard: a TU's own #include would read it "
                 "again";
      break;
    }
    // Precompile only the headers before the one a TU would read again.
    R->Includes.resize(*Built.Unguarded);
  }
  R->Dependencies = std::move(Built.Dependencies);
  P.Includes = R->Includes;
  P.Error = R->Error;
  llvm::SmallString<256> RealHeader;
  if (llvm::sys::fs::real_path(Header, RealHeader))
    RealHeader = Header;
  llvm::erase_if(R->Dependencies, [&](const Dependency &D) {
    return D.Path == Header || D.Path == RealHeader;
  });
  P.Dependencies = R->Dependencies;
  if (R->Error.empty()) {
    llvm::sys::fs::file_status Status;
    if (!llvm::sys::fs::status(P.PCHPath, Status)) {
      Dependency PCH;
      PCH.Path = P.PCHPath;
      PCH.Size = Status.getSize();
      PCH.MTime = Status.getLastModificationTime().time_since_epoch().count();
      R->PCH = PCH;
    } else {
      P.Error = R->Error = "the precompiled header was not written";
      Recordable = false;
    }
  } else {
    llvm::sys::fs::remove(P.PCHPath);
  }
  if (Recordable)
    writeRecord(*R, RecordPath);
  return Done();
}

} // namespace ddp::driver
