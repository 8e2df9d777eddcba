// The ddp checks on an MPI program written against the real Open MPI header
// (Debian libopenmpi-dev).
// REQUIRES: mpi
// RUN: %check_ddp_tidy %s 'ddp-*' %t -- -- -std=c++17 %mpi_flags

#include <mpi.h>

#include <cstdio>
#include <vector>

// Rank 0 writes the log, then waits in a barrier alone.
void logAndSync(int step) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    std::printf("step %d\n", step);
    MPI_Barrier(MPI_COMM_WORLD);
  }
}
// CHECK-MESSAGES: :[[@LINE-3]]:5: warning: 'MPI_Barrier' is reached only by ranks where 'rank == 0' [ddp-rank-gated-barrier]
// CHECK-FIXES:      {{^}}    std::printf("step %d\n", step);{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-FIXES-NEXT: {{^}}  MPI_Barrier(MPI_COMM_WORLD);{{$}}

// Only the root takes part in the broadcast.
void shareConfig(std::vector<int> &config) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    MPI_Bcast(config.data(), static_cast<int>(config.size()), MPI_INT, 0,
              MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-3]]:5: warning: 'MPI_Bcast' is reached only by ranks where 'rank == 0' [ddp-collective-in-rank-branch]

// Workers stop early on their own local condition... after the root has
// already left: the allreduce of the others never completes.
double sumResiduals(const std::vector<double> &local) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0 && local.empty())
    return 0.0;
  double mine = 0, total = 0;
  for (double r : local)
    mine += r;
  MPI_Allreduce(&mine, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return total;
}
// CHECK-MESSAGES: :[[@LINE-3]]:3: warning: 'MPI_Allreduce' is skipped by ranks that leave early when 'rank != 0 && local.empty()' [ddp-collective-in-rank-branch]

// Silent: the root sends, the others receive (matched point-to-point).
void scatterByHand(std::vector<double> &chunk) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == 0) {
    for (int peer = 1; peer < size; ++peer)
      MPI_Send(chunk.data(), static_cast<int>(chunk.size()), MPI_DOUBLE, peer,
               0, MPI_COMM_WORLD);
  } else {
    MPI_Recv(chunk.data(), static_cast<int>(chunk.size()), MPI_DOUBLE, 0, 0,
             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
}

// Silent: a convergence test on an allreduced value is the same everywhere.
void iterate(std::vector<double> &x) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int it = 0; it < 1000; ++it) {
    double local = x.empty() ? 0.0 : x[0] * rank, global = 0;
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (global < 1e-9)
      break;
    if (rank < size)
      MPI_Barrier(MPI_COMM_WORLD);
  }
}

// Halo exchange where both neighbours receive first.
void haloExchange(std::vector<double> &halo, std::vector<double> &edge) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int partner = rank ^ 1;
  if (partner < size) {
    MPI_Recv(halo.data(), 4, MPI_DOUBLE, partner, 0, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    MPI_Send(edge.data(), 4, MPI_DOUBLE, partner, 0, MPI_COMM_WORLD);
  }
}
// CHECK-MESSAGES: :[[@LINE-5]]:5: warning: every rank waits in 'MPI_Recv' before its 'MPI_Send': if the ranks that exchange here all run this code, none reaches its 'MPI_Send' and they deadlock [ddp-p2p-deadlock]

// Silent: the same exchange as one call.
void haloSendrecv(std::vector<double> &halo, std::vector<double> &edge) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int partner = rank ^ 1;
  MPI_Sendrecv(edge.data(), 4, MPI_DOUBLE, partner, 0, halo.data(), 4,
               MPI_DOUBLE, partner, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

// Silent: rank 0 prints after a barrier every rank reaches.
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::vector<double> x(4, 1.0);
  iterate(x);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    std::printf("done\n");
  MPI_Finalize();
  return 0;
}
