#include "first.h"
#include "noguard.h"

// As in d/: the preamble holds first.h only, so that noguard.h is read once.
void step_e_one(c10d::ProcessGroup *pg) {
#ifndef SEEN_TWICE
  if (pg->getRank() == 0)
#endif
    pg->barrier()->wait();
}
