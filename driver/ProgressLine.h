//===--- ProgressLine.h - What phase 1 is doing, on a terminal ------------===//

#ifndef DDP_DRIVER_PROGRESSLINE_H
#define DDP_DRIVER_PROGRESSLINE_H

#include <cstddef>
#include <mutex>
#include <string>

namespace ddp::driver {

/// One line on standard error, rewritten as phase 1 goes: TUs parsed,
/// answered by the cache and left, and the preambles being built. Shared by
/// the workers; other output goes through print() so that it lands above
/// the line instead of inside it.
class ProgressLine {
public:
  /// Without \p Enabled (standard error is no terminal) only print() prints.
  explicit ProgressLine(bool Enabled) : Enabled(Enabled) {}

  /// Round \p Round (0: the first) of phase 1 begins, over \p Units TUs;
  /// the counts start again.
  void startRound(unsigned Round, size_t Units);
  void parsed();
  void cached();
  /// Analysed again from a parse kept in memory.
  void reanalysed();
  void preambleStarted(size_t Members);
  void preambleFinished(size_t Members);
  /// \p Text (one line, without its newline) above the progress line.
  void print(const std::string &Text);
  /// Removes the line.
  void clear();

private:
  void redraw();

  std::mutex M;
  bool Enabled;
  unsigned Round = 0;
  size_t Parsed = 0, Cached = 0, Reanalysed = 0, Left = 0;
  size_t Building = 0, BuildingFor = 0;
};

} // namespace ddp::driver

#endif // DDP_DRIVER_PROGRESSLINE_H
