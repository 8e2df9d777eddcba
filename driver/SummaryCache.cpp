//===--- SummaryCache.cpp - Phase 1 results kept between runs -------------===//

#include "SummaryCache.h"
#include "ParseArguments.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"
#include <fmt/format.h>

namespace ddp::driver {

#ifndef DDP_LINT_VERSION
#define DDP_LINT_VERSION "0"
#endif

static std::string hashText(llvm::StringRef Text) {
  return fmt::format("{:016x}", llvm::xxh3_64bits(Text));
}

std::string analysisKey(const clang::tooling::CompileCommand &Command,
                        const AnalysisOptions &Opts,
                        const std::vector<FactRecord> &Imports) {
  std::string Text = fmt::format("ddp-lint {} summary {} llvm {} {}\n",
                                 DDP_LINT_VERSION, SummaryVersion,
                                 LLVM_VERSION_MAJOR, NoErrorLimit);
  Text += Command.Directory + "\n" + Command.Filename + "\n";
  for (const std::string &Arg : Command.CommandLine)
    Text += Arg + "\n";
  for (const std::string *Option :
       {&Opts.Collectives, &Opts.Barriers, &Opts.PointToPoint,
        &Opts.RankSources, &Opts.UniformSources, &Opts.RankEnvVars,
        &Opts.RankNamePattern, &Opts.LibraryNamespaces, &Opts.SyncWrappers,
        &Opts.NoSyncMethods, &Opts.NoSyncGuards, &Opts.SyncFlags})
    Text += *Option + "\n";
  Text += fmt::format("{}{} {}\n", Opts.RankLocalData, Opts.RankNameHeuristic,
                      Opts.AnalysisBudget);
  for (const FactRecord &F : Imports)
    Text += F.id() + "\n";
  return hashText(Text);
}

std::vector<Dependency> dependenciesOf(clang::SourceManager &SM) {
  std::vector<Dependency> Deps;
  for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It) {
    clang::FileEntryRef File = It->first;
    Dependency D;
    llvm::StringRef Real = File.getFileEntry().tryGetRealPathName();
    D.Path = Real.empty() ? File.getName().str() : Real.str();
    llvm::sys::fs::file_status Status;
    if (llvm::sys::fs::status(D.Path, Status))
      continue;
    D.Size = Status.getSize();
    D.MTime = Status.getLastModificationTime().time_since_epoch().count();
    // The parse has the content in memory already.
    if (auto Buffer = SM.getMemoryBufferForFileOrNone(File))
      D.Hash = hashText(Buffer->getBuffer());
    else if (auto Read = llvm::MemoryBuffer::getFile(D.Path))
      D.Hash = hashText((*Read)->getBuffer());
    Deps.push_back(std::move(D));
  }
  llvm::sort(Deps, [](const Dependency &A, const Dependency &B) {
    return A.Path < B.Path;
  });
  return Deps;
}

bool isUnchanged(const Dependency &D) {
  llvm::sys::fs::file_status Status;
  if (llvm::sys::fs::status(D.Path, Status))
    return false;
  if (Status.getSize() != D.Size)
    return false;
  if (Status.getLastModificationTime().time_since_epoch().count() == D.MTime)
    return true;
  auto Buffer = llvm::MemoryBuffer::getFile(D.Path);
  return Buffer && hashText((*Buffer)->getBuffer()) == D.Hash;
}

llvm::Error SummaryCache::prepare() const {
  if (!enabled())
    return llvm::Error::success();
  if (std::error_code EC = llvm::sys::fs::create_directories(Directory))
    return llvm::createStringError(EC, "cannot create the cache directory "
                                       "'%s': %s",
                                   Directory.c_str(), EC.message().c_str());
  return llvm::Error::success();
}

std::string SummaryCache::pathOf(llvm::StringRef Key) const {
  llvm::SmallString<256> Path(Directory);
  llvm::sys::path::append(Path, Key + ".json");
  return std::string(Path);
}

std::optional<TUSummary> SummaryCache::lookup(llvm::StringRef Key) const {
  if (!enabled() || !llvm::sys::fs::exists(pathOf(Key)))
    return std::nullopt;
  llvm::Expected<TUSummary> S = readSummary(pathOf(Key));
  if (!S) {
    // A damaged entry is parsed again and replaced.
    llvm::consumeError(S.takeError());
    return std::nullopt;
  }
  if (S->Key != Key || !S->Error.empty() ||
      !llvm::all_of(S->Dependencies, isUnchanged))
    return std::nullopt;
  return std::move(*S);
}

void SummaryCache::store(const TUSummary &S) const {
  if (enabled() && S.Error.empty())
    llvm::consumeError(writeSummary(S, pathOf(S.Key)));
}

} // namespace ddp::driver
