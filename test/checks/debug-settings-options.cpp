// RUN: %check_ddp_tidy %s ddp-debug-settings %t -- \
// RUN:   --config="{CheckOptions: {ddp-debug-settings.MinTimeoutSeconds: 300}}" \
// RUN:   -- %mock_flags
// With the option values that turn each rule off, nothing is reported.
// RUN: %ddp_clang_tidy -checks='-*,ddp-debug-settings' \
// RUN:   --config="{CheckOptions: {ddp-debug-settings.MinTimeoutSeconds: 0, ddp-debug-settings.BlockingWaitWithAsyncErrorHandling: false, ddp-debug-settings.DebugLogging: false}}" \
// RUN:   %s -- %mock_flags 2>/dev/null | not grep "warning:"

// The options of ddp-debug-settings, and the older names of the NCCL
// variables, on the mock headers.

#include <c10d/ProcessGroup.hpp>
#include <chrono>
#include <cstdlib>

c10d::TCPStore *store();

// Below a threshold of 300 s: two minutes are reported.
void twoMinutes(c10d::ProcessGroup::Options &opts) {
  opts.timeout = std::chrono::minutes(2);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: a c10d::ProcessGroup::Options timeout of 2 min is hard-coded: right for making a hang fail fast while debugging, too short for production, where a legitimately slow step or checkpoint trips it; read it from the configuration (below 300 s is reported) [ddp-debug-settings]
}

// Not a case: ten minutes.
void tenMinutes(c10d::ProcessGroup::Options &opts) {
  opts.timeout = std::chrono::minutes(10);
}

// The pre-2.2 names, through putenv.
void oldNames() {
  putenv(const_cast<char *>("NCCL_ASYNC_ERROR_HANDLING=1"));
  putenv(const_cast<char *>("NCCL_BLOCKING_WAIT=1"));
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'NCCL_BLOCKING_WAIT' and 'NCCL_ASYNC_ERROR_HANDLING' are both set in code
}
