#include "dataset.h"

// Each rank counts its own part of the rows.
struct PartDataset : Dataset {
  long Rows;
  explicit PartDataset(int Part) : Rows(100 + Part) {}
  long size() const override { return Rows; }
};
