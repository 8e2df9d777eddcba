//===--- Phase1Queue.cpp - The order phase 1 works in ---------------------===//

#include "Phase1Queue.h"
#include <algorithm>

namespace ddp::driver {

Phase1Queue::Phase1Queue(std::vector<int> GroupOf,
                         std::vector<size_t> BuildOrder)
    : GroupOf(std::move(GroupOf)), BuildOrder(std::move(BuildOrder)) {
  size_t Groups = 0;
  for (int G : this->GroupOf)
    Groups = std::max(Groups, size_t(G + 1));
  for (size_t G : this->BuildOrder)
    Groups = std::max(Groups, G + 1);
  // A group nobody builds does not hold its TUs back.
  Ready.assign(Groups, true);
  for (size_t G : this->BuildOrder)
    Ready[G] = false;
  for (size_t U = 0; U < this->GroupOf.size(); ++U)
    Pending.push_back(U);
}

Phase1Queue::Task Phase1Queue::next() {
  std::unique_lock<std::mutex> Lock(M);
  while (true) {
    if (NextBuild < BuildOrder.size())
      return {Task::Build, BuildOrder[NextBuild++]};
    auto It = std::find_if(Pending.begin(), Pending.end(), [&](size_t U) {
      return GroupOf[U] < 0 || Ready[GroupOf[U]];
    });
    if (It != Pending.end()) {
      size_t U = *It;
      Pending.erase(It);
      return {Task::Unit, U};
    }
    if (Pending.empty())
      return {};
    Changed.wait(Lock);
  }
}

void Phase1Queue::built(size_t Group) {
  {
    std::lock_guard<std::mutex> Lock(M);
    Ready[Group] = true;
  }
  Changed.notify_all();
}

} // namespace ddp::driver
