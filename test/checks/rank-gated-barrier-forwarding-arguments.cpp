// RUN: %check_ddp_tidy %s 'ddp-*' %t -- -- %mock_flags
// RUN: %expect_exit 1 %ddp_lint --no-cache --source-root %S %s -- %mock_flags > %t.lint.txt
// RUN: FileCheck %s --check-prefix=LINT --input-file=%t.lint.txt --implicit-check-not=warning:

// A library function writes what its non-const reference parameters name,
// from what its arguments depend on together; a forwarding reference
// (`Args &&...` of std::make_shared, emplace_back) only passes the argument
// on to a constructor.

#include <memory>
#include <utility>
#include <mpi.h>

struct Config {
  bool overlap = false;
};
struct Group;
Group *groupFor(int rank);
Config configFor(int rank);

struct Buffer {
  Buffer(Config c, Group *g);
};

// infinitrain's DistributedDataParallel: the buffer is built from the
// configuration and the data-parallel group chosen by the rank;
// make_shared passes its arguments on, it does not write them.
std::shared_ptr<Buffer> buildBuffer(int rank, const Config &base) {
  Config cfg = base;
  Group *g = groupFor(rank);
  auto b = std::make_shared<Buffer>(cfg, g);
  if (cfg.overlap)
    MPI_Barrier(MPI_COMM_WORLD);
  return b;
}

// Twin: std::swap does write both of its arguments.
void swapConfig(int rank, const Config &base) {
  Config cfg = base;
  Config other = configFor(rank);
  std::swap(cfg, other);
  if (cfg.overlap)
    MPI_Barrier(MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Barrier' is reached only by ranks where 'cfg.overlap' [ddp-rank-gated-barrier]
// LINT: forwarding-arguments.cpp:[[@LINE-4]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]
// LINT: 1 finding in 1 translation unit
