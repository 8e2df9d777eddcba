#include "trainer.h"

void writeWeights(torch::nn::Module &model, int step) {
  torch::serialize::OutputArchive archive;
  model.save(archive);
  archive.save_to("/tmp/ddp-lint-ckpt-" + std::to_string(step) + ".pt");
}

void syncAll(const Group &pg) { pg->barrier()->wait(); }

// Writes on the calling rank, then waits for every rank: all ranks must call
// it.
void saveCheckpoint(const Group &pg, torch::nn::Module &model, int step) {
  writeWeights(model, step);
  syncAll(pg);
}
