// RUN: %check_ddp_tidy %s ddp-collective-in-rank-branch %t -- -- %mock_flags

// No c10d::Reducer and no communicating gradient hook in this file: backward()
// stays local, so running it on some ranks only cannot hang. Must be silent.
// The armed twin is collective-in-rank-branch-backward-armed.cpp.

#include <c10d/ProcessGroup.hpp>

// Only rank 0 runs backward (e.g. a local probe of the gradients).
void backwardOnRootUnarmed(c10d::ProcessGroup *pg, const at::Tensor &loss) {
  int rank = pg->getRank();
  if (rank == 0)
    loss.backward();
}

// The workers return before torch::autograd::backward.
void autogradBackwardAfterReturnUnarmed(c10d::ProcessGroup *pg,
                                        const at::Tensor &loss) {
  if (pg->getRank() != 0)
    return;
  torch::autograd::backward({loss});
}
