#include "noguard.h"
#include <c10d/ProcessGroup.hpp>

// Read once, noguard.h leaves SEEN_TWICE undefined: the barrier is gated.
void step_d_one(c10d::ProcessGroup *pg) {
#ifndef SEEN_TWICE
  if (pg->getRank() == 0)
#endif
    pg->barrier()->wait();
}
