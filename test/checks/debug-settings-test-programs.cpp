// RUN: %check_ddp_tidy %s ddp-debug-settings %t -- -- %mock_flags
// With IgnoreTestPrograms off, the test's settings are reported.
// RUN: %ddp_clang_tidy -checks='-*,ddp-debug-settings' \
// RUN:   --config="{CheckOptions: {ddp-debug-settings.IgnoreTestPrograms: false}}" \
// RUN:   %s -- %mock_flags 2>/dev/null | FileCheck %s --check-prefix=ALL

// A GoogleTest program sets what it tests: a short timeout that makes the
// test of a hang fail fast, the error handling it exercises. Found in a
// process-group library's own tests (50 ms and 1 s timeouts of tests that
// expect the timeout to fire). Silent by default.

#include <c10d/ProcessGroup.hpp>
#include <chrono>
#include <cstdlib>
#include <gtest/gtest.h>

class WatchdogTest : public ::testing::Test {
protected:
  void SetUp() override {
    setenv("TORCH_NCCL_BLOCKING_WAIT", "1", 1);
    setenv("TORCH_NCCL_ASYNC_ERROR_HANDLING", "1", 1);
  }
};

void shortTimeout(c10d::ProcessGroup::Options &opts) {
  opts.timeout = std::chrono::milliseconds(50);
}
// ALL-DAG: :[[@LINE-2]]:18: warning: a c10d::ProcessGroup::Options timeout of 50 ms is hard-coded
// ALL-DAG: warning: 'TORCH_NCCL_ASYNC_ERROR_HANDLING' and 'TORCH_NCCL_BLOCKING_WAIT' are both set in code

TEST_F(WatchdogTest, TimesOut) {
  c10d::ProcessGroup::Options opts;
  shortTimeout(opts);
}
