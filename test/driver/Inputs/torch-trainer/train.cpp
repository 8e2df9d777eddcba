#include "trainer.h"

void train(const Group &pg, torch::nn::Linear &model) {
  torch::optim::SGD opt(model->parameters(), 0.1);
  for (int step = 0; step < 20; ++step) {
    auto x = torch::randn({8, 4});
    auto loss = model->forward(x).pow(2).mean();
    opt.zero_grad();
    loss.backward();
    averageGradients(pg, *model);
    opt.step();

    // Not a case: the loss is averaged over the ranks (in metrics.cpp)
    // before the test, so every rank stops together.
    if (averageOverRanks(pg, loss.item<double>()) < 1e-3)
      break;

    // Bug: only the leader calls saveCheckpoint, whose barrier (in
    // checkpoint.cpp) the other ranks never reach.
    if (isLeader(pg) && step % 10 == 0)
      saveCheckpoint(pg, *model, step);

    // Not a case: the leader writes, every rank synchronises.
    if (isLeader(pg))
      writeWeights(*model, step);
    syncAll(pg);
  }
}
