// RUN: %check_ddp_tidy %s ddp-collective-in-rank-branch %t -- -- %mock_flags

// Paths that end the job with an error leave nobody waiting: the error side
// of a test of a library call's status, MPI_Abort, a failed assertion. Each
// case that stays silent sits beside the nearby hang that is still reported.

#include <cassert>
#include <cstdio>
#include <cuda_runtime.h>
#include <exception>
#include <mpi.h>
#include <nccl.h>
#include <stdexcept>

typedef enum { runOk = 0, runCudaError = 1, runNcclError = 2 } runResult_t;

// Check macros in the style of nccl-tests: report, then return an error
// status to the caller.
#define CHECK_CUDA(call)                                                       \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      std::printf("cuda: %s\n", cudaGetErrorString(e_));                       \
      return runCudaError;                                                     \
    }                                                                          \
  } while (0)
#define CHECK_NCCL(call)                                                       \
  do {                                                                         \
    ncclResult_t r_ = (call);                                                  \
    if (r_ != ncclSuccess) {                                                   \
      std::printf("nccl failure %d\n", (int)r_);                               \
      return runNcclError;                                                     \
    }                                                                          \
  } while (0)
// In the style of Aluminum: throw.
#define CHECK_CUDA_THROW(call)                                                 \
  do {                                                                         \
    cudaError_t s_ = (call);                                                   \
    if (s_ != cudaSuccess)                                                     \
      throw std::runtime_error(cudaGetErrorString(s_));                        \
  } while (0)

int localRankOf(int rank);

// Silent: the device index comes from the rank, so the status of setting it
// does too; a rank whose call fails returns an error and the job ends.
runResult_t selectDeviceThenReduce(float *buf, int n) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  CHECK_CUDA(cudaSetDevice(localRankOf(rank)));
  MPI_Allreduce(buf, buf, n, MPI_FLOAT, MPI_SUM,
                MPI_COMM_WORLD);
  return runOk;
}

// Reported: only rank 0 asks for the id, and if that fails rank 0 returns
// while the others wait in the broadcast.
runResult_t rootIdThenBroadcast(ncclUniqueId *id) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    CHECK_NCCL(ncclGetUniqueId(id));
  }
  MPI_Bcast(id, sizeof(*id), MPI_INT, 0, MPI_COMM_WORLD);
  return runOk;
}
// CHECK-MESSAGES: :[[@LINE-3]]:3: warning: 'MPI_Bcast' is skipped by ranks that leave early when 'rank == 0' [ddp-collective-in-rank-branch]

// Silent: the MPI way, handing the error code on.
int lockWindowThenBarrier(MPI_Win win, float *buf, int n) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int err = MPI_Win_lock(MPI_LOCK_SHARED, (rank + 1) % 4, 0, win);
  if (err != MPI_SUCCESS)
    return err;
  MPI_Win_unlock((rank + 1) % 4, win);
  MPI_Allreduce(buf, buf, n, MPI_FLOAT, MPI_SUM,
                MPI_COMM_WORLD);
  return MPI_SUCCESS;
}

// Reported: the same test on a value that is not a status (the rank's own
// share) is a decision.
int leaveWhenNoShare(float *buf, int n) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int share = localRankOf(rank);
  if (share != 0)
    return share;
  MPI_Allreduce(buf, buf, n, MPI_FLOAT, MPI_SUM,
                MPI_COMM_WORLD);
  return 0;
}
// CHECK-MESSAGES: :[[@LINE-4]]:3: warning: 'MPI_Allreduce' is skipped by ranks that leave early when 'share != 0' [ddp-collective-in-rank-branch]

// Silent: a check macro that throws.
void selectDeviceOrThrow(float *buf, int n) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  CHECK_CUDA_THROW(cudaSetDevice(localRankOf(rank)));
  MPI_Allreduce(buf, buf, n, MPI_FLOAT, MPI_SUM,
                MPI_COMM_WORLD);
}

// Reported: a failed call in a function that returns nothing: the rank
// leaves, its caller carries on, and the others wait.
void selectDeviceOrSkip(float *buf, int n) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (cudaSetDevice(localRankOf(rank)) != cudaSuccess) {
    std::printf("no device, skipping\n");
    return;
  }
  MPI_Allreduce(buf, buf, n, MPI_FLOAT, MPI_SUM,
                MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-3]]:3: warning: 'MPI_Allreduce' is skipped by ranks that leave early when 'cudaSetDevice(localRankOf(rank)) != cudaSuccess' [ddp-collective-in-rank-branch]

// A query whose answer depends on this rank's device: it can fail on one
// rank only. The status of cudaGetDevice is not the rank.
bool deviceBusId(char *busId) {
  int device;
  CHECK_CUDA_THROW(cudaGetDevice(&device));
  cudaDeviceGetPCIBusId(busId, 32, device);
  if (busId[0] == '\0')
    return false;
  return true;
}

void exchangeBusIds(const char *mine, char *all) {
  MPI_Allgather(mine, 32, MPI_INT, all, 32, MPI_INT, MPI_COMM_WORLD);
}

// Reported: a rank whose query fails returns, and its caller goes on
// without it; the others wait in the exchange.
void bindToDevice(char *all) {
  char busId[32];
  if (!deviceBusId(busId)) {
    std::printf("cannot bind\n");
    return;
  }
  exchangeBusIds(busId, all);
}
// CHECK-MESSAGES: :[[@LINE-2]]:3: warning: 'MPI_Allgather' in 'exchangeBusIds' is skipped by ranks that leave early when '!deviceBusId(busId)' [ddp-collective-in-rank-branch]

// Silent: MPI_Abort ends every rank.
void abortOnBadRank(float *buf, int n, int expected) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank >= expected) {
    std::printf("too many ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
    return;
  }
  MPI_Allreduce(buf, buf, n, MPI_FLOAT, MPI_SUM,
                MPI_COMM_WORLD);
}

// Reported: the same without MPI_Abort.
void returnOnBadRank(float *buf, int n, int expected) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank >= expected) {
    std::printf("too many ranks\n");
    return;
  }
  MPI_Allreduce(buf, buf, n, MPI_FLOAT, MPI_SUM,
                MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-3]]:3: warning: 'MPI_Allreduce' is skipped by ranks that leave early when 'rank >= expected' [ddp-collective-in-rank-branch]

// Silent: std::terminate on one side.
void terminateOnRoot(float *buf, int n, bool broken) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0 && broken)
    std::terminate();
  MPI_Allreduce(buf, buf, n, MPI_FLOAT, MPI_SUM,
                MPI_COMM_WORLD);
}

// Silent: an assertion about the rank is not a branch for what follows it;
// `rounds` is set after it on every rank alike.
void assertRankThenLoop(float *buf, int n, int expected) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int rounds = 0;
  assert(rank == expected);
  rounds = 3;
  for (int i = 0; i < rounds; ++i)
    MPI_Allreduce(buf, buf, n, MPI_FLOAT, MPI_SUM,
                  MPI_COMM_WORLD);
}

// Reported: a test of the same condition that both sides survive.
void testRankThenLoop(float *buf, int n, int expected) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int rounds = 0;
  if (rank == expected)
    rounds = 3;
  for (int i = 0; i < rounds; ++i)
    MPI_Allreduce(buf, buf, n, MPI_FLOAT, MPI_SUM,
                  MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-3]]:5: warning: 'MPI_Allreduce' is called a rank-dependent number of times: the loop condition 'i < rounds' depends on the rank [ddp-collective-in-rank-branch]

// Silent: the status that a rank source with an out-parameter returns is
// not the rank.
void reduceIfRankKnown(ncclComm_t comm, float *buf, size_t n,
                       cudaStream_t stream) {
  int rank = -1;
  if (ncclCommUserRank(comm, &rank) == ncclSuccess)
    ncclAllReduce(buf, buf, n, ncclFloat, ncclSum, comm, stream);
}

// Reported: a test of the rank it wrote.
void reduceOnRootOnly(ncclComm_t comm, float *buf, size_t n,
                      cudaStream_t stream) {
  int rank = -1;
  ncclCommUserRank(comm, &rank);
  if (rank == 0)
    ncclAllReduce(buf, buf, n, ncclFloat, ncclSum, comm, stream);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'ncclAllReduce' is reached only by ranks where 'rank == 0' [ddp-collective-in-rank-branch]

// A step of the program's own that returns a result code.
runResult_t initStep(int device);

// Silent: the program's own result code, handed on (nccl-tests' TESTCHECK).
runResult_t initThenReduce(float *buf, int n) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  runResult_t r = initStep(localRankOf(rank));
  if (r != runOk)
    return r;
  MPI_Allreduce(buf, buf, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  return runOk;
}

// Reported: only rank 0 runs the step, and returns if it fails.
runResult_t initOnRootThenReduce(float *buf, int n) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    runResult_t r = initStep(0);
    if (r != runOk)
      return r;
  }
  MPI_Allreduce(buf, buf, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  return runOk;
}
// CHECK-MESSAGES: :[[@LINE-3]]:3: warning: 'MPI_Allreduce' is skipped by ranks that leave early when 'rank == 0' [ddp-collective-in-rank-branch]

// A step of the program's own whose result code depends on the rank.
int assembleRows(int rank);

// Returning a non-zero code from main ends the process with an error, as
// exit(1) does, and the launcher ends the job: silent (hypre's test drivers).
// Returning 0 from main on one rank is an ordinary early exit: the others
// wait in MPI_Finalize, reported.
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int ierr = assembleRows(rank);
  std::printf("assembled\n");
  if (ierr) {
    std::printf("error %d in assembly\n", ierr);
    return -1;
  }
  int rows = 0, total = 0;
  MPI_Allreduce(&rows, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && argc > 2)
    return 0;
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
// CHECK-MESSAGES: :[[@LINE-3]]:3: warning: 'MPI_Finalize' is skipped by ranks that leave early when 'rank == 0 && argc > 2' [ddp-collective-in-rank-branch]
