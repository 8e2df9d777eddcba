//===--- ProgressLine.cpp - What phase 1 is doing, on a terminal ----------===//

#include "ProgressLine.h"
#include "llvm/Support/raw_ostream.h"
#include <fmt/format.h>

namespace ddp::driver {

void ProgressLine::startRound(unsigned R, size_t Units) {
  std::lock_guard<std::mutex> Lock(M);
  Round = R;
  Parsed = Cached = Reanalysed = 0;
  Left = Units;
  redraw();
}

void ProgressLine::parsed() {
  std::lock_guard<std::mutex> Lock(M);
  ++Parsed;
  Left -= Left > 0;
  redraw();
}

void ProgressLine::cached() {
  std::lock_guard<std::mutex> Lock(M);
  ++Cached;
  Left -= Left > 0;
  redraw();
}

void ProgressLine::reanalysed() {
  std::lock_guard<std::mutex> Lock(M);
  ++Reanalysed;
  Left -= Left > 0;
  redraw();
}

void ProgressLine::preambleStarted(size_t Members) {
  std::lock_guard<std::mutex> Lock(M);
  ++Building;
  BuildingFor += Members;
  redraw();
}

void ProgressLine::preambleFinished(size_t Members) {
  std::lock_guard<std::mutex> Lock(M);
  --Building;
  BuildingFor -= Members;
  redraw();
}

void ProgressLine::print(const std::string &Text) {
  std::lock_guard<std::mutex> Lock(M);
  if (Enabled)
    llvm::errs() << "\r\033[K";
  llvm::errs() << Text << "\n";
  redraw();
}

void ProgressLine::clear() {
  std::lock_guard<std::mutex> Lock(M);
  if (Enabled)
    llvm::errs() << "\r\033[K";
}

void ProgressLine::redraw() {
  if (!Enabled)
    return;
  // Later rounds analyse again the TUs that facts from other TUs reached.
  std::string Line =
      Round == 0 ? std::string("ddp-lint: ")
                 : fmt::format("ddp-lint: facts from other TUs, round {}: ",
                               Round + 1);
  Line += fmt::format("{} parsed, {} from the cache", Parsed, Cached);
  if (Reanalysed)
    Line += fmt::format(", {} analysed again", Reanalysed);
  Line += fmt::format(", {} left", Left);
  if (Building == 1)
    Line += fmt::format("; building the preamble of {} TUs", BuildingFor);
  else if (Building > 1)
    Line += fmt::format("; building {} preambles for {} TUs", Building,
                        BuildingFor);
  llvm::errs() << "\r\033[K" << Line;
  llvm::errs().flush();
}

} // namespace ddp::driver
