// RUN: %check_ddp_tidy %s 'ddp-*' %t -- -- %mock_flags

// std::forward<T>(x) and std::move(x) name their argument and write nothing:
// the chain from the rank to a value passed on through a forwarding wrapper
// has no step "'args' is written by 'std::forward<ArgsT>(args)'".

#include <mpi.h>
#include <utility>

template <typename... ArgsT> int takeFrom(ArgsT &&...args) {
  int v = 0;
  std::swap(v, std::forward<ArgsT>(args)...);
  return v;
}

void synchroniseWhenPositive() {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int u = takeFrom(rank);
  if (u > 0)
    MPI_Barrier(MPI_COMM_WORLD);
}
// CHECK-NOTES: :21:5: warning: 'MPI_Barrier' is reached only by ranks where 'u > 0' [ddp-rank-gated-barrier]
// CHECK-NOTES: :20:7: note: this condition depends on the rank
// CHECK-NOTES: :19:11: note: 'u' is set from 'takeFrom(rank)' here
// CHECK-NOTES: :13:3: note: 'takeFrom' returns a rank-dependent value here
// CHECK-NOTES: :12:3: note: 'v' is written by 'std::swap(v, std::forward<ArgsT>(args)...)' from a rank-dependent argument here
// CHECK-NOTES: :19:20: note: 'args' receives a rank-dependent argument here
// CHECK-NOTES: :18:3: note: 'rank' is set to the rank by 'MPI_Comm_rank' here
// CHECK-NOTES: :21:5: note: every rank must call 'MPI_Barrier'; call it where all ranks pass
