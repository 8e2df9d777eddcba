// RUN: %check_ddp_tidy %s ddp-p2p-deadlock %t -- -- %mock_flags

// Point-to-point exchanges in which every rank waits in a receive before its
// send (c10d and MPI), and the correct exchanges around them.

#include <c10d/ProcessGroup.hpp>
#include <mpi.h>

using Tensors = std::vector<at::Tensor>;

// Both partners receive first: neither reaches its send.
void swapShards(c10d::ProcessGroup *pg, Tensors &in, Tensors &out) {
  int partner = pg->getRank() ^ 1;
  if (partner < pg->getSize()) {
    pg->recv(in, partner, 7)->wait();
    // CHECK-NOTES: :[[@LINE-1]]:9: warning: every rank waits in 'recv' before its 'send': if the ranks that exchange here all run this code, none reaches its 'send' and they deadlock [ddp-p2p-deadlock]
    pg->send(out, partner, 7)->wait();
    // CHECK-NOTES: :[[@LINE-1]]:9: note: the 'send' the peer waits for is only reached after the 'recv' completes
    // CHECK-NOTES: :[[@LINE-4]]:9: note: let one rank of each pair send first (for example 'if (rank < peer)'), post the receive without waiting for it before the send, or use a combined exchange (MPI_Sendrecv)
  }
}

// A ring in which every rank receives from its left neighbour before it
// sends to its right one: nobody sends.
void ringPass(c10d::ProcessGroup *pg, Tensors &in, Tensors &out) {
  int rank = pg->getRank(), size = pg->getSize();
  for (int step = 0; step < size - 1; ++step) {
    pg->recv(in, (rank + size - 1) % size, step)->wait();
    // CHECK-NOTES: :[[@LINE-1]]:9: warning: every rank waits in 'recv' before its 'send'
    pg->send(out, (rank + 1) % size, step)->wait();
    // CHECK-NOTES: :[[@LINE-1]]:9: note: the 'send' the peer waits for
    // CHECK-NOTES: :[[@LINE-4]]:9: note: let one rank of each pair send first
  }
}

// MPI: the classic symmetric exchange.
void mpiExchange(float *in, float *out, int n) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int partner = rank ^ 1;
  MPI_Status status;
  MPI_Recv(in, n, MPI_FLOAT, partner, 0, MPI_COMM_WORLD, &status);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: every rank waits in 'MPI_Recv' before its 'MPI_Send'
  MPI_Send(out, n, MPI_FLOAT, partner, 0, MPI_COMM_WORLD);
  // CHECK-NOTES: :[[@LINE-1]]:3: note: the 'MPI_Send' the peer waits for is only reached after the 'MPI_Recv' completes
  // CHECK-NOTES: :[[@LINE-4]]:3: note: let one rank of each pair send first
}

// The statements between the two do not matter.
void withWorkBetween(c10d::ProcessGroup *pg, Tensors &in, Tensors &out,
                     int peer) {
  pg->recv(in, peer, 0)->wait();
  // CHECK-NOTES: :[[@LINE-1]]:7: warning: every rank waits in 'recv' before its 'send'
  out[0] = in[0] * 2;
  pg->send(out, peer, 0)->wait();
  // CHECK-NOTES: :[[@LINE-1]]:7: note: the 'send' the peer waits for
  // CHECK-NOTES: :[[@LINE-5]]:7: note: let one rank of each pair send first
}

// Not a case: the lower rank of each pair sends first.
void swapInTurn(c10d::ProcessGroup *pg, Tensors &in, Tensors &out) {
  int rank = pg->getRank();
  int partner = rank ^ 1;
  if (rank < partner) {
    pg->send(out, partner, 7)->wait();
    pg->recv(in, partner, 7)->wait();
  } else {
    pg->recv(in, partner, 7)->wait();
    pg->send(out, partner, 7)->wait();
  }
}

// Not a case: every rank sends first (Gloo and MPI buffer small sends).
void sendFirst(c10d::ProcessGroup *pg, Tensors &in, Tensors &out, int peer) {
  pg->send(out, peer, 0)->wait();
  pg->recv(in, peer, 0)->wait();
}

// Not a case: rank 0 scatters; the others receive and answer.
void scatterAndAnswer(c10d::ProcessGroup *pg, Tensors &in, Tensors &out) {
  int rank = pg->getRank();
  if (rank == 0) {
    for (int dst = 1; dst < pg->getSize(); ++dst) {
      pg->send(out, dst, 0)->wait();
      pg->recv(in, dst, 1)->wait();
    }
  } else {
    pg->recv(in, 0, 0)->wait();
    pg->send(out, 0, 1)->wait();
  }
}

// Not a case: the branch tests for one role; the other roles' code is
// elsewhere (here: the odd ranks send first in the next if).
void parityRoles(c10d::ProcessGroup *pg, Tensors &in, Tensors &out) {
  int rank = pg->getRank();
  if (rank % 2 == 0) {
    pg->recv(in, rank + 1, 0)->wait();
    pg->send(out, rank + 1, 0)->wait();
  }
  if (rank % 2 == 1) {
    pg->send(out, rank - 1, 0)->wait();
    pg->recv(in, rank - 1, 0)->wait();
  }
}

// Not a case: the receive is posted and not waited for before the send.
void postedReceive(c10d::ProcessGroup *pg, Tensors &in, Tensors &out,
                   int peer) {
  auto pending = pg->recv(in, peer, 0);
  pg->send(out, peer, 0)->wait();
  pending->wait();
}

// Not a case: a receive with no send after it in the same block.
void receiveOnly(c10d::ProcessGroup *pg, Tensors &in, int peer) {
  pg->recv(in, peer, 0)->wait();
}

// Not a case: the send is in a branch of its own, not straight after.
void sendLater(c10d::ProcessGroup *pg, Tensors &in, Tensors &out, int peer,
               bool reply) {
  pg->recv(in, peer, 0)->wait();
  if (reply) {
    pg->send(out, peer, 0)->wait();
  }
}

// Not a case: one switch case per role.
void switchRoles(c10d::ProcessGroup *pg, Tensors &in, Tensors &out) {
  switch (pg->getRank()) {
  case 0:
    pg->send(out, 1, 0)->wait();
    break;
  default: {
    pg->recv(in, 0, 0)->wait();
    pg->send(out, 0, 1)->wait();
    break;
  }
  }
}

// A receive whose Work is kept and waited for before the send blocks too.
void waitedLater(c10d::ProcessGroup *pg, Tensors &in, Tensors &out, int peer) {
  auto incoming = pg->recv(in, peer, 0);
  incoming->wait();
  // CHECK-NOTES: :[[@LINE-1]]:13: warning: every rank waits in 'wait' before its 'send'
  pg->send(out, peer, 0)->wait();
  // CHECK-NOTES: :[[@LINE-1]]:7: note: the 'send' the peer waits for
  // CHECK-NOTES: :[[@LINE-4]]:13: note: let one rank of each pair send first
}

// MPI: a posted receive waited for before the send, and a probe.
void mpiPostedThenWaited(float *in, float *out, int n, int partner) {
  MPI_Request request;
  MPI_Irecv(in, n, MPI_FLOAT, partner, 0, MPI_COMM_WORLD, &request);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: every rank waits in 'MPI_Wait' before its 'MPI_Send'
  MPI_Send(out, n, MPI_FLOAT, partner, 0, MPI_COMM_WORLD);
  // CHECK-NOTES: :[[@LINE-1]]:3: note: the 'MPI_Send' the peer waits for
  // CHECK-NOTES: :[[@LINE-4]]:3: note: let one rank of each pair send first
}

void mpiProbeFirst(float *in, float *out, int n, int partner) {
  MPI_Probe(partner, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: every rank waits in 'MPI_Probe' before its 'MPI_Send'
  MPI_Recv(in, n, MPI_FLOAT, partner, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Send(out, n, MPI_FLOAT, partner, 0, MPI_COMM_WORLD);
  // CHECK-NOTES: :[[@LINE-1]]:3: note: the 'MPI_Send' the peer waits for
  // CHECK-NOTES: :[[@LINE-5]]:3: note: let one rank of each pair send first
}

// Not a case: both post the receive and the send, then wait for both.
void mpiNonblocking(float *in, float *out, int n, int partner) {
  MPI_Request requests[2];
  MPI_Irecv(in, n, MPI_FLOAT, partner, 0, MPI_COMM_WORLD, &requests[0]);
  MPI_Isend(out, n, MPI_FLOAT, partner, 0, MPI_COMM_WORLD, &requests[1]);
  MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
}

// Not a case: one call exchanges.
void mpiCombined(float *in, float *out, int n, int partner) {
  MPI_Sendrecv(out, n, MPI_FLOAT, partner, 0, in, n, MPI_FLOAT, partner, 0,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

// The worker's side of a ping-pong with rank 0, which only the other ranks
// run (OSU's osu_latency_mt runs it as rank 1's thread): rank 0 cannot
// receive from itself, so it runs other code. Silent.
void *pongWithRankZero(void *arg) {
  float *buf = static_cast<float *>(arg);
  for (int i = 0; i < 100; ++i) {
    MPI_Recv(buf, 8, MPI_FLOAT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(buf, 8, MPI_FLOAT, 0, 2, MPI_COMM_WORLD);
  }
  return nullptr;
}

// Twin, reported: a receive from any source can be waiting on every rank.
void pongWithAnyone(float *buf) {
  MPI_Recv(buf, 8, MPI_FLOAT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD,
           MPI_STATUS_IGNORE);
  // CHECK-NOTES: :[[@LINE-2]]:3: warning: every rank waits in 'MPI_Recv' before its 'MPI_Send'
  MPI_Send(buf, 8, MPI_FLOAT, 0, 2, MPI_COMM_WORLD);
  // CHECK-NOTES: :[[@LINE-1]]:3: note: the 'MPI_Send' the peer waits for
  // CHECK-NOTES: :[[@LINE-5]]:3: note: let one rank of each pair send first
}
