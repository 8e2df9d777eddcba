#include "bench.h"

// Not reported: only the processes outside the communicator leave (the
// error handler of another TU is given no communicator).
void pairedTransfer(struct pair_info *info, float *buf, int n) {
  int peer = -1;
  if (info->rank == info->pair0) {
    peer = info->pair1;
  } else if (info->rank == info->pair1) {
    peer = info->pair0;
  } else if (info->rank < 0) {
    return;
  }
  checkError(
      MPI_Allreduce(buf, buf, n, MPI_FLOAT, MPI_SUM, info->communicator));
}

// Not reported: the same with one-sided transfers on a window between
// the barriers (they match nothing on the other ranks).
void pairedGet(struct pair_info *info, float *buf, int n) {
  int target = -1;
  if (info->rank == info->pair0) {
    target = info->pair1;
  } else if (info->rank < 0) {
    return;
  }
  MPI_Barrier(info->communicator);
  if (target >= 0) {
    MPI_Win_lock(MPI_LOCK_SHARED, target, 0, info->win);
    MPI_Win_unlock(target, info->win);
  }
  MPI_Barrier(info->communicator);
}

// Reported: rank 0 of the communicator leaves too.
void pairedTransferMemberExit(struct pair_info *info, float *buf, int n) {
  int peer = -1;
  if (info->rank == info->pair0) {
    peer = info->pair1;
  } else if (info->rank == 0) {
    return;
  }
  MPI_Allreduce(buf, buf, n, MPI_FLOAT, MPI_SUM, info->communicator);
}

// Not reported: only the set's members initialise its controller.
void joinSet(SetContext *ctx, SetController *controller) {
  makeSet(ctx, 2);
  if (ctx->getComm(false) != MPI_COMM_NULL)
    controller->initialize();
}

// Reported: the members also wait in the world.
void joinSetThenWorld(SetContext *ctx, SetController *controller) {
  makeSet(ctx, 2);
  if (ctx->getComm(false) != MPI_COMM_NULL) {
    controller->initialize();
    MPI_Barrier(MPI_COMM_WORLD);
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  struct pair_info info;
  setUp(&info, 2);
  float buf[4] = {0};
  pairedTransfer(&info, buf, 4);
  pairedGet(&info, buf, 4);
  pairedTransferMemberExit(&info, buf, 4);
  SetContext set;
  int sizes[2] = {0};
  MPISetController controller;
  controller.ctx = &set;
  controller.sizes = sizes;
  joinSet(&set, &controller);
  joinSetThenWorld(&set, &controller);
  MPI_Finalize();
  return 0;
}
