#include "config.h"

// sync() is a barrier here (a/config.h): a finding.
void save_a(c10d::ProcessGroup *pg) {
  if (pg->getRank() == 0)
    sync(pg);
}
