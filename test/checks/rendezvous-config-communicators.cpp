// RUN: %check_ddp_tidy %s 'ddp-collective-in-rank-branch,ddp-rendezvous-config' %t -- -- %mock_flags

// Communicators created by some ranks only are reported once, by
// ddp-rendezvous-config, when it is enabled (ddp-collective-in-rank-branch
// reports them otherwise); other collectives stay with
// ddp-collective-in-rank-branch.

#include <mpi.h>
#include <nccl.h>

void splitOnSomeRanks(MPI_Comm *sub) {
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  if (r < 4)
    MPI_Comm_split(MPI_COMM_WORLD, 0, r, sub);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: only ranks where 'r < 4' create the communicator with 'MPI_Comm_split': creating one is a collective that every rank of the parent communicator must enter, so the others wait at their next collective [ddp-rendezvous-config]
}

void ncclOnEvenRanks(ncclComm_t *comm, ncclUniqueId id, int nranks) {
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  if (r % 2 == 0)
    ncclCommInitRank(comm, nranks, id, r);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: only ranks where 'r % 2 == 0' create the communicator with 'ncclCommInitRank'
}

// Through a helper.
static void makeComm(MPI_Comm *sub, int r) {
  MPI_Comm_split(MPI_COMM_WORLD, 0, r, sub);
}
void helperOnRoot(MPI_Comm *sub) {
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  if (r == 0)
    makeComm(sub, r);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: only ranks where 'r == 0' create the communicator with 'MPI_Comm_split' (in 'makeComm')
}

// A collective that is not a communicator stays with the other check.
void reduceOnRoot(float *x) {
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  if (r == 0)
    MPI_Allreduce(x, x + 1, 1, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' is reached only by ranks where 'r == 0' [ddp-collective-in-rank-branch]
}

// Not a case: every rank splits, with a colour that depends on the rank.
void splitEverywhere(MPI_Comm *sub) {
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_split(MPI_COMM_WORLD, r % 2, r, sub);
}
