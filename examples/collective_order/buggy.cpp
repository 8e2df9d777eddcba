//===- collective_order/buggy.cpp - Same collectives, different order -----===//
//
// Data-parallel training with a learning-rate schedule decided by rank 0:
// after every epoch the mean training loss is logged (an allreduce over the
// ranks) and rank 0 halves the learning rate when the loss stopped
// improving, then broadcasts the new rate. Rank 0 needs the mean loss before
// it can decide, so its branch logs first and broadcasts second; the branch
// for the other ranks was written the other way round - receive the new rate,
// then join the logging. Every rank calls the same two collectives, but not
// in the same order, so rank 0's allreduce is matched with the other ranks'
// broadcast.
//
//===----------------------------------------------------------------------===//

#include "common/dist_setup.h"

#include <algorithm>
#include <vector>

static constexpr int kEpochs = 4;
static constexpr int kStepsPerEpoch = 3;

/// Returns the loss averaged over all ranks (an allreduce) and logs it on
/// rank 0.
static float logMeanLoss(const c10::intrusive_ptr<c10d::ProcessGroup> &pg,
                         float localLoss, int epoch) {
  std::vector<torch::Tensor> loss{torch::tensor({localLoss})};
  pg->allreduce(loss)->wait();
  const float mean = loss[0].item<float>() / pg->getSize();
  if (pg->getRank() == 0)
    std::cout << "epoch " << epoch << ": mean loss " << mean << std::endl;
  return mean;
}

static void train(const c10::intrusive_ptr<c10d::ProcessGroup> &pg) {
  int rank = pg->getRank();
  int worldSize = pg->getSize();

  // Every rank starts from the same weights but trains on its own data shard.
  torch::manual_seed(0);
  torch::nn::Linear model(4, 1);
  float learningRate = 0.05f;
  torch::optim::SGD optimizer(model->parameters(), learningRate);

  torch::manual_seed(1 + rank);
  torch::Tensor inputs = torch::randn({32, 4});
  torch::Tensor targets = inputs.sum(/*dim=*/1, /*keepdim=*/true);

  float bestLoss = 1e30f;
  for (int epoch = 0; epoch < kEpochs; ++epoch) {
    float epochLoss = 0.0f;
    for (int step = 0; step < kStepsPerEpoch; ++step) {
      optimizer.zero_grad();
      torch::Tensor loss = torch::mse_loss(model->forward(inputs), targets);
      loss.backward();

      // Average the gradients so that every replica applies the same update.
      for (torch::Tensor &param : model->parameters()) {
        std::vector<torch::Tensor> grads{param.grad()};
        pg->allreduce(grads)->wait();
        param.grad().div_(worldSize);
      }
      optimizer.step();
      epochLoss += loss.item<float>() / kStepsPerEpoch;
    }

    std::vector<torch::Tensor> lr{torch::tensor({learningRate})};
    if (rank == 0) {
      // Rank 0 logs the mean loss and decides the new learning rate...
      const float mean = logMeanLoss(pg, epochLoss, epoch);
      if (mean > 0.95f * bestLoss) {
        lr[0].mul_(0.5);
        std::cout << "epoch " << epoch << ": learning rate halved to "
                  << lr[0].item<float>() << std::endl;
      }
      bestLoss = std::min(bestLoss, mean);
      pg->broadcast(lr)->wait();
    } else {
      // BUG: ...but the other ranks receive the learning rate first and join
      // the logging allreduce second: the two collectives are in the
      // opposite order from rank 0's.
      pg->broadcast(lr)->wait();
      logMeanLoss(pg, epochLoss, epoch);
    }
    learningRate = lr[0].item<float>();
    for (torch::optim::OptimizerParamGroup &group : optimizer.param_groups())
      static_cast<torch::optim::SGDOptions &>(group.options()).lr(learningRate);
  }

  if (rank == 0)
    std::cout << "training finished" << std::endl;
}

int main() {
  try {
    c10::intrusive_ptr<c10d::ProcessGroup> pg = ddp_example::initProcessGroup();
    train(pg);
  } catch (const std::exception &err) {
    return ddp_example::reportFailure(err);
  }
  return 0;
}
