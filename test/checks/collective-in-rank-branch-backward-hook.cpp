// RUN: %check_ddp_tidy %s ddp-collective-in-rank-branch %t -- -- %mock_flags

// A gradient hook that allreduces arms gradient synchronisation as a Reducer
// does: backward() then communicates, so it is a collective.

#include <c10d/ProcessGroup.hpp>

// A parameter type with a gradient-hook API like at::Tensor::register_hook.
struct Param {
  template <class Hook> void register_hook(Hook &&hook) {}
};

void installHook(Param &p, c10d::ProcessGroup *pg) {
  p.register_hook([pg](at::Tensor grad) {
    std::vector<at::Tensor> bucket{grad};
    pg->allreduce(bucket)->wait();
    return grad;
  });
}

// Only rank 0 runs backward, which triggers the communicating hook.
void backwardOnRootWithHook(c10d::ProcessGroup *pg, const at::Tensor &loss) {
  if (pg->getRank() == 0)
    loss.backward();
}
// CHECK-MESSAGES: :[[@LINE-2]]:10: warning: 'backward' is reached only by ranks where 'pg->getRank() == 0' [ddp-collective-in-rank-branch]
