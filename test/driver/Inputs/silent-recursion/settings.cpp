#include "settings.h"
#include <cstdlib>

int settings() {
  static bool Logged = false;
  const char *Names[] = {"A", "B", "C"};
  int Sum = 0;
  for (const char *Name : Names) {
    const char *Value = std::getenv(Name);
    if (!Value)
      continue;
    Sum += std::atoi(Value);
    if (!Logged)
      logValue(Name, Sum);
  }
  Logged = true;
  return Sum;
}

void logValue(const char *Name, int Value) {
  if (settings() > 1)
    std::getenv(Name);
}
