#pragma once
#include <c10d/ProcessGroup.hpp>

#ifdef QUIET_HELPER
inline void helper(c10d::ProcessGroup *) {}
#else
inline void helper(c10d::ProcessGroup *pg) { pg->barrier()->wait(); }
#endif
