#include <mpi.h>
#include <vector>

// What every rank agrees on, behind an interface with one implementation
// per transport (horovod's Controller).
class Controller {
public:
  virtual ~Controller();
  // Every bit, the minimum over the ranks.
  virtual void crossRankAnd(std::vector<int> &Bits) = 0;
};

class MpiController : public Controller {
public:
  void crossRankAnd(std::vector<int> &Bits) override;
};

class RootController : public Controller {
public:
  void crossRankAnd(std::vector<int> &Bits) override;
};

// One implementation keeps this rank's bits.
class Cache {
public:
  virtual ~Cache();
  virtual void agree(std::vector<int> &Bits) = 0;
};

class MpiCache : public Cache {
public:
  void agree(std::vector<int> &Bits) override;
};

class LocalCache : public Cache {
public:
  void agree(std::vector<int> &Bits) override;
};
