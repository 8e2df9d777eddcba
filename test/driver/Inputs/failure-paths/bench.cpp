#include "common.h"

// Silent: a rank whose device cannot be set returns an error; the job ends.
runResult_t setUp(float *buf, int n) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  CHECK_CUDA(cudaSetDevice(deviceOf(rank)));
  MPI_Allreduce(buf, buf, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  return runOk;
}

// Reported: only rank 0 asks for the id; if it fails, rank 0 returns and
// the others wait in the broadcast.
runResult_t shareId(ncclUniqueId *id) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    CHECK_NCCL(ncclGetUniqueId(id));
  }
  MPI_Bcast(id, sizeof(*id), MPI_INT, 0, MPI_COMM_WORLD);
  return runOk;
}

// Silent: the assertion's failing side ends the job; `rounds` is the same on
// every rank that goes on.
void repeat(float *buf, int n, int expected) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int rounds = 0;
  assert(rank == expected);
  rounds = 2;
  for (int i = 0; i < rounds; ++i)
    MPI_Allreduce(buf, buf, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
}

// Silent: the members of the benchmark's communicator synchronise on it.
void timeMembers(struct bench_info *info, float *buf, int n) {
  if (info->rank != -1) {
    syncOn(info->communicator);
    MPI_Allreduce(buf, buf, n, MPI_FLOAT, MPI_SUM, info->communicator);
  }
}

// Reported: the world, from the members only.
void timeMembersThenWorld(struct bench_info *info, float *buf, int n) {
  if (info->rank != -1) {
    MPI_Allreduce(buf, buf, n, MPI_FLOAT, MPI_SUM, info->communicator);
    syncOn(MPI_COMM_WORLD);
  }
}
