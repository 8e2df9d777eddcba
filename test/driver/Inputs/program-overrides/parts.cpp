#include "part_dataset.h"

// A library file linked with train.cpp (no main of its own).
const Dataset *partOf(int Part) { return new PartDataset(Part); }
