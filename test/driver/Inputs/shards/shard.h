#include <vector>

std::vector<float> shard(const std::vector<float> &All, int Part);
std::vector<float> unevenShard(const std::vector<float> &All,
                               const std::vector<int> &Counts, int Part);
