#include "bench.h"

void setUp(struct pair_info *info, int members) {
  int world;
  MPI_Comm_rank(MPI_COMM_WORLD, &world);
  MPI_Comm_split(MPI_COMM_WORLD, world < members ? 0 : MPI_UNDEFINED, world,
                 &info->communicator);
  info->rank = -1;
  if (info->communicator != MPI_COMM_NULL)
    MPI_Comm_rank(info->communicator, &info->rank);
  info->pair0 = 0;
  info->pair1 = members - 1;
}

void checkError(int err) {
  if (err != MPI_SUCCESS)
    MPI_Abort(MPI_COMM_WORLD, err);
}

MPI_Comm SetContext::getComm(bool cross) const {
  return cross ? crossComm : comm;
}

void MPISetController::doInitialization() {
  MPI_Allgather(MPI_IN_PLACE, 1, MPI_INT, sizes, 1, MPI_INT, ctx->comm);
}

void makeSet(SetContext *ctx, int members) {
  int world;
  MPI_Comm_rank(MPI_COMM_WORLD, &world);
  MPI_Group worldGroup, setGroup;
  MPI_Comm_group(MPI_COMM_WORLD, &worldGroup);
  int first[2] = {0, 1};
  MPI_Group_incl(worldGroup, members, first, &setGroup);
  MPI_Comm_create_group(MPI_COMM_WORLD, setGroup, 0, &ctx->comm);
  MPI_Comm_split(MPI_COMM_WORLD, world % 2, world, &ctx->crossComm);
}
