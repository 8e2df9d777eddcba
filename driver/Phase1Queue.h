//===--- Phase1Queue.h - The order phase 1 works in -----------------------===//

#ifndef DDP_DRIVER_PHASE1QUEUE_H
#define DDP_DRIVER_PHASE1QUEUE_H

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <vector>

namespace ddp::driver {

/// Hands phase 1's work to the workers: every preamble is built first, each
/// by one worker, while the others take the TUs that need no preamble or
/// whose preamble is ready. A worker that finds only TUs waiting for a
/// preamble waits until one is built.
class Phase1Queue {
public:
  struct Task {
    enum Kind { Build, Unit, Done } K = Done;
    /// The group to build, or the unit to analyse.
    size_t Index = 0;
  };

  /// \p GroupOf holds, per unit, the group whose preamble it waits for (-1:
  /// none); \p BuildOrder the groups to build, first first.
  Phase1Queue(std::vector<int> GroupOf, std::vector<size_t> BuildOrder);

  /// The next task; Done when none is left.
  Task next();
  /// The preamble of \p Group is built (or failed): its TUs may go.
  void built(size_t Group);

private:
  std::mutex M;
  std::condition_variable Changed;
  std::vector<int> GroupOf;
  std::vector<size_t> BuildOrder;
  size_t NextBuild = 0;
  std::vector<bool> Ready;
  /// Units not handed out yet, in order.
  std::vector<size_t> Pending;
};

} // namespace ddp::driver

#endif // DDP_DRIVER_PHASE1QUEUE_H
