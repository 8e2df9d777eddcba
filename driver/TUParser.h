//===--- TUParser.h - Parse one TU and summarise it -----------------------===//

#ifndef DDP_DRIVER_TUPARSER_H
#define DDP_DRIVER_TUPARSER_H

#include "SummaryFile.h"
#include "core/AnalysisOptions.h"
#include "clang/Tooling/CompilationDatabase.h"
#include <memory>

namespace clang {
class ASTUnit;
}

namespace ddp::driver {

struct Preamble;
class TUAnalysis;

/// A parsed TU. Kept between the rounds of phase 1 where memory allows, so
/// that analysing it again with facts from other TUs does not parse it
/// again.
class ParsedTU {
public:
  /// Parses \p Command's file; \p Against, a usable preamble its leading
  /// includes begin with, is loaded in place of parsing them. If it did not
  /// parse at all, error() says why ("a.cpp:3:5: unknown type name 'x' (and
  /// 2 more errors)"); a TU with compile errors parses, and its summary
  /// counts them.
  static ParsedTU parse(const clang::tooling::CompileCommand &Command,
                        const Preamble *Against = nullptr);
  ParsedTU(ParsedTU &&);
  ParsedTU &operator=(ParsedTU &&) = delete;
  ~ParsedTU();

  const std::string &error() const { return Error; }
  /// Errors in a TU that parsed (code for another release, say).
  unsigned compileErrors() const { return CompileErrors; }
  /// The memory the parsed TU holds (its AST, source buffers and
  /// preprocessor, and the analysis kept with it), in bytes: what keeping
  /// it for a later round costs.
  size_t memoryBytes() const;
  /// Phase 1 on the parsed TU, with the facts \p Imports from other TUs:
  /// the analysis of an earlier call goes on if they only add to its facts.
  TUSummary summarize(const AnalysisOptions &Opts,
                      const std::vector<FactRecord> &Imports);

private:
  ParsedTU();
  std::unique_ptr<clang::ASTUnit> AST;
  /// Refers to the AST: declared after it, so that it is destroyed first.
  std::unique_ptr<TUAnalysis> Analysis;
  std::vector<Dependency> Dependencies;
  std::string Error;
  unsigned CompileErrors = 0;
  std::string FirstError;
  Location FirstErrorAt;
};

} // namespace ddp::driver

#endif // DDP_DRIVER_TUPARSER_H
