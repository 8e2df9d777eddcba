//===--- SummaryFile.cpp - Reading and writing per-TU summaries -----------===//

#include "SummaryFile.h"
#include "InputNesting.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

namespace json = llvm::json;

namespace ddp::driver {

static json::Value toJSON(const DepSummaryRecord &S);

std::string FactRecord::id() const {
  switch (K) {
  case Kind::Argument:
    return (ElementsOnly ? "q:" : "p:") + Key + ":" + std::to_string(Index);
  case Kind::EnvName:
    return "e:" + Key + ":" + std::to_string(Index);
  case Kind::Summary:
    break;
  }
  // A summary whose dependences change is another fact: the importer is
  // analysed again. Its explanations are left out: a longer or shorter
  // chain to the same rank source changes nothing the importer decides, and
  // the explanation it was analysed with stays true.
  DepSummaryRecord Bare = Summary;
  Bare.Return.Why.clear();
  for (auto &[Index, D] : Bare.Writes)
    D.Why.clear();
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << toJSON(Bare);
  return "s:" + Key + ":" + llvm::utohexstr(llvm::xxh3_64bits(Text));
}

/// The links a step stands for: N for "... N more steps ...", else 1.
static unsigned linksIn(const Step &S) {
  llvm::StringRef Text(S.Message);
  unsigned N = 0;
  if (!S.At.valid() && Text.consume_front("... ") &&
      (Text.consume_back(" more steps ...") ||
       Text.consume_back(" more step ...")) &&
      !Text.getAsInteger(10, N))
    return N;
  return 1;
}

std::vector<Step> shortenChain(std::vector<Step> Chain) {
  constexpr size_t Head = MaxChainSteps - 3, Tail = 2;
  if (Chain.size() <= MaxChainSteps)
    return Chain;
  unsigned Left = 0;
  for (size_t I = Head; I < Chain.size() - Tail; ++I)
    Left += linksIn(Chain[I]);
  std::vector<Step> Out(Chain.begin(), Chain.begin() + Head);
  Out.push_back(
      {Location(), "... " + std::to_string(Left) +
                       (Left == 1 ? " more step ..." : " more steps ...")});
  Out.insert(Out.end(), Chain.end() - Tail, Chain.end());
  return Out;
}

static json::Value toJSON(const Location &L) {
  if (!L.valid())
    return nullptr;
  return json::Array{L.File, L.Line, L.Column};
}

static json::Value toJSON(const Step &S) {
  return json::Object{{"at", toJSON(S.At)}, {"message", S.Message}};
}

static json::Value toJSON(const std::string &S) { return S; }
static json::Value toJSON(unsigned N) { return N; }
static json::Value toJSON(const NodeRecord &N);
static json::Value toJSON(const DecisionRecord &D);
static json::Value toJSON(const FunctionRecord &F);
static json::Value toJSON(const OverrideRecord &O);
static json::Value toJSON(const struct BranchRecord::Side &S);
static json::Value toJSON(const BranchRecord &B);
static json::Value toJSON(const FactRecord &F);
static json::Value toJSON(const SkippedRecord &S);

template <typename T> static json::Array array(const std::vector<T> &V) {
  json::Array A;
  for (const T &X : V)
    A.push_back(toJSON(X));
  return A;
}


static llvm::StringRef kindName(NodeRecord::Kind K) {
  switch (K) {
  case NodeRecord::Kind::Empty:
    return "empty";
  case NodeRecord::Kind::Op:
    return "op";
  case NodeRecord::Kind::Seq:
    return "seq";
  case NodeRecord::Kind::Choice:
    return "choice";
  case NodeRecord::Kind::LoopBack:
    return "loop-back";
  case NodeRecord::Kind::Call:
    return "call";
  }
  return "empty";
}

static json::Value toJSON(const NodeRecord &N) {
  json::Object O{{"kind", kindName(N.K)}};
  if (!N.Name.empty())
    O["name"] = N.Name;
  if (N.At.valid())
    O["at"] = toJSON(N.At);
  if (!N.Kids.empty())
    O["kids"] = array(N.Kids);
  if (N.LoopBody)
    O["loop_body"] = N.LoopBody;
  return O;
}

static json::Value toJSON(const DecisionRecord &D) {
  return json::Object{{"key", D.Key},
                      {"at", toJSON(D.At)},
                      {"text", D.Text},
                      {"values", D.Values}};
}

static json::Value toJSON(const FunctionRecord &F) {
  return json::Object{{"key", F.Key},
                      {"name", F.Name},
                      {"at", toJSON(F.At)},
                      {"summary", F.Summary}};
}

static json::Value toJSON(const OverrideRecord &O) {
  json::Object Out{{"key", O.Key}, {"overrides", array(O.Overrides)}};
  if (O.Confined)
    Out["confined"] = true;
  return Out;
}

static json::Value toJSON(const BranchRecord::Side &S) {
  return json::Object{{"successor", S.Successor}, {"summary", S.Summary}};
}

static json::Value toJSON(const BranchRecord &B) {
  json::Object O{{"function", B.Function},
                 {"shape", B.Shape},
                 {"condition", toJSON(B.Condition)},
                 {"condition_text", B.ConditionText},
                 {"over_range", B.OverRange},
                 {"why", array(B.Why)},
                 {"sides", array(B.Sides)},
                 {"decided", B.Decided}};
  if (B.Decided) {
    O["op"] = B.Op;
    O["is_barrier"] = B.IsBarrier;
    O["site"] = toJSON(B.Site);
    O["early_exit"] = toJSON(B.EarlyExit);
    O["early_exit_kind"] = B.EarlyExitKind;
    O["uniform"] = toJSON(B.Uniform);
    if (B.ByNameAt.valid()) {
      O["by_name_at"] = toJSON(B.ByNameAt);
      O["by_name_note"] = B.ByNameNote;
    }
  }
  return O;
}

static json::Value toJSON(const DepRecord &D) {
  json::Object O{{"why", array(D.Why)}};
  if (D.Divergent)
    O["divergent"] = true;
  if (D.Synced)
    O["synced"] = true;
  // Bit masks, as signed 64-bit numbers (JSON readers keep those exact).
  if (D.Params)
    O["params"] = int64_t(D.Params);
  if (D.EnvKeys)
    O["env_keys"] = int64_t(D.EnvKeys);
  if (D.Root >= 0) {
    O["root"] = D.Root;
    O["root_env"] = D.RootEnv;
  }
  if (D.ElementsOnly)
    O["elements_only"] = true;
  return O;
}

static json::Value toJSON(const DepSummaryRecord &S) {
  json::Array Writes;
  for (const auto &[Index, D] : S.Writes)
    Writes.push_back(json::Object{{"index", Index}, {"value", toJSON(D)}});
  return json::Object{{"return", toJSON(S.Return)},
                      {"writes", std::move(Writes)}};
}

static llvm::StringRef factKindName(FactRecord::Kind K) {
  switch (K) {
  case FactRecord::Kind::Argument:
    return "argument";
  case FactRecord::Kind::EnvName:
    return "env-name";
  case FactRecord::Kind::Summary:
    break;
  }
  return "summary";
}

static json::Value toJSON(const FactRecord &F) {
  json::Object O{{"kind", factKindName(F.K)}, {"key", F.Key}};
  if (F.K == FactRecord::Kind::Summary) {
    O["summary"] = toJSON(F.Summary);
  } else {
    O["index"] = F.Index;
    O["why"] = array(F.Why);
    if (F.ElementsOnly)
      O["elements_only"] = true;
  }
  return O;
}

json::Value toJSON(const Dependency &D) {
  return json::Object{{"path", D.Path},
                      {"size", int64_t(D.Size)},
                      {"mtime", D.MTime},
                      {"hash", D.Hash}};
}

static json::Value toJSON(const SkippedRecord &S) {
  return json::Object{{"function", S.Function}, {"at", toJSON(S.At)},
                      {"budget", S.Budget},     {"branches", S.Branches},
                      {"reason", S.Reason},     {"key", S.Key}};
}

std::string toJSON(const TUSummary &S) {
  json::Object O{{"format", SummaryFormat},
                 {"version", SummaryVersion},
                 {"main_file", S.MainFile},
                 {"key", S.Key},
                 {"error", S.Error},
                 {"compile_errors", S.CompileErrors},
                 {"first_error", S.FirstError},
                 {"first_error_at", toJSON(S.FirstErrorAt)},
                 {"dependencies", array(S.Dependencies)},
                 {"nodes", array(S.Nodes)},
                 {"decisions", array(S.Decisions)},
                 {"barriers", array(S.Barriers)},
                 {"functions", array(S.Functions)},
                 {"branches", array(S.Branches)},
                 {"exports", array(S.Exports)},
                 {"imports", array(S.Imports)},
                 {"defines", array(S.Defines)},
                 {"calls", array(S.Calls)},
                 {"overrides", array(S.Overrides)},
                 {"assumed_returns", array(S.AssumedReturns)},
                 {"skipped", array(S.Skipped)}};
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << json::Value(std::move(O));
  return Out;
}

// Reading: every field is checked, so a damaged file is an error that names
// the field, never a crash.

bool fromJSON(const json::Value &V, Location &L, json::Path P) {
  if (V.getAsNull())
    return true;
  const json::Array *A = V.getAsArray();
  if (!A || A->size() != 3) {
    P.report("expected [file, line, column]");
    return false;
  }
  auto File = (*A)[0].getAsString();
  auto Line = (*A)[1].getAsUINT64();
  auto Column = (*A)[2].getAsUINT64();
  if (!File || !Line || !Column) {
    P.report("expected [file, line, column]");
    return false;
  }
  L.File = File->str();
  L.Line = unsigned(*Line);
  L.Column = unsigned(*Column);
  return true;
}

/// Reads a non-negative index. (LLVM 19's JSON has no unsigned reader.)
static bool mapIndex(json::ObjectMapper &M, json::Path P, llvm::StringLiteral Name,
                     unsigned &Out, bool Optional = false) {
  int64_t Value = 0;
  if (!(Optional ? M.mapOptional(Name, Value) : M.map(Name, Value)))
    return false;
  if (Value < 0 || Value > int64_t(~0u)) {
    P.field(Name).report("expected a non-negative index");
    return false;
  }
  Out = unsigned(Value);
  return true;
}

static bool mapIndices(json::ObjectMapper &M, json::Path P,
                       llvm::StringLiteral Name, std::vector<unsigned> &Out) {
  std::vector<int64_t> Values;
  if (!M.mapOptional(Name, Values))
    return false;
  for (int64_t Value : Values) {
    if (Value < 0 || Value > int64_t(~0u)) {
      P.field(Name).report("expected non-negative indices");
      return false;
    }
    Out.push_back(unsigned(Value));
  }
  return true;
}

bool fromJSON(const json::Value &V, Step &S, json::Path P) {
  json::ObjectMapper M(V, P);
  return M && M.map("at", S.At) && M.map("message", S.Message);
}

bool fromJSON(const json::Value &V, NodeRecord &N, json::Path P) {
  json::ObjectMapper M(V, P);
  std::string Kind;
  if (!M || !M.map("kind", Kind) || !M.mapOptional("name", N.Name) ||
      !M.mapOptional("at", N.At) || !mapIndices(M, P, "kids", N.Kids) ||
      !mapIndex(M, P, "loop_body", N.LoopBody, /*Optional=*/true))
    return false;
  static const std::pair<const char *, NodeRecord::Kind> Kinds[] = {
      {"empty", NodeRecord::Kind::Empty}, {"op", NodeRecord::Kind::Op},
      {"seq", NodeRecord::Kind::Seq},     {"choice", NodeRecord::Kind::Choice},
      {"loop-back", NodeRecord::Kind::LoopBack},
      {"call", NodeRecord::Kind::Call}};
  for (const auto &[Name, K] : Kinds)
    if (Kind == Name) {
      N.K = K;
      return true;
    }
  P.field("kind").report("unknown node kind");
  return false;
}

bool fromJSON(const json::Value &V, DecisionRecord &D, json::Path P) {
  json::ObjectMapper M(V, P);
  return M && M.map("key", D.Key) && M.map("at", D.At) &&
         M.map("text", D.Text) && M.map("values", D.Values);
}

bool fromJSON(const json::Value &V, FunctionRecord &F, json::Path P) {
  json::ObjectMapper M(V, P);
  return M && M.map("key", F.Key) && M.map("name", F.Name) &&
         M.map("at", F.At) && mapIndex(M, P, "summary", F.Summary);
}

bool fromJSON(const json::Value &V, OverrideRecord &O, json::Path P) {
  json::ObjectMapper M(V, P);
  return M && M.map("key", O.Key) && M.map("overrides", O.Overrides) &&
         M.mapOptional("confined", O.Confined);
}

bool fromJSON(const json::Value &V, BranchRecord::Side &S, json::Path P) {
  json::ObjectMapper M(V, P);
  return M && mapIndex(M, P, "successor", S.Successor) &&
         mapIndex(M, P, "summary", S.Summary);
}

bool fromJSON(const json::Value &V, BranchRecord &B, json::Path P) {
  json::ObjectMapper M(V, P);
  return M && M.map("function", B.Function) && M.map("shape", B.Shape) &&
         M.map("condition", B.Condition) &&
         M.map("condition_text", B.ConditionText) &&
         M.map("over_range", B.OverRange) && M.map("why", B.Why) &&
         M.map("sides", B.Sides) && M.map("decided", B.Decided) &&
         M.mapOptional("op", B.Op) &&
         M.mapOptional("is_barrier", B.IsBarrier) &&
         M.mapOptional("site", B.Site) &&
         M.mapOptional("early_exit", B.EarlyExit) &&
         M.mapOptional("early_exit_kind", B.EarlyExitKind) &&
         M.mapOptional("uniform", B.Uniform) &&
         M.mapOptional("by_name_at", B.ByNameAt) &&
         M.mapOptional("by_name_note", B.ByNameNote);
}

bool fromJSON(const json::Value &V, DepRecord &D, json::Path P) {
  json::ObjectMapper M(V, P);
  int64_t Params = 0, EnvKeys = 0, Root = -1;
  if (!M || !M.map("why", D.Why) || !M.mapOptional("divergent", D.Divergent) ||
      !M.mapOptional("synced", D.Synced) || !M.mapOptional("params", Params) ||
      !M.mapOptional("env_keys", EnvKeys) || !M.mapOptional("root", Root) ||
      !M.mapOptional("root_env", D.RootEnv) ||
      !M.mapOptional("elements_only", D.ElementsOnly))
    return false;
  if (Root < -1 || Root > 1000000) {
    P.field("root").report("expected an input index");
    return false;
  }
  D.Params = uint64_t(Params);
  D.EnvKeys = uint64_t(EnvKeys);
  D.Root = int(Root);
  return true;
}

bool fromJSON(const json::Value &V, std::pair<unsigned, DepRecord> &W,
              json::Path P) {
  json::ObjectMapper M(V, P);
  return M && mapIndex(M, P, "index", W.first) && M.map("value", W.second);
}

bool fromJSON(const json::Value &V, DepSummaryRecord &S, json::Path P) {
  json::ObjectMapper M(V, P);
  return M && M.map("return", S.Return) && M.map("writes", S.Writes);
}

bool fromJSON(const json::Value &V, FactRecord &F, json::Path P) {
  json::ObjectMapper M(V, P);
  std::string Kind;
  if (!M || !M.map("kind", Kind) || !M.map("key", F.Key))
    return false;
  if (Kind == "summary") {
    F.K = FactRecord::Kind::Summary;
    return M.map("summary", F.Summary);
  }
  if (Kind == "argument")
    F.K = FactRecord::Kind::Argument;
  else if (Kind == "env-name")
    F.K = FactRecord::Kind::EnvName;
  else {
    P.field("kind").report("unknown fact kind");
    return false;
  }
  return mapIndex(M, P, "index", F.Index) && M.map("why", F.Why) &&
         M.mapOptional("elements_only", F.ElementsOnly);
}

bool fromJSON(const json::Value &V, Dependency &D, json::Path P) {
  json::ObjectMapper M(V, P);
  int64_t Size = 0;
  if (!M || !M.map("path", D.Path) || !M.map("size", Size) ||
      !M.map("mtime", D.MTime) || !M.map("hash", D.Hash))
    return false;
  D.Size = uint64_t(Size);
  return true;
}

bool fromJSON(const json::Value &V, SkippedRecord &S, json::Path P) {
  json::ObjectMapper M(V, P);
  return M && M.map("function", S.Function) && M.map("at", S.At) &&
         mapIndex(M, P, "budget", S.Budget) &&
         mapIndex(M, P, "branches", S.Branches) && M.map("reason", S.Reason) &&
         M.map("key", S.Key);
}

bool fromJSON(const json::Value &V, TUSummary &S, json::Path P) {
  json::ObjectMapper M(V, P);
  std::string Format;
  unsigned Version = 0;
  if (!M || !M.map("format", Format) || !mapIndex(M, P, "version", Version))
    return false;
  if (Format != SummaryFormat) {
    P.field("format").report("not a ddp-lint summary");
    return false;
  }
  if (Version != SummaryVersion) {
    P.field("version").report("unsupported summary version");
    return false;
  }
  if (!(M.map("main_file", S.MainFile) && M.map("key", S.Key) &&
        M.map("error", S.Error) &&
        mapIndex(M, P, "compile_errors", S.CompileErrors) &&
        M.map("first_error", S.FirstError) &&
        M.map("first_error_at", S.FirstErrorAt) &&
        M.map("dependencies", S.Dependencies) && M.map("nodes", S.Nodes) &&
        M.map("decisions", S.Decisions) &&
        M.map("barriers", S.Barriers) && M.map("functions", S.Functions) &&
        M.map("branches", S.Branches) && M.map("exports", S.Exports) &&
        M.map("imports", S.Imports) && M.map("defines", S.Defines) &&
        M.map("calls", S.Calls) && M.map("overrides", S.Overrides) &&
        M.map("assumed_returns", S.AssumedReturns) &&
        M.map("skipped", S.Skipped)))
    return false;
  // Node references must point into the table, and only backwards (the
  // writer emits children first), so that no cycle can be read.
  for (unsigned I = 0; I < S.Nodes.size(); ++I)
    for (unsigned Kid : S.Nodes[I].Kids)
      if (Kid >= I) {
        P.field("nodes").index(I).report("child index out of order");
        return false;
      }
  auto InTable = [&](unsigned N) { return N < S.Nodes.size(); };
  for (unsigned I = 0; I < S.Functions.size(); ++I)
    if (!InTable(S.Functions[I].Summary)) {
      P.field("functions").index(I).report("summary index out of range");
      return false;
    }
  for (unsigned I = 0; I < S.Branches.size(); ++I)
    for (const BranchRecord::Side &Side : S.Branches[I].Sides)
      if (!InTable(Side.Summary)) {
        P.field("branches").index(I).report("summary index out of range");
        return false;
      }
  return true;
}

llvm::Expected<TUSummary> summaryFromJSON(llvm::StringRef Text) {
  llvm::Expected<json::Value> V = parseBoundedJSON(Text);
  if (!V)
    return V.takeError();
  TUSummary S;
  json::Path::Root Root("summary");
  if (!fromJSON(*V, S, Root))
    return Root.getError();
  return S;
}

llvm::Error writeSummary(const TUSummary &S, llvm::StringRef Path) {
  // Write to a temporary and rename, so that a concurrent reader (another
  // ddp-lint sharing the cache) never sees half a file.
  std::string Temp = (Path + ".tmp" + std::to_string(llvm::sys::Process::getProcessId())).str();
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Temp, EC);
    if (EC)
      return llvm::createStringError(EC, "cannot write '%s': %s",
                                     Temp.c_str(), EC.message().c_str());
    OS << toJSON(S);
  }
  if (std::error_code EC = llvm::sys::fs::rename(Temp, Path))
    return llvm::createStringError(EC, "cannot write '%s': %s",
                                   Path.str().c_str(), EC.message().c_str());
  return llvm::Error::success();
}

llvm::Expected<TUSummary> readSummary(llvm::StringRef Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return llvm::createStringError(Buffer.getError(), "cannot read '%s': %s",
                                   Path.str().c_str(),
                                   Buffer.getError().message().c_str());
  auto S = summaryFromJSON((*Buffer)->getBuffer());
  if (!S)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "'%s' is not a valid summary: %s",
                                   Path.str().c_str(),
                                   llvm::toString(S.takeError()).c_str());
  return S;
}

} // namespace ddp::driver
