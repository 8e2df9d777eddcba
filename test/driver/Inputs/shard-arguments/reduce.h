#include <vector>

void reduceShard(std::vector<float> &Values);
void reduceCounts(std::vector<float> &Values);
void reduceEither(std::vector<float> &Values);
