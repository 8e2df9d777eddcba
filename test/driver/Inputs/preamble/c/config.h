#pragma once
#include <c10d/ProcessGroup.hpp>
