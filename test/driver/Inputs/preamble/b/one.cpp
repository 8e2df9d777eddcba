#include "config.h"

// sync() does nothing here (b/config.h): no finding.
void save_b(c10d::ProcessGroup *pg) {
  if (pg->getRank() == 0)
    sync(pg);
}
