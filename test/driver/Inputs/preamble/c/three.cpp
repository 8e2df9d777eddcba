#include "config.h"
#include "helper.h"

// The same call without QUIET_HELPER: helper() is a barrier, a finding.
void eval_c3(c10d::ProcessGroup *pg) {
  if (pg->getRank() == 0)
    helper(pg);
}
