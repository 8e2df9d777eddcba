// RUN: %check_ddp_tidy %s ddp-p2p-deadlock %t -- -- %mock_flags
// RUN: %if mpi %{ %check_ddp_tidy %s ddp-p2p-deadlock %t -- -- -std=c++17 %mpi_flags %}

// Role branches (`if (rank == 0) ... else if (rank == 1) ...`) whose arms
// each wait to receive from the other before either sends, and the correct
// exchanges around them. Run with the mock MPI header and with Open MPI's.

#include <mpi.h>

static int worldRank() {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

// Both ranks receive first: neither reaches its send.
void exchange(float *in, float *out, int n) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    MPI_Recv(in, n, MPI_FLOAT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: rank 0 waits in 'MPI_Recv' to receive from rank 1, and rank 1 waits in 'MPI_Recv' to receive from rank 0: neither reaches a send, and they deadlock [ddp-p2p-deadlock]
    MPI_Send(out, n, MPI_FLOAT, 1, 0, MPI_COMM_WORLD);
    // CHECK-NOTES: :[[@LINE-1]]:5: note: rank 0 reaches its 'MPI_Send' only after that wait is over
  } else if (rank == 1) {
    MPI_Recv(in, n, MPI_FLOAT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    // CHECK-NOTES: :[[@LINE-1]]:5: note: rank 1 waits here for rank 0
    MPI_Send(out, n, MPI_FLOAT, 0, 0, MPI_COMM_WORLD);
    // CHECK-NOTES: :[[@LINE-1]]:5: note: rank 1 reaches its 'MPI_Send' only after that wait is over
  }
  // CHECK-NOTES: :[[@LINE-10]]:5: note: let one of the two ranks send first, post the receive without waiting for it before the send (MPI_Irecv, and MPI_Wait after the send), or use a combined exchange (MPI_Sendrecv)
}

// Peers written in terms of the rank, resolved for each arm's rank; the
// other role is the else, and the receive is a probe.
void probeFirst(float *in, float *out, int n) {
  int me = worldRank();
  int partner = 1 - me;
  if (me == 0) {
    MPI_Probe(me + 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: rank 0 waits in 'MPI_Probe' to receive from rank 1, and rank 1 waits in 'MPI_Probe' to receive from rank 0
    MPI_Recv(in, n, MPI_FLOAT, me + 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(out, n, MPI_FLOAT, partner, 0, MPI_COMM_WORLD);
    // CHECK-NOTES: :[[@LINE-1]]:5: note: rank 0 reaches its 'MPI_Send' only after that wait is over
  } else {
    MPI_Probe(partner, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    // CHECK-NOTES: :[[@LINE-1]]:5: note: rank 1 waits here for rank 0, in the branch the ranks no other branch names take
    MPI_Recv(in, n, MPI_FLOAT, partner, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(out, n, MPI_FLOAT, partner, 0, MPI_COMM_WORLD);
    // CHECK-NOTES: :[[@LINE-1]]:5: note: rank 1 reaches its 'MPI_Send' only after that wait is over
  }
  // CHECK-NOTES: :[[@LINE-12]]:5: note: let one of the two ranks send first
}

// A posted receive waited for before the send blocks like MPI_Recv; so
// does a switch on the rank, inside a loop.
void postedThenWaited(float *in, float *out, int n, int steps) {
  int rank = worldRank();
  for (int step = 0; step < steps; ++step) {
    switch (rank) {
    case 0: {
      MPI_Request request;
      MPI_Irecv(in, n, MPI_FLOAT, 1, step, MPI_COMM_WORLD, &request);
      MPI_Wait(&request, MPI_STATUS_IGNORE);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: rank 0 waits in 'MPI_Wait' to receive from rank 1, and rank 1 waits in 'MPI_Recv' to receive from rank 0
      MPI_Send(out, n, MPI_FLOAT, 1, step, MPI_COMM_WORLD);
      // CHECK-NOTES: :[[@LINE-1]]:7: note: rank 0 reaches its 'MPI_Send' only after that wait is over
      break;
    }
    case 1:
      for (int chunk = 0; chunk < 4; ++chunk) {
        MPI_Recv(in, n, MPI_FLOAT, 0, step, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        // CHECK-NOTES: :[[@LINE-1]]:9: note: rank 1 waits here for rank 0
        MPI_Send(out, n, MPI_FLOAT, 0, step, MPI_COMM_WORLD);
        // CHECK-NOTES: :[[@LINE-1]]:9: note: rank 1 reaches its 'MPI_Send' only after that wait is over
      }
      break;
    }
    // CHECK-NOTES: :[[@LINE-15]]:7: note: let one of the two ranks send first
  }
}

// The rank kept in a member, read as `rank` in one arm and `this->rank` in
// the other: one role branch.
struct Peer {
  int rank;
  int stage = 0;
  Peer() { MPI_Comm_rank(MPI_COMM_WORLD, &rank); }

  void exchange(float *in, float *out, int n) {
    if (rank == 0) {
      MPI_Recv(in, n, MPI_FLOAT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: rank 0 waits in 'MPI_Recv' to receive from rank 1, and rank 1 waits in 'MPI_Recv' to receive from rank 0
      MPI_Send(out, n, MPI_FLOAT, 1, 0, MPI_COMM_WORLD);
      // CHECK-NOTES: :[[@LINE-1]]:7: note: rank 0 reaches its 'MPI_Send' only after that wait is over
    } else if (this->rank == 1) {
      MPI_Recv(in, n, MPI_FLOAT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      // CHECK-NOTES: :[[@LINE-1]]:7: note: rank 1 waits here for rank 0
      MPI_Send(out, n, MPI_FLOAT, 0, 0, MPI_COMM_WORLD);
      // CHECK-NOTES: :[[@LINE-1]]:7: note: rank 1 reaches its 'MPI_Send' only after that wait is over
    }
    // CHECK-NOTES: :[[@LINE-10]]:7: note: let one of the two ranks send first
  }

  // Not a case: the second arm tests another member, so what it runs is not
  // rank 1's role.
  void byStage(float *in, float *out, int n) {
    if (rank == 0) {
      MPI_Recv(in, n, MPI_FLOAT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(out, n, MPI_FLOAT, 1, 0, MPI_COMM_WORLD);
    } else if (stage == 1) {
      MPI_Recv(in, n, MPI_FLOAT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(out, n, MPI_FLOAT, 0, 0, MPI_COMM_WORLD);
    }
  }
};

// Not a case: rank 0 sends first.
void sendFirstOnOneSide(float *in, float *out, int n) {
  int rank = worldRank();
  if (rank == 0) {
    MPI_Send(out, n, MPI_FLOAT, 1, 0, MPI_COMM_WORLD);
    MPI_Recv(in, n, MPI_FLOAT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (rank == 1) {
    MPI_Recv(in, n, MPI_FLOAT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(out, n, MPI_FLOAT, 0, 0, MPI_COMM_WORLD);
  }
}

// Not a case: one call sends and receives.
void combined(float *in, float *out, int n) {
  int rank = worldRank();
  if (rank == 0)
    MPI_Sendrecv(out, n, MPI_FLOAT, 1, 0, in, n, MPI_FLOAT, 1, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  else if (rank == 1)
    MPI_Sendrecv(out, n, MPI_FLOAT, 0, 0, in, n, MPI_FLOAT, 0, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

// Not a case: both post their receive and their send, then wait for both.
void nonblocking(float *in, float *out, int n) {
  int rank = worldRank();
  MPI_Request requests[2];
  if (rank == 0) {
    MPI_Irecv(in, n, MPI_FLOAT, 1, 0, MPI_COMM_WORLD, &requests[0]);
    MPI_Isend(out, n, MPI_FLOAT, 1, 0, MPI_COMM_WORLD, &requests[1]);
    MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
  } else if (rank == 1) {
    MPI_Irecv(in, n, MPI_FLOAT, 0, 0, MPI_COMM_WORLD, &requests[0]);
    MPI_Isend(out, n, MPI_FLOAT, 0, 0, MPI_COMM_WORLD, &requests[1]);
    MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
  }
}

// Not a case: rank 1 receives from anyone; rank 2 sends to it first.
void anySource(float *in, float *out, int n) {
  int rank = worldRank();
  if (rank == 0) {
    MPI_Recv(in, n, MPI_FLOAT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(out, n, MPI_FLOAT, 1, 0, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Recv(in, n, MPI_FLOAT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    MPI_Send(out, n, MPI_FLOAT, 0, 0, MPI_COMM_WORLD);
  } else if (rank == 2) {
    MPI_Send(out, n, MPI_FLOAT, 1, 0, MPI_COMM_WORLD);
  }
}

// Not a case: a chain. Rank 0 waits for rank 1, rank 1 for rank 2, and
// rank 2 sends first.
void chain(float *in, float *out, int n) {
  int rank = worldRank();
  if (rank == 0) {
    MPI_Recv(in, n, MPI_FLOAT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (rank == 1) {
    MPI_Recv(in, n, MPI_FLOAT, 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(out, n, MPI_FLOAT, 0, 0, MPI_COMM_WORLD);
  } else if (rank == 2) {
    MPI_Send(out, n, MPI_FLOAT, 1, 0, MPI_COMM_WORLD);
  }
}

// Not a case: the branch is on a mode every rank shares, not on the rank.
void byMode(float *in, float *out, int n, int mode) {
  if (mode == 0) {
    MPI_Recv(in, n, MPI_FLOAT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(out, n, MPI_FLOAT, 1, 0, MPI_COMM_WORLD);
  } else if (mode == 1) {
    MPI_Recv(in, n, MPI_FLOAT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(out, n, MPI_FLOAT, 0, 0, MPI_COMM_WORLD);
  }
}

// Not a case: rank 1 answers only when a flag says so, and the flag's
// other path sends first.
void conditionalFirst(float *in, float *out, int n, bool eager) {
  int rank = worldRank();
  if (rank == 0) {
    MPI_Recv(in, n, MPI_FLOAT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(out, n, MPI_FLOAT, 1, 0, MPI_COMM_WORLD);
  } else if (rank == 1) {
    if (eager)
      MPI_Send(out, n, MPI_FLOAT, 0, 0, MPI_COMM_WORLD);
    MPI_Recv(in, n, MPI_FLOAT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(out, n, MPI_FLOAT, 0, 0, MPI_COMM_WORLD);
  }
}
