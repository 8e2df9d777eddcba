#!/usr/bin/env python3
"""Writes a C++ file with one function of N sequential rank-dependent
branches. Every branch issues the same all-reduce on both sides but the one
numbered ODD, whose false side issues nothing.

usage: gen_branches.py OUT.cpp N ODD
"""
import sys

out, n, odd = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
lines = ["#include <c10d/ProcessGroup.hpp>", "",
         "void many(c10d::ProcessGroup *pg, std::vector<at::Tensor> &t) {",
         "  int rank = pg->getRank();"]
for i in range(n):
    lines.append("  if (rank %% %d == 0) {  // branch %d" % (i + 2, i))
    lines.append("    pg->allreduce(t)->wait();")
    lines.append("  } else {")
    if i != odd:
        lines.append("    pg->allreduce(t)->wait();")
    lines.append("  }")
lines.append("}")
with open(out, "w") as f:
    f.write("\n".join(lines) + "\n")
