//===--- Linker.cpp - Phase 2: the whole program's collective order -------===//

#include "Linker.h"
#include "core/AnalysisContext.h"
#include "core/CollectiveSummary.h"
#include "core/UniformDecisions.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/xxhash.h"
#include <fmt/format.h>
#include <set>

namespace ddp::driver {
namespace {

/// Resolved calls nest at most this deep in a rendered side.
constexpr unsigned MaxRenderDepth = 8;
/// Elements rendered per side. Summaries are DAGs, shared between callers;
/// expanding calls through helpers that call helpers turns them into trees,
/// exponential in the depth (a large MPI code's helpers made gigabytes of
/// text). Past this many, a side ends in "...".
constexpr size_t MaxRenderedItems = 200;
/// A side that reads longer than this is shown as the collectives it can
/// issue (a helper that dispatches through virtual calls and tests of its
/// own read as thousands of characters of nested choices).
constexpr size_t MaxSideChars = 320;
/// Collectives named in such a digest; the rest are counted.
constexpr size_t MaxDigestOps = 4;

/// A function's body as phase 1 recorded it.
struct FunctionRef {
  unsigned TU = 0;
  const FunctionRecord *Record = nullptr;
};

/// True if \p TU defines `main`: it is the root of a program of its own.
bool definesMain(const TUSummary &TU) {
  return llvm::any_of(TU.Defines, [](llvm::StringRef Key) {
    return Key == "c:@F@main" || Key.starts_with("c:@F@main#");
  });
}

/// One element of a side, flattened through resolved calls. An item without
/// a summary (Erased null) stands for the elements left out past
/// MaxRenderedItems.
struct Item {
  const SummaryNode *Erased = nullptr;
  unsigned TU = 0;
  unsigned Node = 0;
  /// The helpers the element is reached through, outermost first.
  std::vector<std::string> Via;
  /// Where the element is in the branch's own function (the outermost call).
  Location Origin;
};

class Linker {
public:
  Linker(const std::vector<TUSummary> &TUs, const LocationPrinter &Show)
      : TUs(TUs), Show(Show) {
    for (unsigned I = 0; I < TUs.size(); ++I) {
      for (const std::string &Name : TUs[I].Barriers)
        SC.markBarrier(SC.name(Name));
      HasMain.push_back(definesMain(TUs[I]));
      for (const FunctionRecord &F : TUs[I].Functions) {
        Functions[F.Key].push_back(FunctionRef{I, &F});
        Local.try_emplace(localKey(I, F.Key), FunctionRef{I, &F});
      }
      for (const std::string &Key : TUs[I].Defines)
        Defined.insert(Key);
      for (const OverrideRecord &O : TUs[I].Overrides) {
        int Only = O.Confined ? int(I) : -1;
        for (const std::string &Base : O.Overrides)
          if (SeenOverrides.insert(fmt::format("{} {} {}", Base, O.Key, Only))
                  .second)
            Overriders[Base].push_back({O.Key, Only});
      }
      for (const SkippedRecord &S : TUs[I].Skipped)
        if (!S.Reason.empty() && !S.Key.empty())
          Broken.insert(S.Key);
    }
  }

  /// Summaries of every function, to a fixed point (recursion unrolls once
  /// per round, as in a single TU).
  void resolveAll() {
    for (unsigned Round = 0; Round < 4; ++Round) {
      Done.clear();
      Memo.clear();
      llvm::StringMap<const SummaryNode *> ThisRound;
      for (const auto &Entry : Local)
        ThisRound[Entry.getKey()] = resolve(Entry.second);
      bool Same = ThisRound.size() == Previous.size() &&
                  llvm::all_of(ThisRound, [&](const auto &E) {
                    return Previous.lookup(E.getKey()) == E.getValue();
                  });
      Previous = std::move(ThisRound);
      if (Same)
        break;
    }
    // From here on a call stands for its callee's final summary.
    Final = true;
    Memo.clear();
  }

  std::vector<Diagnostic> compare() {
    std::vector<Diagnostic> Out;
    std::set<std::pair<std::string, std::string>> Seen;
    // Decided branches first: phase 1 chose the innermost condition for
    // them. A deferred branch whose difference is already reported at the
    // same collective is the same cause seen from an outer condition.
    for (bool Decided : {true, false})
      for (unsigned I = 0; I < TUs.size(); ++I)
        for (const BranchRecord &B : TUs[I].Branches)
          if (B.Decided == Decided)
            if (auto D = diagnose(I, B))
              if (Seen.insert({key(D->At), D->Rule}).second &&
                  ReportedSites.insert(key(D->Site)).second)
                Out.push_back(std::move(*D));
    return Out;
  }

private:
  static std::string key(const Location &L) {
    return fmt::format("{}:{}:{}", L.File, L.Line, L.Column);
  }

  static std::string localKey(unsigned TU, llvm::StringRef Key) {
    return std::to_string(TU) + ":" + Key.str();
  }

  /// The body \p Key names, seen from TU \p From: its own definition if it
  /// has one (a compile database can hold several programs, each with its
  /// own `main` and helpers of the same name), else the first of a TU it
  /// can be linked with (not another program's `main` file).
  const FunctionRef *lookup(unsigned From, llvm::StringRef Key) const {
    auto Own = Local.find(localKey(From, Key));
    if (Own != Local.end())
      return &Own->second;
    auto Any = Functions.find(Key);
    if (Any == Functions.end())
      return nullptr;
    for (const FunctionRef &Fn : Any->second)
      if (!(HasMain[From] && HasMain[Fn.TU]))
        return &Fn;
    return nullptr;
  }

  const SummaryNode *resolve(unsigned From, llvm::StringRef Key) {
    if (Key.consume_front(AnalysisContext::DispatchPrefix)) {
      // A virtual call: one of the bodies it can run.
      llvm::SmallVector<const SummaryNode *, 4> Alternatives;
      for (llvm::StringRef Target : dispatchTargets(From, Key))
        Alternatives.push_back(resolve(From, Target));
      return SC.choice(Alternatives);
    }
    const FunctionRef *Fn = lookup(From, Key);
    if (Fn)
      return resolve(*Fn);
    // A body that did not compile (in every TU that has it) may issue
    // anything; no body anywhere: a library, or unresolved.
    return Broken.contains(Key) ? SC.op(UnknownOp) : SC.empty();
  }

  /// The functions a virtual call of \p Method in TU \p From can run: its
  /// own body if a TU defines it (a pure method's never runs by dispatch,
  /// and has none) and every override's but those of classes confined to
  /// another TU.
  std::vector<llvm::StringRef> dispatchTargets(unsigned From,
                                               llvm::StringRef Method) const {
    std::vector<llvm::StringRef> Targets;
    if (Defined.contains(Method))
      Targets.push_back(Method);
    auto It = Overriders.find(Method);
    if (It != Overriders.end())
      for (const Override &O : It->second)
        if ((O.OnlyTU < 0 || unsigned(O.OnlyTU) == From) &&
            !llvm::is_contained(Targets, O.Key))
          Targets.push_back(O.Key);
    return Targets;
  }

  /// The bodies a call can run that issue collectives, and whether it can
  /// also run one that issues none.
  struct Bodies {
    std::vector<const FunctionRef *> Communicating;
    bool Silent = false;
  };
  Bodies bodiesOf(unsigned From, llvm::StringRef Key) {
    Bodies Out;
    if (!Key.consume_front(AnalysisContext::DispatchPrefix)) {
      if (const FunctionRef *Fn = lookup(From, Key))
        Out.Communicating.push_back(Fn);
      return Out;
    }
    for (llvm::StringRef Target : dispatchTargets(From, Key)) {
      const FunctionRef *Fn = lookup(From, Target);
      if (Fn && resolve(*Fn)->mayIssueAny())
        Out.Communicating.push_back(Fn);
      else
        Out.Silent = true;
    }
    return Out;
  }

  const SummaryNode *resolve(const FunctionRef &Fn) {
    std::string Id = localKey(Fn.TU, Fn.Record->Key);
    auto It = Done.find(Id);
    if (It != Done.end())
      return It->second;
    if (Final)
      return Previous.lookup(Id);
    if (!InProgress.insert(Id).second) {
      const SummaryNode *Prev = Previous.lookup(Id);
      return Prev ? Prev : SC.empty();
    }
    const SummaryNode *N = erase(Fn.TU, Fn.Record->Summary);
    InProgress.erase(Id);
    Done[Id] = N;
    return N;
  }

  /// The located node \p Node of TU \p T, with locations dropped and calls
  /// replaced by the callees' summaries.
  const SummaryNode *erase(unsigned T, unsigned Node) {
    auto It = Memo.find({T, Node});
    if (It != Memo.end())
      return It->second;
    const NodeRecord &R = TUs[T].Nodes[Node];
    const SummaryNode *N = SC.empty();
    llvm::SmallVector<const SummaryNode *, 8> Kids;
    for (unsigned Kid : R.Kids)
      Kids.push_back(erase(T, Kid));
    switch (R.K) {
    case NodeRecord::Kind::Empty:
      break;
    case NodeRecord::Kind::Op:
      N = SC.op(R.Name);
      break;
    case NodeRecord::Kind::LoopBack:
      N = SC.loopBack();
      break;
    case NodeRecord::Kind::Seq:
      N = SC.seq(Kids);
      break;
    case NodeRecord::Kind::Choice:
      N = R.Name.empty() ? SC.choice(Kids)
                         : SC.decision(SC.name(R.Name), Kids, R.LoopBody);
      break;
    case NodeRecord::Kind::Call:
      N = resolve(T, R.Name);
      break;
    }
    Memo[{T, Node}] = N;
    return N;
  }

  void flatten(unsigned T, unsigned Node, std::vector<std::string> &Via,
               const Location &Origin, unsigned Depth,
               std::vector<Item> &Out) {
    if (RenderLeft == 0) {
      if (Out.empty() || Out.back().Erased)
        Out.push_back(Item{});
      return;
    }
    const NodeRecord &R = TUs[T].Nodes[Node];
    const Location &Here = Via.empty() ? R.At : Origin;
    switch (R.K) {
    case NodeRecord::Kind::Empty:
      return;
    case NodeRecord::Kind::Seq:
      for (unsigned Kid : R.Kids)
        flatten(T, Kid, Via, Origin, Depth, Out);
      return;
    case NodeRecord::Kind::Call: {
      // A call whose bodies issue no collective adds nothing to the side,
      // however it loops or recurses (a logger that reads the environment
      // through a function that logs filled a side with "env again").
      const SummaryNode *E = resolve(T, R.Name);
      if (!E->mayIssueAny())
        return;
      // Expanded in place when only one body can run; a virtual call with
      // several becomes a choice between them.
      Bodies Can = bodiesOf(T, R.Name);
      const FunctionRef *Fn = Can.Communicating.size() == 1 && !Can.Silent
                                  ? Can.Communicating[0]
                                  : nullptr;
      if (Fn && Depth < MaxRenderDepth &&
          llvm::count(Via, Fn->Record->Name) == 0) {
        --RenderLeft;
        Via.push_back(Fn->Record->Name);
        flatten(Fn->TU, Fn->Record->Summary, Via, Here, Depth + 1, Out);
        Via.pop_back();
        return;
      }
      --RenderLeft;
      Out.push_back({E, T, Node, Via, Here});
      return;
    }
    default:
      break;
    }
    const SummaryNode *E = erase(T, Node);
    if (!E->isInert()) {
      --RenderLeft;
      Out.push_back({E, T, Node, Via, Here});
    }
  }

  std::string render(const Item &I, bool WithLocations) {
    if (!I.Erased)
      return "...";
    const NodeRecord &R = TUs[I.TU].Nodes[I.Node];
    std::string Via;
    if (!I.Via.empty())
      Via = ", via " + llvm::join(I.Via, " > ");
    switch (R.K) {
    case NodeRecord::Kind::Op:
      if (!WithLocations)
        return R.Name + (I.Via.empty() ? "" : " via " + llvm::join(I.Via, " > "));
      if (Issued) {
        std::string Op = fmt::format("{} ({})", R.Name, Show(R.At));
        if (!llvm::is_contained(*Issued, Op))
          Issued->push_back(std::move(Op));
      }
      return fmt::format("{} ({}{})", R.Name, Show(R.At), Via);
    case NodeRecord::Kind::LoopBack:
      return "back to the loop head";
    case NodeRecord::Kind::Choice: {
      std::vector<std::string> Alternatives;
      alternativesOf(I, WithLocations, Alternatives);
      return oneOf(std::move(Alternatives));
    }
    case NodeRecord::Kind::Call: {
      Bodies Can = bodiesOf(I.TU, R.Name);
      if (Can.Communicating.size() != 1 || Can.Silent) {
        // A virtual call that can run several bodies.
        std::vector<std::string> Alternatives;
        for (const FunctionRef *Fn : Can.Communicating) {
          if (RenderLeft == 0) {
            Alternatives.push_back("...");
            break;
          }
          std::vector<Item> Items;
          std::vector<std::string> V = I.Via;
          if (V.size() < MaxRenderDepth &&
              llvm::count(V, Fn->Record->Name) == 0) {
            V.push_back(Fn->Record->Name);
            flatten(Fn->TU, Fn->Record->Summary, V, I.Origin, V.size(), Items);
            Alternatives.push_back(renderAll(Items, WithLocations));
          } else {
            Alternatives.push_back(
                WithLocations
                    ? fmt::format("{} again ({})", Fn->Record->Name, Show(R.At))
                    : Fn->Record->Name + " again");
          }
        }
        if (Can.Silent)
          Alternatives.push_back("nothing");
        return oneOf(std::move(Alternatives));
      }
      // A call not expanded: recursion, or too deep. Only calls with a body
      // that communicates are kept, so the body is known; its key is never
      // shown.
      std::string Name = Can.Communicating[0]->Record->Name;
      if (!WithLocations)
        return Name + " again";
      return fmt::format("{} again ({}{})", Name, Show(R.At), Via);
    }
    default:
      return "";
    }
  }

  /// The alternatives of the choice \p I, with those of the choices among
  /// them spliced in (a choice between choices is one choice), except a
  /// choice made by a test that every rank makes alike, which stays one
  /// alternative.
  void alternativesOf(const Item &I, bool WithLocations,
                      std::vector<std::string> &Out) {
    for (unsigned Kid : TUs[I.TU].Nodes[I.Node].Kids) {
      if (RenderLeft == 0) {
        Out.push_back("...");
        return;
      }
      std::vector<Item> Items;
      std::vector<std::string> V = I.Via;
      flatten(I.TU, Kid, V, I.Origin, I.Via.size(), Items);
      if (Items.size() == 1 && Items[0].Erased) {
        const NodeRecord &Inner = TUs[Items[0].TU].Nodes[Items[0].Node];
        if (Inner.K == NodeRecord::Kind::Choice && Inner.Name.empty()) {
          alternativesOf(Items[0], WithLocations, Out);
          continue;
        }
      }
      Out.push_back(renderAll(Items, WithLocations));
    }
  }

  std::string renderAll(const std::vector<Item> &Items, bool WithLocations) {
    std::vector<std::string> Parts;
    for (const Item &I : Items)
      if (std::string Part = render(I, WithLocations); Part != "nothing")
        Parts.push_back(std::move(Part));
    return Parts.empty() ? "nothing" : llvm::join(Parts, " -> ");
  }

  /// A choice as shown: alternatives that read the same are shown once, and
  /// a choice left with one is that one (`one of {nothing | nothing}` is
  /// `nothing`).
  static std::string oneOf(std::vector<std::string> Alternatives) {
    std::vector<std::string> Distinct;
    for (std::string &A : Alternatives)
      if (!llvm::is_contained(Distinct, A))
        Distinct.push_back(std::move(A));
    if (Distinct.size() == 1)
      return Distinct.front();
    return "one of {" + llvm::join(Distinct, " | ") + "}";
  }

  /// A side as shown: \p Items rendered, or, when that is too long to
  /// read, the distinct collectives it can issue.
  std::string renderSide(const std::vector<Item> &Items) {
    std::vector<std::string> Ops;
    Issued = &Ops;
    RenderLeft = MaxRenderedItems;
    std::string Whole = renderAll(Items, true);
    Issued = nullptr;
    llvm::StringRef Text = Whole;
    bool Choice = Text.contains("one of {");
    // One element reads whole: its length is the calls it is made through.
    if (Text.size() <= MaxSideChars || Ops.empty() ||
        (!Choice && !Text.contains(" -> ")))
      return Whole;
    std::string Shape = Choice ? "one of many sequences of"
                               : fmt::format("a sequence of {} elements with",
                                             Text.count(" -> ") + 1);
    size_t Shown = std::min(Ops.size(), MaxDigestOps);
    std::string Out =
        fmt::format("{} {}", Shape,
                    llvm::join(llvm::ArrayRef(Ops).take_front(Shown), ", "));
    if (Ops.size() > Shown)
      Out += fmt::format(" and {} other collective{}", Ops.size() - Shown,
                         Ops.size() - Shown == 1 ? "" : "s");
    return Out;
  }

  static std::string label(const BranchRecord &B, unsigned Successor) {
    if (B.Shape == "loop")
      return Successor == 0 ? "in the loop" : "after it";
    if (B.Shape == "switch")
      return fmt::format("case {}", Successor + 1);
    if (B.Shape == "handler")
      return Successor == 0 ? "when it throws" : "otherwise";
    return Successor == 0 ? "when true" : "when false";
  }

  std::optional<Diagnostic> diagnose(unsigned T, const BranchRecord &B) {
    if (B.Sides.size() < 2)
      return std::nullopt;
    std::vector<const SummaryNode *> Erased;
    for (const BranchRecord::Side &Side : B.Sides)
      Erased.push_back(erase(T, Side.Summary));
    // A side that calls code that did not compile may issue anything.
    if (llvm::any_of(Erased,
                     [](const SummaryNode *N) { return N->mayIssueUnknown(); }))
      return std::nullopt;
    std::vector<std::vector<Item>> Items(B.Sides.size());
    for (unsigned I = 0; I < B.Sides.size(); ++I) {
      std::vector<std::string> Via;
      RenderLeft = MaxRenderedItems;
      flatten(T, B.Sides[I].Summary, Via, Location(), 0, Items[I]);
    }
    // As sets of sequences first; where those are equal, for each outcome
    // of a test every rank makes alike (core/UniformDecisions.h).
    std::vector<const SummaryNode *> Sets;
    for (const SummaryNode *N : Erased)
      Sets.push_back(SC.plain(N));
    unsigned Other = 1;
    while (Other < Sets.size() && Sets[Other] == Sets[0])
      ++Other;
    std::optional<Note> Uniform;
    if (B.Decided && B.Uniform.At.valid())
      Uniform = Note{B.Uniform.At, B.Uniform.Message};
    if (Other == Sets.size() && !B.Decided) {
      std::optional<DecisionSplit> Split =
          splitOnDecision(SC, Erased, [](uint64_t) { return true; });
      if (!Split)
        return std::nullopt; // Every side issues the same: balanced.
      if (const DecisionRecord *Test = decision(Split->Key))
        if (Split->Alternative < Test->Values.size())
          Uniform = Note{Test->At,
                         explainOutcome(Test->Text,
                                        Test->Values[Split->Alternative])};
    }
    // Calls that resolve to no collective (constructors, destructors and
    // helpers that do not communicate in any TU) are not collectives: sides
    // that differ only in them, or in how they loop, issue the same nothing.
    if (llvm::none_of(Erased,
                      [](const SummaryNode *N) { return N->mayIssueAny(); }))
      return std::nullopt;
    if (Other == Sets.size())
      Other = 1;

    // The first element where the two sides differ.
    const auto &L = Items[0], &R = Items[Other];
    size_t Prefix = 0;
    while (Prefix < L.size() && Prefix < R.size() && L[Prefix].Erased &&
           L[Prefix].Erased == R[Prefix].Erased)
      ++Prefix;
    const Item *First = Prefix < L.size()   ? &L[Prefix]
                        : Prefix < R.size() ? &R[Prefix]
                                            : nullptr;
    if (First && !First->Erased)
      First = Prefix < R.size() && R[Prefix].Erased ? &R[Prefix] : nullptr;
    std::string Op = B.Decided ? B.Op
                     : First   ? First->Erased->firstOp().str()
                               : std::string();

    Diagnostic D;
    bool Loop = B.Shape == "loop";
    D.Rule = Loop ? "ddp-rank-dependent-loop" : "ddp-collective-order";
    bool Barrier = B.Decided ? B.IsBarrier : SC.isBarrier(Op);
    D.Check = Barrier ? "ddp-rank-gated-barrier" : "ddp-collective-in-rank-branch";
    D.Message = Loop ? fmt::format("the number of '{}' calls depends on the "
                                   "rank",
                                   Op)
                     : "ranks can issue different collective sequences";
    D.At = B.Condition;
    D.Site = B.Decided ? B.Site : First ? First->Origin : B.Condition;
    if (!D.Site.valid())
      D.Site = B.Condition;
    D.Function = B.Function;
    // The checks' notes end in "here", pointing at their own location; a
    // report that prints the location says "at" instead.
    for (const Step &S : B.Why) {
      llvm::StringRef Message = S.Message;
      Message.consume_back(" here");
      D.Why.push_back({S.At, Message.str()});
    }
    std::string Plain = D.Rule + "|" + B.Function + "|" + B.ConditionText;
    for (unsigned I = 0; I < B.Sides.size(); ++I) {
      D.Sides.push_back({label(B, B.Sides[I].Successor), renderSide(Items[I])});
      RenderLeft = MaxRenderedItems;
      Plain += "|" + renderAll(Items[I], false);
      for (const Item &It : Items[I])
        if (It.Erased && TUs[It.TU].Nodes[It.Node].At.valid())
          D.Related.push_back(
              {TUs[It.TU].Nodes[It.Node].At,
               fmt::format("'{}' is issued {}", It.Erased->firstOp().str(),
                           D.Sides.back().Label)});
    }
    D.Uniform = Uniform;
    if (B.ByNameAt.valid())
      D.ByName = Note{B.ByNameAt, B.ByNameNote};
    if (B.EarlyExit.valid())
      D.EarlyExit = Note{B.EarlyExit,
                         fmt::format("ranks leave here ({}) and never reach "
                                     "'{}'",
                                     B.EarlyExitKind, Op)};
    // The file's name, not its path: a baseline made in one checkout holds
    // in another.
    llvm::StringRef File = llvm::StringRef(B.Condition.File).rsplit('/').second;
    if (File.empty())
      File = B.Condition.File;
    Plain += "|" + File.str();
    D.Fingerprint = fmt::format("{:016x}", llvm::xxh3_64bits(Plain));
    return D;
  }

  /// What the decision \p Key tests, from the TU that recorded it.
  const DecisionRecord *decision(llvm::StringRef Key) const {
    for (const TUSummary &TU : TUs)
      for (const DecisionRecord &D : TU.Decisions)
        if (D.Key == Key)
          return &D;
    return nullptr;
  }

  const std::vector<TUSummary> &TUs;
  const LocationPrinter &Show;
  SummaryContext SC;
  /// Bodies by USR (the first TU's), and by TU and USR.
  /// Every definition of each function, in TU order; each TU's own.
  llvm::StringMap<std::vector<FunctionRef>> Functions;
  llvm::StringMap<FunctionRef> Local;
  /// Which TUs define `main`.
  std::vector<bool> HasMain;
  /// Every function with a body in some TU, and the overrides of each
  /// virtual method.
  llvm::StringSet<> Defined, SeenOverrides;
  /// An override, and the one TU whose calls can run it if it is confined.
  struct Override {
    std::string Key;
    int OnlyTU = -1;
  };
  llvm::StringMap<std::vector<Override>> Overriders;
  /// Functions whose bodies did not compile, by USR.
  llvm::StringSet<> Broken;
  llvm::StringMap<const SummaryNode *> Done, Previous;
  llvm::StringSet<> InProgress;
  llvm::DenseMap<std::pair<unsigned, unsigned>, const SummaryNode *> Memo;
  /// Elements the side being flattened or rendered may still take.
  size_t RenderLeft = MaxRenderedItems;
  /// Where rendering lists the collectives it shows, once each (renderSide).
  std::vector<std::string> *Issued = nullptr;
  llvm::StringSet<> ReportedSites;
  bool Final = false;
};

} // namespace

std::vector<Diagnostic> link(const std::vector<TUSummary> &TUs,
                             const LocationPrinter &Show) {
  Linker L(TUs, Show);
  L.resolveAll();
  return L.compare();
}

/// \p A joined with \p B: divergent if either is, else conditional on the
/// inputs of both; synchronised only if both are (see core/Dependence.h).
static DepRecord joinRecords(const DepRecord &A, const DepRecord &B) {
  if (A.Synced)
    return B;
  if (B.Synced)
    return A;
  // A container's length depends on the rank if either says so.
  auto Any = [](const DepRecord &D) {
    return D.Divergent || D.Params || D.EnvKeys;
  };
  bool ElementsOnly =
      (A.ElementsOnly || !Any(A)) && (B.ElementsOnly || !Any(B));
  DepRecord R =
      A.Divergent || (!B.Divergent && (A.Params || A.EnvKeys)) ? A : B;
  if (!R.Divergent) {
    R.Params = A.Params | B.Params;
    R.EnvKeys = A.EnvKeys | B.EnvKeys;
  }
  R.ElementsOnly = ElementsOnly && Any(R);
  return R;
}

/// The overrides of the pure methods \p Methods (called, defined nowhere),
/// as a call in \p From can run them, with what \p All knows of them: which
/// have bodies, and their summaries.
struct DispatchIndex {
  llvm::StringMap<std::vector<std::string>> Overriders;
  llvm::StringSet<> Defined;
  llvm::StringMap<const FactRecord *> Summaries;

  DispatchIndex(const llvm::StringSet<> &Methods, size_t FromIndex,
                const std::vector<TUSummary> &All, const ExportIndex &Exports) {
    const TUSummary &From = All[FromIndex];
    // Not the overrides of another program (a TU with a `main` of its own,
    // when this one has one): the link never runs them from here.
    auto Linkable = [&](size_t I) {
      return !(Exports.HasMain[FromIndex] && Exports.HasMain[I] &&
               I != FromIndex);
    };
    llvm::StringSet<> Wanted;
    for (size_t I = 0; I < All.size(); ++I) {
      const TUSummary &TU = All[I];
      if (!Linkable(I))
        continue;
      for (const OverrideRecord &O : TU.Overrides)
        for (const std::string &Base : O.Overrides)
          if (Methods.contains(Base) &&
              (!O.Confined || TU.MainFile == From.MainFile)) {
            auto &List = Overriders[Base];
            if (!llvm::is_contained(List, O.Key))
              List.push_back(O.Key);
            Wanted.insert(O.Key);
            Wanted.insert(Base);
          }
    }
    if (Wanted.empty())
      return;
    for (size_t I = 0; I < All.size(); ++I) {
      const TUSummary &TU = All[I];
      if (!TU.Error.empty() || !Linkable(I))
        continue;
      for (const std::string &K : TU.Defines)
        if (Wanted.contains(K))
          Defined.insert(K);
      for (const FactRecord &F : TU.Exports)
        if (F.K == FactRecord::Kind::Summary && Wanted.contains(F.Key))
          Summaries.try_emplace(F.Key, &F);
    }
  }

  /// The summary of a virtual call of \p Method: a parameter is
  /// synchronised only if every override synchronises it, and one that an
  /// override leaves alone keeps what the caller passed. None if it has no
  /// overrides, a body of its own, or an override whose body no TU has.
  std::optional<FactRecord> summary(llvm::StringRef Method) const {
    auto It = Overriders.find(Method);
    if (It == Overriders.end() || Defined.contains(Method))
      return std::nullopt;
    std::vector<DepSummaryRecord> Each;
    for (const std::string &O : It->second) {
      if (!Defined.contains(O))
        return std::nullopt;
      const FactRecord *F = Summaries.lookup(O);
      Each.push_back(F ? F->Summary : DepSummaryRecord());
    }
    std::vector<unsigned> Written;
    for (const DepSummaryRecord &S : Each)
      for (const auto &Entry : S.Writes)
        if (!llvm::is_contained(Written, Entry.first))
          Written.push_back(Entry.first);
    llvm::sort(Written);
    FactRecord Out;
    Out.K = FactRecord::Kind::Summary;
    Out.Key = Method.str();
    for (size_t I = 0; I < Each.size(); ++I) {
      DepSummaryRecord Own;
      Own.Return = Each[I].Return;
      for (unsigned Index : Written) {
        DepRecord Kept;
        Kept.Params = inputBit(Index);
        Kept.Root = int(Index);
        for (const auto &[J, D] : Each[I].Writes)
          if (J == Index)
            Kept = D;
        Own.Writes.push_back({Index, Kept});
      }
      if (I == 0) {
        Out.Summary = std::move(Own);
        continue;
      }
      Out.Summary.Return = joinRecords(Out.Summary.Return, Own.Return);
      for (size_t W = 0; W < Written.size(); ++W)
        Out.Summary.Writes[W].second =
            joinRecords(Out.Summary.Writes[W].second, Own.Writes[W].second);
    }
    return Out;
  }
};

ExportIndex::ExportIndex(const std::vector<TUSummary> &All) {
  for (unsigned I = 0; I < All.size(); ++I) {
    const TUSummary &TU = All[I];
    HasMain.push_back(definesMain(TU));
    for (const std::string &K : TU.Defines) {
      auto &List = DefinedIn[K];
      if (List.empty() || List.back() != I)
        List.push_back(I);
    }
    for (const FactRecord &F : TU.Exports) {
      if (F.K != FactRecord::Kind::Summary) {
        Passed[F.Key].push_back({I, &F});
        continue;
      }
      auto &List = Summaries[F.Key];
      if (!List.empty() && List.back().TU == I)
        List.back().Fact = &F;
      else
        List.push_back({I, &F});
    }
  }
}

bool ExportIndex::defines(unsigned TU, llvm::StringRef Key) const {
  auto It = DefinedIn.find(Key);
  return It != DefinedIn.end() && llvm::is_contained(It->second, TU);
}

std::vector<FactRecord> importsFor(size_t Index,
                                   const std::vector<TUSummary> &All,
                                   const ExportIndex &Exports) {
  const TUSummary &TU = All[Index];
  llvm::StringSet<> Defines, Calls;
  for (const std::string &K : TU.Defines)
    Defines.insert(K);
  for (const std::string &K : TU.Calls)
    if (!Defines.contains(K))
      Calls.insert(K);
  std::vector<FactRecord> Out;
  llvm::StringSet<> Ids;
  auto Add = [&](const FactRecord &F) {
    if (Ids.insert(F.id()).second)
      Out.push_back(F);
  };
  // The parameters of this TU's functions that calls in other TUs pass
  // rank-dependent arguments or rank variables' names.
  // (Only calls that link to this TU's definition: not from another
  // program's `main` file, nor from a TU with a definition of its own.)
  // Of facts with one id, the first in All's order is kept.
  const bool TUDefinesMain = Exports.HasMain[Index];
  std::vector<std::pair<unsigned, const FactRecord *>> Passed;
  for (const auto &Entry : Defines) {
    auto It = Exports.Passed.find(Entry.getKey());
    if (It == Exports.Passed.end())
      continue;
    for (const ExportIndex::Export &E : It->second)
      if (E.TU != Index && !(TUDefinesMain && Exports.HasMain[E.TU]) &&
          !Exports.defines(E.TU, E.Fact->Key))
        Passed.push_back({E.TU, E.Fact});
  }
  llvm::sort(Passed, [](const auto &A, const auto &B) {
    return A.first != B.first ? A.first < B.first : A.second < B.second;
  });
  for (const auto &[Other, F] : Passed)
    Add(*F);
  // The summaries of the functions it calls elsewhere, from the first TU
  // that defines each (as the link resolves the calls). A function defined
  // there without a summary returns and writes nothing rank-dependent: that
  // is worth importing only to correct a guess this TU made without it (and
  // stays imported, since the guess is no longer made with it).
  llvm::StringSet<> Guessed;
  for (const std::string &K : TU.AssumedReturns)
    Guessed.insert(K);
  for (llvm::StringRef Id : TU.Imports)
    if (Id.consume_front("s:"))
      Guessed.insert(Id.rsplit(':').first);
  llvm::StringSet<> Found;
  for (const auto &Entry : Calls) {
    llvm::StringRef K = Entry.getKey();
    auto Definers = Exports.DefinedIn.find(K);
    if (Definers == Exports.DefinedIn.end())
      continue;
    for (unsigned Other : Definers->second) {
      if (Other == Index || !All[Other].Error.empty() ||
          (TUDefinesMain && Exports.HasMain[Other]))
        continue;
      Found.insert(K);
      const FactRecord *F = nullptr;
      if (auto S = Exports.Summaries.find(K); S != Exports.Summaries.end())
        for (const ExportIndex::Export &E : S->second)
          if (E.TU == Other)
            F = E.Fact;
      if (F) {
        Add(*F);
      } else if (Guessed.contains(K)) {
        FactRecord Empty;
        Empty.K = FactRecord::Kind::Summary;
        Empty.Key = K.str();
        Add(Empty);
      }
      break;
    }
  }
  // A virtual method no TU defines (a pure one) runs one of its overrides:
  // its summary is theirs, joined (see DispatchIndex).
  llvm::StringSet<> Unfound;
  for (const auto &Entry : Calls)
    if (!Found.contains(Entry.getKey()))
      Unfound.insert(Entry.getKey());
  if (!Unfound.empty()) {
    DispatchIndex Dispatch(Unfound, Index, All, Exports);
    for (const auto &Entry : Dispatch.Overriders)
      if (std::optional<FactRecord> F = Dispatch.summary(Entry.getKey()))
        Add(*F);
  }
  llvm::sort(Out, [](const FactRecord &A, const FactRecord &B) {
    return A.id() < B.id();
  });
  return Out;
}

} // namespace ddp::driver
