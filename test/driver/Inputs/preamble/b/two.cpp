#include "config.h"
#include <vector>

// Found beside this file: b/config.h, whose sync() does not communicate,
// although -I names a/ (whose config.h would be found from elsewhere).
void save_b2(c10d::ProcessGroup *pg) {
  if (pg->getRank() == 1)
    sync(pg);
}
