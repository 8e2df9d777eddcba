//===--- Reporters.cpp - Text, JSON, SARIF and GitHub output --------------===//

#include "Reporters.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include <fmt/format.h>

namespace json = llvm::json;

namespace ddp::driver {

#ifndef DDP_LINT_VERSION
#define DDP_LINT_VERSION "0"
#endif

std::string relativePath(llvm::StringRef File, llvm::StringRef Root) {
  if (Root.empty())
    return File.str();
  std::string Prefix = Root.str();
  if (!llvm::StringRef(Prefix).ends_with("/"))
    Prefix += "/";
  if (File.starts_with(Prefix))
    return File.drop_front(Prefix.size()).str();
  return File.str();
}

static std::string where(const Location &L, const Run &R) {
  return fmt::format("{}:{}:{}", relativePath(L.File, R.SourceRoot), L.Line,
                     L.Column);
}

/// "'rank' is set from 'pg->getRank()' at train.cpp:5:14"; a step that
/// stands for links left out of a long chain has no location.
static std::string noteText(const Note &N, const Run &R) {
  if (!N.At.valid())
    return N.Message;
  return N.Message + " at " + where(N.At, R);
}

std::string skippedMessage(const SkippedRecord &S) {
  if (!S.Reason.empty())
    return fmt::format("the analysis of '{}' was skipped: {}, so its "
                       "collectives are not checked, nor are the branches "
                       "that call it",
                       S.Function, S.Reason);
  return fmt::format("the analysis of '{}' was skipped: it needs more than {} "
                     "steps (option AnalysisBudget) for its {} rank-dependent "
                     "branches, so its collectives are not checked",
                     S.Function, S.Budget, S.Branches);
}

std::string incompleteMessage(const IncompleteTU &T, const Run &R) {
  std::string First = T.FirstError;
  if (T.FirstErrorAt.valid())
    First = where(T.FirstErrorAt, R) + ": " + First;
  return fmt::format(
      "{} compile error{} (the first: {}); the functions that compiled were "
      "analysed, {} function{} skipped",
      T.Errors, T.Errors == 1 ? "" : "s", First, T.FunctionsSkipped,
      T.FunctionsSkipped == 1 ? " was" : "s were");
}

void writeText(llvm::raw_ostream &OS, const Run &R, bool Colors) {
  using llvm::raw_ostream;
  auto Bold = [&] {
    if (Colors)
      OS.changeColor(raw_ostream::SAVEDCOLOR, /*Bold=*/true);
  };
  auto Color = [&](raw_ostream::Colors C) {
    if (Colors)
      OS.changeColor(C, /*Bold=*/true);
  };
  auto Reset = [&] {
    if (Colors)
      OS.resetColor();
  };
  for (const InputError &E : R.Errors) {
    Bold();
    OS << relativePath(E.File, R.SourceRoot) << ": ";
    Color(raw_ostream::RED);
    OS << "error: ";
    Reset();
    Bold();
    OS << "could not analyse this translation unit: " << E.Message;
    Reset();
    OS << "\n";
  }
  for (const IncompleteTU &T : R.Incomplete) {
    Bold();
    OS << relativePath(T.File, R.SourceRoot) << ": ";
    Color(R.CompileErrorsFail ? raw_ostream::RED : raw_ostream::CYAN);
    OS << (R.CompileErrorsFail ? "error: " : "remark: ");
    Reset();
    OS << incompleteMessage(T, R) << "\n";
  }
  for (const SkippedRecord &S : R.Skipped) {
    Bold();
    OS << where(S.At, R) << ": ";
    Color(raw_ostream::CYAN);
    OS << "remark: ";
    Reset();
    OS << skippedMessage(S) << "\n";
  }
  for (const Diagnostic &D : R.Findings) {
    Bold();
    OS << where(D.At, R) << ": ";
    Color(raw_ostream::MAGENTA);
    OS << "warning: ";
    Reset();
    Bold();
    OS << D.Message << " [" << D.Rule << "]";
    Reset();
    OS << "\n";
    const char *Lead = D.Rule == "ddp-rank-dependent-loop"
                           ? "the loop condition depends on the rank: "
                           : "the condition depends on the rank: ";
    for (size_t I = 0; I < D.Why.size(); ++I)
      OS << "  " << (I == 0 ? Lead : "  ") << noteText(D.Why[I], R) << "\n";
    size_t Width = 0;
    for (const SideText &S : D.Sides)
      Width = std::max(Width, S.Label.size());
    for (const SideText &S : D.Sides)
      OS << "  " << S.Label << ":" << std::string(Width - S.Label.size() + 1, ' ')
         << S.Text << "\n";
    if (D.EarlyExit)
      OS << "  " << D.EarlyExit->Message << " at " << where(D.EarlyExit->At, R)
         << "\n";
    if (D.Uniform)
      OS << "  " << D.Uniform->Message << " at " << where(D.Uniform->At, R)
         << "\n";
    if (D.ByName)
      OS << "  " << D.ByName->Message << " (at " << where(D.ByName->At, R)
         << ")\n";
  }
  if (!R.Findings.empty() || !R.Errors.empty() || !R.Skipped.empty() ||
      !R.Incomplete.empty() || R.Baselined) {
    OS << fmt::format("{} finding{} in {} translation unit{}", R.Findings.size(),
                      R.Findings.size() == 1 ? "" : "s", R.TranslationUnits,
                      R.TranslationUnits == 1 ? "" : "s");
    if (R.Baselined)
      OS << fmt::format(" ({} more in the baseline)", R.Baselined);
    if (!R.Errors.empty())
      OS << fmt::format("; {} could not be analysed", R.Errors.size());
    if (!R.Incomplete.empty())
      OS << fmt::format("; {} with compile errors", R.Incomplete.size());
    if (!R.Skipped.empty())
      OS << fmt::format("; {} function{} skipped", R.Skipped.size(),
                        R.Skipped.size() == 1 ? "" : "s");
    OS << "\n";
  }
}

static json::Value location(const Location &L, const Run &R) {
  if (!L.valid())
    return nullptr;
  return json::Object{{"file", relativePath(L.File, R.SourceRoot)},
                      {"line", L.Line},
                      {"column", L.Column}};
}

void writeJSON(llvm::raw_ostream &OS, const Run &R) {
  json::Array Findings;
  for (const Diagnostic &D : R.Findings) {
    json::Array Why, Sides, Related;
    for (const Note &N : D.Why)
      Why.push_back(json::Object{{"location", location(N.At, R)},
                                 {"message", N.Message}});
    for (const SideText &S : D.Sides)
      Sides.push_back(json::Object{{"label", S.Label}, {"sequence", S.Text}});
    for (const Note &N : D.related())
      Related.push_back(json::Object{{"location", location(N.At, R)},
                                     {"message", N.Message}});
    Findings.push_back(json::Object{{"rule", D.Rule},
                                    {"check", D.Check},
                                    {"message", D.Message},
                                    {"location", location(D.At, R)},
                                    {"site", location(D.Site, R)},
                                    {"function", D.Function},
                                    {"why", std::move(Why)},
                                    {"sides", std::move(Sides)},
                                    {"related", std::move(Related)},
                                    {"fingerprint", D.Fingerprint}});
  }
  json::Array Errors;
  for (const InputError &E : R.Errors)
    Errors.push_back(json::Object{
        {"file", relativePath(E.File, R.SourceRoot)}, {"message", E.Message}});
  json::Array Skipped;
  for (const SkippedRecord &S : R.Skipped)
    Skipped.push_back(
        json::Object{{"function", S.Function},
                     {"location", location(S.At, R)},
                     {"reason", S.Reason.empty() ? "budget" : "compile-errors"},
                     {"message", skippedMessage(S)}});
  json::Array Incomplete;
  for (const IncompleteTU &T : R.Incomplete) {
    json::Object Entry{{"file", relativePath(T.File, R.SourceRoot)},
                       {"errors", T.Errors},
                       {"message", incompleteMessage(T, R)},
                       {"first_error", T.FirstError},
                       {"functions_skipped", T.FunctionsSkipped}};
    if (T.FirstErrorAt.valid())
      Entry["first_error_location"] = location(T.FirstErrorAt, R);
    Incomplete.push_back(std::move(Entry));
  }
  json::Object Top{{"tool", "ddp-lint"},
                   {"version", DDP_LINT_VERSION},
                   {"translation_units", R.TranslationUnits},
                   {"parsed", R.Parsed},
                   {"cached", R.Cached},
                   {"findings", std::move(Findings)},
                   {"baselined", R.Baselined},
                   {"suppressed", R.Suppressed},
                   {"errors", std::move(Errors)},
                   {"translation_units_with_errors", R.Incomplete.size()},
                   {"compile_errors_fail", R.CompileErrorsFail},
                   {"incomplete", std::move(Incomplete)},
                   {"functions_skipped", R.Skipped.size()},
                   {"skipped", std::move(Skipped)}};
  OS << llvm::formatv("{0:2}", json::Value(std::move(Top))) << "\n";
}

namespace {
struct RuleInfo {
  const char *Id;
  const char *Name;
  const char *Short;
  const char *Full;
  const char *Doc;
};
const RuleInfo Rules[] = {
    {"ddp-collective-order", "CollectiveOrder",
     "Ranks can issue different sequences of collectives.",
     "A branch whose condition depends on the rank leads ranks to issue "
     "different collectives, or the same ones in another order, including "
     "through helpers in other translation units. The ranks that wait in a "
     "collective the others never call hang until the watchdog timeout.",
     "collective-order"},
    {"ddp-rank-dependent-loop", "RankDependentLoop",
     "A loop issues collectives a rank-dependent number of times.",
     "A loop whose trip count depends on the rank calls collectives in its "
     "body: ranks that iterate more often wait in a collective the others "
     "never call.",
     "rank-dependent-loop"},
};
constexpr const char *InformationUri =
    "https://github.com/ddp-lint/ddp-lint";
} // namespace

void writeSARIF(llvm::raw_ostream &OS, const Run &R) {
  json::Array RuleArray;
  for (const RuleInfo &Rule : Rules)
    RuleArray.push_back(json::Object{
        {"id", Rule.Id},
        {"name", Rule.Name},
        {"shortDescription", json::Object{{"text", Rule.Short}}},
        {"fullDescription", json::Object{{"text", Rule.Full}}},
        {"helpUri", fmt::format("{}/blob/main/docs/ddp-lint.md#{}",
                                InformationUri, Rule.Doc)},
        {"help", json::Object{{"text", Rule.Full}}},
        {"defaultConfiguration", json::Object{{"level", "warning"}}},
        {"properties",
         json::Object{{"tags", json::Array{"correctness", "distributed"}},
                      {"precision", "high"},
                      {"problem.severity", "warning"}}}});
  auto RuleIndex = [](llvm::StringRef Id) {
    for (unsigned I = 0; I < std::size(Rules); ++I)
      if (Id == Rules[I].Id)
        return I;
    return 0u;
  };
  auto Physical = [&](const Location &L) {
    return json::Object{
        {"artifactLocation",
         json::Object{{"uri", relativePath(L.File, R.SourceRoot)},
                      {"uriBaseId", "%SRCROOT%"}}},
        {"region", json::Object{{"startLine", L.Line},
                                {"startColumn", L.Column}}}};
  };
  json::Array Results;
  for (const Diagnostic &D : R.Findings) {
    std::string Text = D.Message + ".";
    json::Array Related;
    int Id = 1;
    for (const Note &N : D.Why)
      if (N.At.valid())
        Related.push_back(
            json::Object{{"id", Id++},
                         {"physicalLocation", Physical(N.At)},
                         {"message", json::Object{{"text", N.Message + "."}}}});
    for (const Note &N : D.related())
      Related.push_back(json::Object{{"id", Id++},
                                     {"physicalLocation", Physical(N.At)},
                                     {"message", json::Object{{"text", N.Message + "."}}}});
    for (const SideText &S : D.Sides)
      Text += " " + S.Label + ": " + S.Text + ".";
    Results.push_back(json::Object{
        {"ruleId", D.Rule},
        {"ruleIndex", RuleIndex(D.Rule)},
        {"level", "warning"},
        {"message", json::Object{{"text", Text}}},
        {"locations",
         json::Array{json::Object{{"physicalLocation", Physical(D.At)}}}},
        {"relatedLocations", std::move(Related)},
        {"partialFingerprints",
         json::Object{{"ddpLintFingerprint/v1", D.Fingerprint}}}});
  }
  json::Array Notifications;
  for (const InputError &E : R.Errors)
    Notifications.push_back(json::Object{
        {"level", "error"},
        {"message",
         json::Object{{"text", "Could not analyse " +
                                   relativePath(E.File, R.SourceRoot) + ": " +
                                   E.Message + "."}}}});
  for (const IncompleteTU &T : R.Incomplete)
    Notifications.push_back(json::Object{
        {"level", R.CompileErrorsFail ? "error" : "warning"},
        {"message",
         json::Object{{"text", relativePath(T.File, R.SourceRoot) + ": " +
                                   incompleteMessage(T, R) + "."}}},
        {"locations",
         json::Array{json::Object{
             {"physicalLocation",
              json::Object{
                  {"artifactLocation",
                   json::Object{{"uri", relativePath(T.File, R.SourceRoot)},
                                {"uriBaseId", "%SRCROOT%"}}}}}}}}});
  for (const SkippedRecord &S : R.Skipped)
    Notifications.push_back(json::Object{
        {"level", "note"},
        {"message", json::Object{{"text", skippedMessage(S) + "."}}},
        {"locations",
         json::Array{json::Object{{"physicalLocation", Physical(S.At)}}}}});
  std::string RootUri = "file://" + R.SourceRoot;
  if (!llvm::StringRef(RootUri).ends_with("/"))
    RootUri += "/";
  json::Object Run{
      {"tool", json::Object{{"driver",
                             json::Object{{"name", "ddp-lint"},
                                          {"version", DDP_LINT_VERSION},
                                          {"semanticVersion", DDP_LINT_VERSION},
                                          {"informationUri", InformationUri},
                                          {"rules", std::move(RuleArray)}}}}},
      {"originalUriBaseIds",
       json::Object{{"%SRCROOT%", json::Object{{"uri", RootUri}}}}},
      {"invocations",
       json::Array{json::Object{
           {"executionSuccessful",
            R.Errors.empty() && (R.Incomplete.empty() || !R.CompileErrorsFail)},
           {"toolExecutionNotifications", std::move(Notifications)}}}},
      {"columnKind", "utf16CodeUnits"},
      {"results", std::move(Results)}};
  json::Object Log{
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs", json::Array{std::move(Run)}}};
  OS << llvm::formatv("{0:2}", json::Value(std::move(Log))) << "\n";
}

/// Escapes text for a workflow command: data after '::', or a property.
static std::string escape(llvm::StringRef Text, bool Property) {
  std::string Out;
  for (char C : Text) {
    switch (C) {
    case '%':
      Out += "%25";
      break;
    case '\r':
      Out += "%0D";
      break;
    case '\n':
      Out += "%0A";
      break;
    case ':':
      Out += Property ? "%3A" : ":";
      break;
    case ',':
      Out += Property ? "%2C" : ",";
      break;
    default:
      Out += C;
    }
  }
  return Out;
}

void writeGitHub(llvm::raw_ostream &OS, const Run &R) {
  for (const InputError &E : R.Errors)
    OS << "::error file=" << escape(relativePath(E.File, R.SourceRoot), true)
       << ",title=" << escape("ddp-lint: could not analyse", true)
       << "::" << escape(E.Message, false) << "\n";
  for (const IncompleteTU &T : R.Incomplete)
    OS << (R.CompileErrorsFail ? "::error" : "::notice")
       << " file=" << escape(relativePath(T.File, R.SourceRoot), true)
       << ",title=" << escape("ddp-lint: compile errors", true)
       << "::" << escape(incompleteMessage(T, R), false) << "\n";
  for (const SkippedRecord &S : R.Skipped)
    OS << "::notice file=" << escape(relativePath(S.At.File, R.SourceRoot), true)
       << ",line=" << S.At.Line << ",col=" << S.At.Column
       << ",title=" << escape("ddp-lint: analysis skipped", true)
       << "::" << escape(skippedMessage(S), false) << "\n";
  for (const Diagnostic &D : R.Findings) {
    std::string Body = D.Message;
    for (const Note &N : D.Why)
      Body += "\n" + noteText(N, R);
    for (const SideText &S : D.Sides)
      Body += "\n" + S.Label + ": " + S.Text;
    if (D.Uniform)
      Body += "\n" + D.Uniform->Message + " at " + where(D.Uniform->At, R);
    if (D.ByName)
      Body += "\n" + D.ByName->Message + " (at " + where(D.ByName->At, R) + ")";
    OS << "::warning file=" << escape(relativePath(D.At.File, R.SourceRoot), true)
       << ",line=" << D.At.Line << ",col=" << D.At.Column
       << ",title=" << escape(D.Rule, true) << "::" << escape(Body, false)
       << "\n";
  }
}

} // namespace ddp::driver
