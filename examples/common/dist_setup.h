//===- dist_setup.h - Shared process-group set-up for the examples -------===//
//
// Every example program is launched once per rank (by torchrun or by
// examples/run_ranks.py) and starts the same way: read the torchrun
// environment, rendezvous through a TCPStore hosted by rank 0, and build a
// Gloo process group over loopback. That boilerplate lives here so that each
// example file only contains its training logic.
//
// Environment variables (as set by torchrun):
//   RANK, WORLD_SIZE            this process' rank and the number of ranks
//   MASTER_ADDR, MASTER_PORT    where rank 0 hosts the TCPStore
//   DDP_EXAMPLE_TIMEOUT_MS      collective timeout (default 5000 ms), so a
//                               mismatched collective fails within seconds
//                               instead of hanging for Gloo's 30 minutes
//
//===----------------------------------------------------------------------===//

#ifndef DDP_LINT_EXAMPLES_COMMON_DIST_SETUP_H
#define DDP_LINT_EXAMPLES_COMMON_DIST_SETUP_H

#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <string>

namespace ddp_example {

/// Reads an integer environment variable; \p defaultValue if it is unset.
inline int envInt(const char *name, int defaultValue) {
  const char *value = std::getenv(name);
  return (value && *value) ? std::stoi(value) : defaultValue;
}

/// Reads a string environment variable; \p defaultValue if it is unset.
inline std::string envString(const char *name,
                             const std::string &defaultValue) {
  const char *value = std::getenv(name);
  return (value && *value) ? std::string(value) : defaultValue;
}

/// Creates the process group every rank of the job will use.
///
/// Rank 0 hosts the TCPStore that the ranks rendezvous through; all other
/// ranks connect to it as clients. The Gloo device is bound to loopback: the
/// examples run all ranks on one host.
inline c10::intrusive_ptr<c10d::ProcessGroup> initProcessGroup() {
  const int rank = envInt("RANK", 0);
  const int worldSize = envInt("WORLD_SIZE", 1);
  const std::string masterAddr = envString("MASTER_ADDR", "127.0.0.1");
  const int masterPort = envInt("MASTER_PORT", 29500);
  const std::chrono::milliseconds timeout(
      envInt("DDP_EXAMPLE_TIMEOUT_MS", 5000));

  c10d::TCPStoreOptions storeOpts;
  storeOpts.port = static_cast<std::uint16_t>(masterPort);
  storeOpts.isServer = rank == 0;
  storeOpts.numWorkers = worldSize;
  // Start-up (loading libtorch, connecting to rank 0) may take a moment on a
  // loaded machine, so the rendezvous gets a more generous limit than the
  // collectives do.
  storeOpts.timeout = std::max(timeout, std::chrono::milliseconds(30000));
  auto store = c10::make_intrusive<c10d::TCPStore>(masterAddr, storeOpts);

  auto opts = c10d::ProcessGroupGloo::Options::create(timeout);
  opts->devices.push_back(
      c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
  return c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, worldSize,
                                                     opts);
}

/// Prints a one-line description of \p err to stderr and returns the exit
/// status for main(). A collective that times out surfaces here, from the
/// wait() on its Work object.
inline int reportFailure(const std::exception &err) {
  std::string message = err.what();
  if (const auto *torchErr = dynamic_cast<const c10::Error *>(&err))
    message = torchErr->what_without_backtrace();
  // Keep the report on one line so the launcher can show it.
  for (char &c : message)
    if (c == '\n')
      c = ' ';
  std::cerr << "error: " << message << std::endl;
  return 1;
}

} // namespace ddp_example

#endif // DDP_LINT_EXAMPLES_COMMON_DIST_SETUP_H
