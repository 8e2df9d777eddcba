#include <c10d/ProcessGroup.hpp>

namespace util {
struct Comm {
  void sync();
};
int my_slot();
} // namespace util

void step(util::Comm &comm) {
  if (util::my_slot() == 0)
    comm.sync();
}

void step_suppressed(util::Comm &comm) {
  if (util::my_slot() == 0) // NOLINT(ddp-collective-order)
    comm.sync();
}

void step_next_line(util::Comm &comm) {
  // NOLINTNEXTLINE(ddp-*)
  if (util::my_slot() == 0)
    comm.sync();
}

// The check name of clang-tidy works too, on the collective's line.
void step_check_name(util::Comm &comm) {
  if (util::my_slot() == 0)
    comm.sync(); // NOLINT(ddp-collective-in-rank-branch)
}

// NOLINTBEGIN(ddp-collective-order)
void step_region(util::Comm &comm) {
  if (util::my_slot() == 0)
    comm.sync();
}
// NOLINTEND(ddp-collective-order)

// A NOLINT for another check does not hide it.
void step_other_check(util::Comm &comm) {
  if (util::my_slot() == 0) // NOLINT(bugprone-use-after-move)
    comm.sync();
}
