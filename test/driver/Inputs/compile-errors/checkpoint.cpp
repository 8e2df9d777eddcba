// Compiles; calls helpers of train_v2.cpp.
#include <c10d/ProcessGroup.hpp>

using Tensors = std::vector<at::Tensor>;

void syncBuffers(const c10::intrusive_ptr<c10d::ProcessGroup> &pg,
                 Tensors &buffers);
void syncAll(const c10::intrusive_ptr<c10d::ProcessGroup> &pg);

void checkpoint(const c10::intrusive_ptr<c10d::ProcessGroup> &pg,
                Tensors &buffers) {
  // What syncBuffers issues is not known: its body did not compile.
  if (pg->getRank() == 0)
    syncBuffers(pg, buffers);
  // syncAll compiled: its barrier is reached by rank 0 only.
  if (pg->getRank() == 0)
    syncAll(pg);
}
