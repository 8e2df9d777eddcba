#include "trainer.h"

bool isLeader(const Group &pg) { return pg->getRank() == 0; }

double averageOverRanks(const Group &pg, double local) {
  std::vector<at::Tensor> value{torch::tensor({local}, torch::kDouble)};
  pg->allreduce(value)->wait();
  return value[0].item<double>() / pg->getSize();
}

void averageGradients(const Group &pg, torch::nn::Module &model) {
  for (auto &p : model.parameters()) {
    std::vector<at::Tensor> grads{p.grad()};
    pg->allreduce(grads)->wait();
    p.grad().div_(pg->getSize());
  }
}
