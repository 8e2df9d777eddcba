/* A block comment, a blank line and a line comment before the first
   directive: still the leading block. */

// The config beside this file.
#include "config.h"   // a trailing comment
#include <vector>

void log_a(c10d::ProcessGroup *pg, std::vector<at::Tensor> &t) {
  if (pg->getRank() == 1)
    pg->allreduce(t)->wait();
}
