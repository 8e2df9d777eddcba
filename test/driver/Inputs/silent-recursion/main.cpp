#include "settings.h"

void rootBarrier(c10d::ProcessGroup *pg) {
  if (pg->getRank() == 0) {
    settings();
    pg->barrier()->wait();
  }
}

// Not a case: only rank 0 reads its settings, and no rank communicates.
void rootSettings(c10d::ProcessGroup *pg) {
  if (pg->getRank() == 0)
    settings();
}
