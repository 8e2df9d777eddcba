// Written for LibTorch 2.x; the mock headers have no ProcessGroup::getBackend
// and no c10d::ops, so parts of this file do not compile.
#include <c10d/ProcessGroup.hpp>

using Tensors = std::vector<at::Tensor>;

// The backend of a 2.x process group, known by its name only here.
void step(const c10::intrusive_ptr<c10d::ProcessGroup> &pg, Tensors &grads) {
  auto backend = pg->getBackend(c10::DeviceType::CPU);
  int rank = pg->getRank();
  if (rank == 0)
    backend->barrier()->wait();
}

// A statement that names a collective did not compile (c10d::ops is not
// there): the function is not analysed.
void syncBuffers(const c10::intrusive_ptr<c10d::ProcessGroup> &pg,
                 Tensors &buffers) {
  c10d::ops::allreduce_coalesced(pg, buffers, 1);
  pg->barrier()->wait();
}

void syncAll(const c10::intrusive_ptr<c10d::ProcessGroup> &pg) {
  pg->barrier()->wait();
}
