// ddp-debug-settings on the real LibTorch headers (Debian libtorch-dev, c10d
// with Gloo): short timeouts, blocking wait with async error handling, and
// debug logging, hard-coded; and the production settings beside them.
// REQUIRES: libtorch
// Once per test command: the LLVM 19 and sanitizer runs analyse the real
// headers in real-libtorch-training.cpp, unresolved-calls-real-libtorch.cpp
// and driver/real-libtorch.test (each parse of them costs seconds).
// UNSUPPORTED: sanitizers, llvm-19
// RUN: %check_ddp_tidy %s ddp-debug-settings %t -- -- %torch_flags

#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>

#include <chrono>
#include <cstdlib>
#include <string>

using namespace std::chrono_literals;
using Store = c10::intrusive_ptr<c10d::Store>;
using GlooOptions = c10::intrusive_ptr<c10d::ProcessGroupGloo::Options>;

std::chrono::milliseconds configuredTimeout();
std::string configuredLevel();

// --- Timeouts ------------------------------------------------------------

// 1. A store timeout of 10 s.
Store storeSeconds(const std::string &host, int rank) {
  return c10::make_intrusive<c10d::TCPStore>(host, 29500, 2, rank == 0,
                                             std::chrono::seconds(10));
  // CHECK-MESSAGES: :[[@LINE-1]]:46: warning: a TCPStore timeout of 10 s is hard-coded: right for making a hang fail fast while debugging, too short for production, where a legitimately slow step or checkpoint trips it; read it from the configuration (below 60 s is reported) [ddp-debug-settings]
}

// 2. In milliseconds.
Store storeMillis(const std::string &host, int rank) {
  return c10::make_intrusive<c10d::TCPStore>(host, 29500, 2, rank == 0,
                                             std::chrono::milliseconds(5000));
  // CHECK-MESSAGES: :[[@LINE-1]]:46: warning: a TCPStore timeout of 5 s is hard-coded
}

// 3. A chrono literal.
Store storeLiteral(const std::string &host, int rank) {
  return c10::make_intrusive<c10d::TCPStore>(host, 29500, 2, rank == 0, 30s);
  // CHECK-MESSAGES: :[[@LINE-1]]:73: warning: a TCPStore timeout of 30 s is hard-coded
}

// 4. Half a second.
Store storeHalfSecond(const std::string &host, int rank) {
  return c10::make_intrusive<c10d::TCPStore>(host, 29500, 2, rank == 0, 500ms);
  // CHECK-MESSAGES: :[[@LINE-1]]:73: warning: a TCPStore timeout of 500 ms is hard-coded
}

// 5. The constructor.
void storeCtor(const std::string &host, int rank) {
  c10d::TCPStore store(host, 29500, 2, rank == 0, std::chrono::seconds(1));
  // CHECK-MESSAGES: :[[@LINE-1]]:51: warning: a TCPStore timeout of 1 s is hard-coded
}

// 6. The process group's collective timeout, through Options::create.
GlooOptions glooCreate() {
  return c10d::ProcessGroupGloo::Options::create(std::chrono::seconds(5));
  // CHECK-MESSAGES: :[[@LINE-1]]:50: warning: a c10d::ProcessGroupGloo::Options timeout of 5 s is hard-coded
}

// 7. Assigned to the options.
GlooOptions glooAssign() {
  auto opts = c10d::ProcessGroupGloo::Options::create();
  opts->timeout = std::chrono::seconds(20);
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: a c10d::ProcessGroup::Options timeout of 20 s is hard-coded
  return opts;
}

// 8. TCPStoreOptions::timeout.
Store storeOptions(const std::string &host, int rank) {
  c10d::TCPStoreOptions opts;
  opts.isServer = rank == 0;
  opts.timeout = std::chrono::milliseconds(3000);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: a c10d::TCPStoreOptions timeout of 3 s is hard-coded
  return c10::make_intrusive<c10d::TCPStore>(host, opts);
}

// 9. A duration spelt with its period.
GlooOptions glooMillis() {
  return c10d::ProcessGroupGloo::Options::create(
      std::chrono::duration<int64_t, std::milli>(2000));
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: a c10d::ProcessGroupGloo::Options timeout of 2 s is hard-coded
}

// 10. Not a case: 30 minutes.
GlooOptions glooThirtyMinutes() {
  return c10d::ProcessGroupGloo::Options::create(std::chrono::minutes(30));
}

// 11. Not a case: exactly the threshold.
Store storeMinute(const std::string &host, int rank) {
  return c10::make_intrusive<c10d::TCPStore>(host, 29500, 2, rank == 0,
                                             std::chrono::seconds(60));
}

// 12. Not a case: from the configuration.
GlooOptions glooConfigured() {
  return c10d::ProcessGroupGloo::Options::create(configuredTimeout());
}

// 13. Not a case: the default.
GlooOptions glooDefault() { return c10d::ProcessGroupGloo::Options::create(); }

// 14. Not a case: an hour.
GlooOptions glooHour() {
  auto opts = c10d::ProcessGroupGloo::Options::create();
  opts->timeout = std::chrono::hours(1);
  return opts;
}

// 15. Not a case: 90 s, as a literal.
Store storeNinety(const std::string &host, int rank) {
  return c10::make_intrusive<c10d::TCPStore>(host, 29500, 2, rank == 0, 90s);
}

// --- Blocking wait and async error handling ------------------------------

// 16. Not a case: blocking wait turned off.
void blockingOff() { setenv("TORCH_NCCL_BLOCKING_WAIT", "0", 1); }

// 17. Both turned on: reported at the second.
void diagnoseHangs() {
  setenv("TORCH_NCCL_BLOCKING_WAIT", "1", 1);
  setenv("TORCH_NCCL_ASYNC_ERROR_HANDLING", "1", 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'TORCH_NCCL_ASYNC_ERROR_HANDLING' and 'TORCH_NCCL_BLOCKING_WAIT' are both set in code: blocking wait is for diagnosing a hang (the stuck rank's stack shows the collective), async error handling for production (the watchdog aborts and torchelastic restarts); do not ship both, and set them in the job's environment rather than in code [ddp-debug-settings]
}

// --- Debug logging ------------------------------------------------------

// 18. NCCL's INFO log.
void ncclInfo() { setenv("NCCL_DEBUG", "INFO", 1); }
// CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'NCCL_DEBUG' is forced to 'INFO' in code: debug logging that floods every rank's log and slows collectives; set it in the environment of the run you are debugging [ddp-debug-settings]

// 19. c10d's DETAIL mode.
void c10dDetail() { setenv("TORCH_DISTRIBUTED_DEBUG", "DETAIL", 1); }
// CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'TORCH_DISTRIBUTED_DEBUG' is forced to 'DETAIL' in code

// 20. Through putenv.
void ncclTrace() { putenv(const_cast<char *>("NCCL_DEBUG=TRACE")); }
// CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'NCCL_DEBUG' is forced to 'TRACE' in code

// 21. Every NCCL subsystem.
void ncclSubsystems() { setenv("NCCL_DEBUG_SUBSYS", "ALL", 1); }
// CHECK-MESSAGES: :[[@LINE-1]]:25: warning: 'NCCL_DEBUG_SUBSYS' is forced to 'ALL' in code

// 22. A level computed in code.
void c10dComputed() {
  setenv("TORCH_DISTRIBUTED_DEBUG", configuredLevel().c_str(), 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'TORCH_DISTRIBUTED_DEBUG' is forced on in code
}

// 23. Not a case: warnings only.
void ncclWarn() { setenv("NCCL_DEBUG", "WARN", 1); }

// 24. Not a case: turned off.
void c10dOff() { setenv("TORCH_DISTRIBUTED_DEBUG", "OFF", 1); }

// 25. Not a case: reading it.
bool ncclVerbose() { return std::getenv("NCCL_DEBUG") != nullptr; }

// 26. Not a case: a network setting, not a debug one.
void pinInterface() { setenv("NCCL_SOCKET_IFNAME", "eth0", 1); }

// 27. Not a case: the version banner only.
void ncclVersion() { setenv("NCCL_DEBUG", "VERSION", 1); }
