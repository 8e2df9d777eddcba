// RUN: %check_ddp_tidy %s ddp-p2p-deadlock %t -- -- %mock_flags

// Role branches on a c10d process group: a receive blocks once its Work is
// waited for, in the same statement or later.

#include <c10d/ProcessGroup.hpp>

using Tensors = std::vector<at::Tensor>;

// Rank 0 and rank 1 both wait for the other's tensor before sending theirs.
void swapWithLeader(c10d::ProcessGroup *pg, Tensors &in, Tensors &out) {
  const int rank = pg->getRank();
  if (rank == 0) {
    pg->recv(in, 1, 0)->wait();
    // CHECK-NOTES: :[[@LINE-1]]:9: warning: rank 0 waits in 'recv' to receive from rank 1, and rank 1 waits in 'wait' to receive from rank 0: neither reaches a send, and they deadlock [ddp-p2p-deadlock]
    pg->send(out, 1, 0)->wait();
    // CHECK-NOTES: :[[@LINE-1]]:9: note: rank 0 reaches its 'send' only after that wait is over
  } else if (rank == 1) {
    auto pending = pg->recv(in, 0, 0);
    pending->wait();
    // CHECK-NOTES: :[[@LINE-1]]:14: note: rank 1 waits here for rank 0
    pg->send(out, 0, 0)->wait();
    // CHECK-NOTES: :[[@LINE-1]]:9: note: rank 1 reaches its 'send' only after that wait is over
  }
  // CHECK-NOTES: :[[@LINE-11]]:9: note: let one of the two ranks send first
}

// Not a case: rank 1 posts its receive, sends, and only then waits.
void postedEarly(c10d::ProcessGroup *pg, Tensors &in, Tensors &out) {
  const int rank = pg->getRank();
  if (rank == 0) {
    pg->recv(in, 1, 0)->wait();
    pg->send(out, 1, 0)->wait();
  } else if (rank == 1) {
    auto pending = pg->recv(in, 0, 0);
    pg->send(out, 0, 0)->wait();
    pending->wait();
  }
}

// Not a case: rank 0 sends first.
void leaderSendsFirst(c10d::ProcessGroup *pg, Tensors &in, Tensors &out) {
  const int rank = pg->getRank();
  if (rank == 0) {
    pg->send(out, 1, 0)->wait();
    pg->recv(in, 1, 0)->wait();
  } else if (rank == 1) {
    pg->recv(in, 0, 0)->wait();
    pg->send(out, 0, 0)->wait();
  }
}

// Not a case: rank 1 receives from anyone (recvAnysource).
void fromAnyone(c10d::ProcessGroup *pg, Tensors &in, Tensors &out) {
  const int rank = pg->getRank();
  if (rank == 0) {
    pg->recv(in, 1, 0)->wait();
    pg->send(out, 1, 0)->wait();
  } else if (rank == 1) {
    pg->recvAnysource(in, 0)->wait();
    pg->send(out, 0, 0)->wait();
  }
}
