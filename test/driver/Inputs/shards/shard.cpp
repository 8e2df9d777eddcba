#include "shard.h"

// Each rank's four values: the same length everywhere.
std::vector<float> shard(const std::vector<float> &All, int Part) {
  std::vector<float> Out(4);
  for (int I = 0; I < 4; ++I)
    Out[I] = All[Part * 4 + I];
  return Out;
}

// Each rank's own count of values.
std::vector<float> unevenShard(const std::vector<float> &All,
                               const std::vector<int> &Counts, int Part) {
  std::vector<float> Out(Counts[Part]);
  for (int I = 0; I < Counts[Part]; ++I)
    Out[I] = All[I];
  return Out;
}
