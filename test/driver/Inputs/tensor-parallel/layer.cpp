#include "layer.h"

RowParallelLinearImpl::RowParallelLinearImpl(PG group, int64_t in, int64_t out)
    : group_(group), local_(in / group->getSize(), out) {}

at::Tensor RowParallelLinearImpl::forward(const at::Tensor &x) {
  std::vector<at::Tensor> partial{local_(x)};
  group_->allreduce(partial)->wait();
  return partial[0];
}
