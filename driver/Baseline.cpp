//===--- Baseline.cpp - Findings a team has accepted for now --------------===//

#include "Baseline.h"
#include "InputNesting.h"
#include "Reporters.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

namespace json = llvm::json;

namespace ddp::driver {

static constexpr llvm::StringLiteral Format = "ddp-lint-baseline";

llvm::Expected<Baseline> Baseline::read(llvm::StringRef Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(), "baseline '%s': cannot read it: %s",
        Path.str().c_str(), Buffer.getError().message().c_str());
  return parse((*Buffer)->getBuffer(), Path);
}

llvm::Expected<Baseline> Baseline::parse(llvm::StringRef Text,
                                         llvm::StringRef Path) {
  auto Fail = [&](const std::string &Why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "baseline '%s': %s", Path.str().c_str(),
                                   Why.c_str());
  };
  auto Value = parseBoundedJSON(Text);
  if (!Value)
    return Fail("not valid JSON: " + llvm::toString(Value.takeError()));
  const json::Object *Top = Value->getAsObject();
  if (!Top || Top->getString("format") != Format)
    return Fail("not a ddp-lint baseline (no \"format\": \"ddp-lint-baseline\")");
  if (Top->getInteger("version") != 1)
    return Fail("unsupported version");
  const json::Array *Findings = Top->getArray("findings");
  if (!Findings)
    return Fail("no \"findings\" array");
  Baseline B;
  for (const json::Value &F : *Findings) {
    const json::Object *O = F.getAsObject();
    auto Print = O ? O->getString("fingerprint") : std::nullopt;
    if (!Print)
      return Fail("a finding without a \"fingerprint\"");
    B.Fingerprints.insert(*Print);
  }
  return B;
}

llvm::Error Baseline::write(llvm::StringRef Path,
                            const std::vector<Diagnostic> &Findings,
                            llvm::StringRef SourceRoot) {
  json::Array Entries;
  for (const Diagnostic &D : Findings)
    Entries.push_back(json::Object{
        {"fingerprint", D.Fingerprint},
        {"rule", D.Rule},
        {"file", relativePath(D.At.File, SourceRoot)},
        {"function", D.Function},
        {"message", D.Message}});
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC);
  if (EC)
    return llvm::createStringError(EC, "cannot write the baseline '%s': %s",
                                   Path.str().c_str(), EC.message().c_str());
  OS << llvm::formatv("{0:2}",
                      json::Value(json::Object{{"format", Format},
                                               {"version", 1},
                                               {"findings", std::move(Entries)}}))
     << "\n";
  return llvm::Error::success();
}

} // namespace ddp::driver
