//===--- CollectiveSummary.cpp - Sets of collective sequences -------------===//

#include "core/CollectiveSummary.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <algorithm>

namespace ddp {

void SummaryNode::profile(llvm::FoldingSetNodeID &ID, Kind K,
                          llvm::StringRef Op,
                          llvm::ArrayRef<const SummaryNode *> Kids) {
  ID.AddInteger(static_cast<unsigned>(K));
  ID.AddString(Op);
  for (const SummaryNode *Kid : Kids)
    ID.AddPointer(Kid);
}

void SummaryNode::Profile(llvm::FoldingSetNodeID &ID) const {
  profile(ID, K, Op, Kids);
}

llvm::StringRef SummaryNode::firstOp() const {
  if (K == Kind::Op)
    return Op;
  for (const SummaryNode *Kid : Kids) {
    llvm::StringRef First = Kid->firstOp();
    if (!First.empty())
      return First;
  }
  return "";
}

bool SummaryNode::mayIssue(llvm::StringRef Name) const {
  if (K == Kind::Op)
    return Op == Name;
  return llvm::any_of(Kids,
                      [&](const SummaryNode *Kid) { return Kid->mayIssue(Name); });
}

static void render(const SummaryNode *N, std::string &Out, unsigned &Budget) {
  if (Budget == 0) {
    Out += "...";
    return;
  }
  switch (N->getKind()) {
  case SummaryNode::Kind::Empty:
    Out += "-";
    return;
  case SummaryNode::Kind::LoopBack:
    Out += "(repeat)";
    return;
  case SummaryNode::Kind::Op:
    --Budget;
    Out += N->getOp().str();
    return;
  case SummaryNode::Kind::Seq:
    for (size_t I = 0; I < N->children().size(); ++I) {
      if (I)
        Out += ", ";
      render(N->children()[I], Out, Budget);
    }
    return;
  case SummaryNode::Kind::Choice:
    Out += "(";
    for (size_t I = 0; I < N->children().size(); ++I) {
      if (I)
        Out += " | ";
      render(N->children()[I], Out, Budget);
    }
    Out += ")";
    return;
  }
}

std::string SummaryNode::str(unsigned MaxOps) const {
  std::string Out;
  unsigned Budget = MaxOps;
  render(this, Out, Budget);
  return Out;
}

SummaryContext::SummaryContext() {
  Empty = intern(SummaryNode::Kind::Empty, "", {});
}

SummaryContext::~SummaryContext() {
  for (SummaryNode *N : Owned)
    N->~SummaryNode();
}

const SummaryNode *
SummaryContext::intern(SummaryNode::Kind K, llvm::StringRef Op,
                       llvm::ArrayRef<const SummaryNode *> Kids) {
  llvm::FoldingSetNodeID ID;
  SummaryNode::profile(ID, K, Op, Kids);
  void *InsertPos = nullptr;
  if (SummaryNode *Existing = Nodes.FindNodeOrInsertPos(ID, InsertPos))
    return Existing;
  llvm::StringRef Stored = Op.empty() ? "" : Names.insert(Op).first->getKey();
  auto *N = new (Alloc.Allocate<SummaryNode>())
      SummaryNode(K, Stored, Kids, Owned.size());
  Owned.push_back(N);
  Nodes.InsertNode(N, InsertPos);
  return N;
}

const SummaryNode *SummaryContext::loopBack() {
  return intern(SummaryNode::Kind::LoopBack, "", {});
}

const SummaryNode *SummaryContext::op(llvm::StringRef Name) {
  return intern(SummaryNode::Kind::Op, Name, {});
}

const SummaryNode *
SummaryContext::seq(llvm::ArrayRef<const SummaryNode *> Parts) {
  llvm::SmallVector<const SummaryNode *, 8> Flat;
  for (const SummaryNode *Part : Parts) {
    if (!Part || Part->isEmpty())
      continue;
    if (Part->getKind() == SummaryNode::Kind::Seq)
      Flat.append(Part->children().begin(), Part->children().end());
    else
      Flat.push_back(Part);
  }
  if (Flat.empty())
    return Empty;
  if (Flat.size() == 1)
    return Flat.front();
  return intern(SummaryNode::Kind::Seq, "", Flat);
}

const SummaryNode *
SummaryContext::choice(llvm::ArrayRef<const SummaryNode *> Alternatives) {
  llvm::SmallVector<const SummaryNode *, 8> Flat;
  for (const SummaryNode *Alt : Alternatives) {
    if (!Alt)
      continue;
    if (Alt->getKind() == SummaryNode::Kind::Choice)
      Flat.append(Alt->children().begin(), Alt->children().end());
    else
      Flat.push_back(Alt);
  }
  llvm::sort(Flat, [](const SummaryNode *A, const SummaryNode *B) {
    return A->getId() < B->getId();
  });
  Flat.erase(std::unique(Flat.begin(), Flat.end()), Flat.end());
  if (Flat.empty())
    return Empty;
  if (Flat.size() == 1)
    return Flat.front();
  return intern(SummaryNode::Kind::Choice, "", Flat);
}

llvm::SmallVector<const SummaryNode *, 8> topLevelParts(const SummaryNode *N) {
  llvm::SmallVector<const SummaryNode *, 8> Parts;
  if (!N || N->isEmpty())
    return Parts;
  if (N->getKind() == SummaryNode::Kind::Seq)
    Parts.append(N->children().begin(), N->children().end());
  else
    Parts.push_back(N);
  return Parts;
}

SummaryDifference firstDifference(const SummaryNode *Left,
                                  const SummaryNode *Right) {
  SummaryDifference Diff;
  if (Left == Right)
    return Diff;
  auto L = topLevelParts(Left);
  auto R = topLevelParts(Right);
  size_t Prefix = 0;
  while (Prefix < L.size() && Prefix < R.size() && L[Prefix] == R[Prefix])
    ++Prefix;
  Diff.Prefix = Prefix;
  Diff.Left = Prefix < L.size() ? L[Prefix] : nullptr;
  Diff.Right = Prefix < R.size() ? R[Prefix] : nullptr;
  return Diff;
}

} // namespace ddp
