#include "comm.h"

// A rank-dependent trip count around a collective of another file.
void warmup(c10d::ProcessGroup *pg, std::vector<at::Tensor> &t) {
  int rank = pg->getRank();
  for (int i = 0; i < rank; ++i)
    reduce_once(pg, t);
}

// Not a case: a uniform trip count.
void epochs(c10d::ProcessGroup *pg, std::vector<at::Tensor> &t) {
  for (int i = 0; i < pg->getSize(); ++i)
    reduce_once(pg, t);
}

// A virtual call resolves to the body of the method named by the static
// type (Trainer::sync, in comm.cpp).
void virtual_defined(Trainer &tr, c10d::ProcessGroup *pg,
                     std::vector<at::Tensor> &t) {
  if (pg->getRank() == 0)
    tr.sync(pg, t);
}

// A pure virtual method has no body: the call runs one of the overrides in
// comm.cpp, GlooTrainer::step (a barrier) or NcclTrainer::step (which
// overrides it in turn: an allreduce).
void virtual_pure(Trainer &tr, c10d::ProcessGroup *pg,
                  std::vector<at::Tensor> &t) {
  if (pg->getRank() == 0)
    tr.step(pg, t);
}

// Not resolved (documented): calls through function pointers.
void through_pointer(c10d::ProcessGroup *pg, std::vector<at::Tensor> &t) {
  void (*fn)(c10d::ProcessGroup *, std::vector<at::Tensor> &) = reduce_once;
  if (pg->getRank() == 0)
    fn(pg, t);
}

// Ranks other than 0 leave before the collective: the report names the exit.
void leaveEarly(c10d::ProcessGroup *pg, std::vector<at::Tensor> &t) {
  if (pg->getRank() != 0)
    return;
  pg->allreduce(t)->wait();
}
