#include <c10d/ProcessGroup.hpp>

// A settings object read once from the environment, and a logger that asks
// it where to write: they call each other, and neither communicates.
int settings();
void logValue(const char *Name, int Value);
