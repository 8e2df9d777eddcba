#!/usr/bin/env python3
"""Writes a C++ file with one function of N rank-dependent branches.

usage: gen_branches.py OUT.cpp N ODD
  N sequential branches. Every branch issues the same all-reduce on both
  sides but the one numbered ODD, whose false side issues nothing.
usage: gen_branches.py --else-if OUT.cpp N
  One chain `if (rank == 0) ... else if (rank == 1) ...` of N branches, each
  nested in the one before: every branch all-reduces, and the ranks past the
  chain wait in a barrier instead. The analysis of each branch covers the
  rest of the chain, so the work grows with N * N.
"""
import sys

HEADER = ["#include <c10d/ProcessGroup.hpp>", "",
          "void many(c10d::ProcessGroup *pg, std::vector<at::Tensor> &t) {",
          "  int rank = pg->getRank();"]


def sequential(n, odd):
    lines = []
    for i in range(n):
        lines.append("  if (rank %% %d == 0) {  // branch %d" % (i + 2, i))
        lines.append("    pg->allreduce(t)->wait();")
        lines.append("  } else {")
        if i != odd:
            lines.append("    pg->allreduce(t)->wait();")
        lines.append("  }")
    return lines


def else_if(n):
    lines = ["  if (rank == 0) {", "    pg->allreduce(t)->wait();"]
    for i in range(1, n):
        lines.append("  } else if (rank == %d) {" % i)
        lines.append("    pg->allreduce(t)->wait();")
    lines += ["  } else {", "    pg->barrier()->wait();", "  }"]
    return lines


if sys.argv[1] == "--else-if":
    out, body = sys.argv[2], else_if(int(sys.argv[3]))
else:
    out, body = sys.argv[1], sequential(int(sys.argv[2]), int(sys.argv[3]))
with open(out, "w") as f:
    f.write("\n".join(HEADER + body + ["}"]) + "\n")
