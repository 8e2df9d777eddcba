#include <c10d/ProcessGroup.hpp>

void broken(c10d::ProcessGroup *pg) {
  undeclared_function(pg);
  int x = ;
}
