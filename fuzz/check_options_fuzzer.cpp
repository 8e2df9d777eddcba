//===--- check_options_fuzzer.cpp - Fuzz .clang-tidy check options --------===//
//
// The options of the ddp checks come from .clang-tidy files: patterns for
// the catalogue (globs), a regular expression, lists of names. Any
// configuration must give options or an error naming the file, and the
// options must build a catalogue and a gradient-sync model without a crash.
//
//===----------------------------------------------------------------------===//

#include "Configuration.h"
#include "core/CollectiveCatalogue.h"
#include "core/GradientSync.h"
#include "llvm/Support/Regex.h"
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  auto Config = ddp::driver::Configuration::fromText(Text, "fuzz/.clang-tidy");
  if (!Config) {
    llvm::consumeError(Config.takeError());
    return 0;
  }
  auto Options = Config->optionsFor("fuzz/train.cpp");
  if (!Options) {
    llvm::consumeError(Options.takeError());
    return 0;
  }
  ddp::CollectiveCatalogue Catalogue = ddp::CollectiveCatalogue::withDefaults();
  Catalogue.addList(Options->Collectives, ddp::CallRole::Collective);
  Catalogue.addList(Options->Barriers, ddp::CallRole::Barrier);
  Catalogue.addList(Options->PointToPoint, ddp::CallRole::PointToPoint);
  Catalogue.addList(Options->RankSources, ddp::CallRole::RankSource);
  Catalogue.addList(Options->UniformSources, ddp::CallRole::UniformSource);
  ddp::GradientSyncModel Sync(*Options);
  llvm::Regex Pattern(Options->RankNamePattern, llvm::Regex::IgnoreCase);
  std::string Error;
  if (Pattern.isValid(Error))
    Pattern.match("rank");
  return 0;
}
