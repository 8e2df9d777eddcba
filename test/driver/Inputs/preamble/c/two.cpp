#include "config.h"
#define QUIET_HELPER
#include "helper.h"

// QUIET_HELPER, defined between the includes, makes helper() silent: the
// leading block, and the preamble, end before it.
void eval_c2(c10d::ProcessGroup *pg) {
  if (pg->getRank() == 0)
    helper(pg);
}
