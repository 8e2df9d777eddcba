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
