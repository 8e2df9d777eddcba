#include <mpi.h>

// The share of `total` rows that rank `rank` of `size` receives; this file
// only calls it over all ranks.
long shareOf(long total, int rank, int size) {
  long base = total / size;
  return rank < total % size ? base + 1 : base;
}

// The same on every rank.
long sumShares(long total, int size) {
  long sum = 0;
  for (int r = 0; r < size; ++r) sum += shareOf(total, r, size);
  return sum;
}
