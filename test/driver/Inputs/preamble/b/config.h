// Like a/config.h, but sync() does not communicate.
#pragma once
#include <c10d/ProcessGroup.hpp>

inline void sync(c10d::ProcessGroup *) {}
