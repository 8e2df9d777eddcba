// RUN: %check_ddp_tidy %s ddp-rendezvous-config %t -- -- %mock_flags
// With AgentStore (torchrun's agent hosts the store), clients only are right.
// RUN: %ddp_clang_tidy -checks='-*,ddp-rendezvous-config' \
// RUN:   --config="{CheckOptions: {ddp-rendezvous-config.AgentStore: true}}" \
// RUN:   %s -- %mock_flags 2>/dev/null | not grep "no rank hosts"
// So is a program that asks torchrun whether its agent does.
// RUN: %ddp_clang_tidy -checks='-*,ddp-rendezvous-config' %s -- %mock_flags \
// RUN:   -DASKS_AGENT 2>/dev/null | not grep "no rank hosts"
// Variables of the user's own launcher are declared with KnownEnvVars.
// RUN: %ddp_clang_tidy -checks='-*,ddp-rendezvous-config' \
// RUN:   --config="{CheckOptions: {ddp-rendezvous-config.KnownEnvVars: 'MY_LAUNCHER_RANK'}}" \
// RUN:   %s -- %mock_flags 2>/dev/null | not grep "MY_LAUNCHER_RANK"

// A translation unit in which no rank hosts the store: every rank connects
// as a client and times out.

#include <c10d/ProcessGroup.hpp>
#include <cstdlib>

c10d::TCPStore *connect(const std::string &host, int port, int world) {
  return new c10d::TCPStore(host, port, world, false);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: no rank hosts this TCPStore ('isServer' is false on every rank): every rank waits as a client until 'The client socket has timed out'; pass 'isServer' = 'rank == 0', or set AgentStore if torchrun's agent hosts the store [ddp-rendezvous-config]
}

c10d::TCPStore connectAgain(const std::string &host, int port, int world) {
  return c10d::TCPStore(host, port, world, /*isServer=*/false);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: no rank hosts this TCPStore
}

int launcherRank() { return std::atoi(std::getenv("MY_LAUNCHER_RANK")); }
// CHECK-MESSAGES: :[[@LINE-1]]:39: warning: 'MY_LAUNCHER_RANK' is not set by torchrun

#ifdef ASKS_AGENT
bool agentStore() { return std::getenv("TORCHELASTIC_USE_AGENT_STORE"); }
#endif
