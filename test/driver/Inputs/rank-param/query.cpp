#include "util.h"

int leader_id(c10d::ProcessGroup *pg) { return pg->getRank(); }

int group_size(c10d::ProcessGroup *pg) { return pg->getSize(); }
