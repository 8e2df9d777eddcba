//===--- CollectiveSummary.cpp - Sets of collective sequences -------------===//

#include "core/CollectiveSummary.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <algorithm>

namespace ddp {

void SummaryNode::profile(llvm::FoldingSetNodeID &ID, Kind K,
                          llvm::StringRef Op, unsigned Tag,
                          llvm::ArrayRef<const SummaryNode *> Kids) {
  ID.AddInteger(static_cast<unsigned>(K));
  ID.AddString(Op);
  ID.AddInteger(Tag);
  for (const SummaryNode *Kid : Kids)
    ID.AddPointer(Kid);
}

void SummaryNode::Profile(llvm::FoldingSetNodeID &ID) const {
  profile(ID, K, Op, Tag, Kids);
}

SummaryContext::SummaryContext() {
  Empty = intern(SummaryNode::Kind::Empty, "", 0, {});
}

SummaryContext::~SummaryContext() {
  for (SummaryNode *N : Owned)
    N->~SummaryNode();
}

const SummaryNode *
SummaryContext::intern(SummaryNode::Kind K, llvm::StringRef Op, unsigned Tag,
                       llvm::ArrayRef<const SummaryNode *> Kids) {
  llvm::FoldingSetNodeID ID;
  SummaryNode::profile(ID, K, Op, Tag, Kids);
  void *InsertPos = nullptr;
  if (SummaryNode *Existing = Nodes.FindNodeOrInsertPos(ID, InsertPos))
    return Existing;
  llvm::StringRef Stored = Op.empty() ? "" : Names.insert(Op).first->getKey();
  auto *N = new (Alloc.Allocate<SummaryNode>())
      SummaryNode(K, Stored, Tag, Kids, Owned.size());
  if (K == SummaryNode::Kind::Op) {
    N->First = Stored;
    N->Ops.push_back(Stored);
  }
  N->LoopsBack = K == SummaryNode::Kind::LoopBack;
  N->HasCalls = K == SummaryNode::Kind::Call;
  for (const SummaryNode *Kid : Kids) {
    N->LoopsBack |= Kid->LoopsBack;
    N->HasCalls |= Kid->HasCalls;
    if (N->First.empty())
      N->First = Kid->First;
    for (llvm::StringRef KidOp : Kid->Ops)
      if (!llvm::is_contained(N->Ops, KidOp))
        N->Ops.push_back(KidOp);
  }
  Owned.push_back(N);
  Nodes.InsertNode(N, InsertPos);
  return N;
}

const SummaryNode *SummaryContext::loopBack() {
  return intern(SummaryNode::Kind::LoopBack, "", 0, {});
}

const SummaryNode *SummaryContext::op(llvm::StringRef Name, unsigned Tag) {
  return intern(SummaryNode::Kind::Op, Name, Tag, {});
}

const SummaryNode *SummaryContext::call(llvm::StringRef Key, unsigned Tag) {
  return intern(SummaryNode::Kind::Call, Key, Tag, {});
}

const SummaryNode *
SummaryContext::seq(llvm::ArrayRef<const SummaryNode *> Parts) {
  llvm::SmallVector<const SummaryNode *, 8> Flat;
  for (const SummaryNode *Part : Parts) {
    // Parts that issue nothing and do not go back to a loop head add
    // nothing. (A loop-back does: the path goes on from the head.)
    if (!Part || Part->isInert())
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
  return intern(SummaryNode::Kind::Seq, "", 0, Flat);
}

const SummaryNode *
SummaryContext::choice(llvm::ArrayRef<const SummaryNode *> Alternatives) {
  llvm::SmallVector<const SummaryNode *, 8> Flat;
  for (const SummaryNode *Alt : Alternatives) {
    if (!Alt)
      continue;
    // A uniform decision stays whole: merging its alternatives with others
    // would lose that every rank takes the same one.
    if (Alt->getKind() == SummaryNode::Kind::Choice &&
        Alt->getDecision().empty())
      Flat.append(Alt->children().begin(), Alt->children().end());
    else
      Flat.push_back(Alt);
  }
  llvm::sort(Flat, [](const SummaryNode *A, const SummaryNode *B) {
    return A->getId() < B->getId();
  });
  Flat.erase(std::unique(Flat.begin(), Flat.end()), Flat.end());
  // A way around a loop that issues nothing comes back to the same choice:
  // it adds nothing to the other alternatives (`while (c) { log(); }`).
  if (Flat.size() > 1)
    Flat.erase(llvm::remove_if(Flat,
                               [](const SummaryNode *Alt) {
                                 return !Alt->mayIssueAny() &&
                                        !Alt->hasCalls() && Alt->loopsBack();
                               }),
               Flat.end());
  if (Flat.empty() || llvm::all_of(Flat, [](const SummaryNode *Alt) {
        return Alt->isInert();
      }))
    return Empty;
  if (Flat.size() == 1)
    return Flat.front();
  // Factor what every alternative starts or ends with:
  // (x·a | x·b) = x·(a | b) and (a·x | b·x) = (a | b)·x. Summaries built
  // path by path repeat the code after a join in every alternative; this
  // keeps them small and makes equal behaviour compare equal.
  llvm::SmallVector<llvm::SmallVector<const SummaryNode *, 8>, 4> Parts;
  for (const SummaryNode *Alt : Flat)
    Parts.push_back(topLevelParts(Alt));
  auto Shortest = llvm::min_element(Parts, [](const auto &A, const auto &B) {
    return A.size() < B.size();
  })->size();
  size_t Prefix = 0;
  while (Prefix < Shortest &&
         llvm::all_of(Parts, [&](const auto &P) {
           return P[Prefix] == Parts[0][Prefix];
         }))
    ++Prefix;
  size_t Suffix = 0;
  while (Suffix < Shortest - Prefix &&
         llvm::all_of(Parts, [&](const auto &P) {
           return P[P.size() - 1 - Suffix] ==
                  Parts[0][Parts[0].size() - 1 - Suffix];
         }))
    ++Suffix;
  if (Prefix == 0 && Suffix == 0)
    return intern(SummaryNode::Kind::Choice, "", 0, Flat);
  llvm::SmallVector<const SummaryNode *, 4> Middles;
  for (const auto &P : Parts)
    Middles.push_back(
        seq(llvm::ArrayRef<const SummaryNode *>(P).slice(
            Prefix, P.size() - Prefix - Suffix)));
  llvm::SmallVector<const SummaryNode *, 8> Result(Parts[0].begin(),
                                                   Parts[0].begin() + Prefix);
  Result.push_back(choice(Middles));
  Result.append(Parts[0].end() - Suffix, Parts[0].end());
  return seq(Result);
}

const SummaryNode *
SummaryContext::decision(llvm::StringRef Key,
                         llvm::ArrayRef<const SummaryNode *> Alternatives,
                         unsigned LoopBody) {
  llvm::SmallVector<const SummaryNode *, 4> Alts;
  for (const SummaryNode *Alt : Alternatives)
    if (Alt)
      Alts.push_back(Alt);
  if (Alts.size() != Alternatives.size() || Key.empty() ||
      LoopBody > Alts.size())
    return choice(Alts); // Not a complete decision: the set is all we know.
  if (llvm::all_equal(Alts))
    return Alts.front();
  if (llvm::all_of(Alts, [](const SummaryNode *A) { return A->isInert(); }))
    return Empty;
  // A loop each of whose iterations issues nothing before it comes back to
  // the test (`for (i = 0; i < n; ++i) fill(i);`) only ever leaves: it is
  // its exit, as for a plain choice. Applied again when the driver resolves
  // the body's calls.
  if (LoopBody != 0 && Alts.size() == 2 && Alts[LoopBody - 1] == loopBack())
    return Alts[2 - LoopBody];
  // A loop whose iterations issue nothing but what a test taken in exactly
  // one of them issues (`if (i == skip) barrier();`) issues that once.
  if (LoopBody != 0 && Alts.size() == 2)
    if (const SummaryNode *Once = onceOnly(Alts[LoopBody - 1]))
      return seq(Once, Alts[2 - LoopBody]);
  // What every alternative starts or ends with is issued whichever is taken.
  // Not for a loop's test: restricted to "runs", its alternatives become the
  // body followed by the exit (UniformDecisions.cpp), which a factored
  // prefix would break.
  if (LoopBody == 0) {
    llvm::SmallVector<llvm::SmallVector<const SummaryNode *, 8>, 4> Parts;
    for (const SummaryNode *Alt : Alts)
      Parts.push_back(topLevelParts(Alt));
    size_t Shortest = llvm::min_element(Parts, [](const auto &A, const auto &B) {
                        return A.size() < B.size();
                      })->size();
    size_t Prefix = 0;
    while (Prefix < Shortest && llvm::all_of(Parts, [&](const auto &P) {
             return P[Prefix] == Parts[0][Prefix];
           }))
      ++Prefix;
    size_t Suffix = 0;
    while (Suffix < Shortest - Prefix && llvm::all_of(Parts, [&](const auto &P) {
             return P[P.size() - 1 - Suffix] ==
                    Parts[0][Parts[0].size() - 1 - Suffix];
           }))
      ++Suffix;
    if (Prefix != 0 || Suffix != 0) {
      llvm::SmallVector<const SummaryNode *, 4> Middles;
      for (const auto &P : Parts)
        Middles.push_back(seq(llvm::ArrayRef<const SummaryNode *>(P).slice(
            Prefix, P.size() - Prefix - Suffix)));
      llvm::SmallVector<const SummaryNode *, 8> Result(
          Parts[0].begin(), Parts[0].begin() + Prefix);
      Result.push_back(decision(Key, Middles));
      Result.append(Parts[0].end() - Suffix, Parts[0].end());
      return seq(Result);
    }
  }
  return intern(SummaryNode::Kind::Choice, Key, LoopBody, Alts);
}

const SummaryNode *SummaryContext::onceOnly(const SummaryNode *Body) {
  llvm::SmallVector<const SummaryNode *, 8> Parts = topLevelParts(Body);
  if (Parts.empty() || Parts.back() != loopBack())
    return nullptr;
  const SummaryNode *Once = nullptr;
  for (const SummaryNode *Part : llvm::ArrayRef(Parts).drop_back()) {
    if (Part->isInert())
      continue;
    llvm::ArrayRef<const SummaryNode *> Kids = Part->children();
    if (Once || !Part->getDecision().contains(OnceMarker) || Kids.size() != 2 ||
        !Kids[1]->isInert() || Kids[0]->loopsBack())
      return nullptr;
    Once = Kids[0];
  }
  return Once;
}

const SummaryNode *SummaryContext::plain(const SummaryNode *N) {
  if (!N)
    return nullptr;
  if (N->getKind() != SummaryNode::Kind::Seq &&
      N->getKind() != SummaryNode::Kind::Choice)
    return N;
  auto It = Plain.find(N);
  if (It != Plain.end())
    return It->second;
  llvm::SmallVector<const SummaryNode *, 8> Kids;
  for (const SummaryNode *Kid : N->children())
    Kids.push_back(plain(Kid));
  const SummaryNode *Result =
      N->getKind() == SummaryNode::Kind::Seq ? seq(Kids) : choice(Kids);
  Plain[N] = Result;
  return Result;
}

const SummaryNode *SummaryContext::only(const SummaryNode *N,
                                        bool KeepBarriers) {
  if (!N)
    return nullptr;
  auto It = Filtered.find({N, unsigned(KeepBarriers)});
  if (It != Filtered.end())
    return It->second;
  const SummaryNode *Result = N;
  switch (N->getKind()) {
  case SummaryNode::Kind::Empty:
  case SummaryNode::Kind::LoopBack:
  case SummaryNode::Kind::Call:
    break;
  case SummaryNode::Kind::Op:
    if (isBarrier(N->getOp()) != KeepBarriers)
      Result = Empty;
    break;
  case SummaryNode::Kind::Seq:
  case SummaryNode::Kind::Choice: {
    llvm::SmallVector<const SummaryNode *, 8> Kids;
    for (const SummaryNode *Kid : N->children())
      Kids.push_back(only(Kid, KeepBarriers));
    Result = N->getKind() == SummaryNode::Kind::Seq ? seq(Kids)
             : N->getDecision().empty()
                 ? choice(Kids)
                 : decision(N->getDecision(), Kids, N->getLoopBody());
    break;
  }
  }
  Filtered[{N, unsigned(KeepBarriers)}] = Result;
  return Result;
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
