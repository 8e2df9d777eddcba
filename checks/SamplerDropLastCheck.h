//===--- SamplerDropLastCheck.h - ddp-sampler-drop-last -------------------===//

#ifndef DDP_CHECKS_SAMPLERDROPLASTCHECK_H
#define DDP_CHECKS_SAMPLERDROPLASTCHECK_H

#include "RankDivergenceCheckBase.h"

namespace clang::tidy::ddp {

/// Finds data loading that gives ranks different numbers of batches while
/// every batch issues collectives: loaders over per-rank datasets, chunk
/// datasets split by rank, strided shards (`for (i = rank; i < n; i +=
/// world)`) and custom samplers that end at a rank-dependent point; and
/// distributed samplers built without the world size and the rank.
///
/// For the user-facing documentation see:
/// docs/checks/sampler-drop-last.rst
class SamplerDropLastCheck : public RankDivergenceCheckBase {
public:
  using RankDivergenceCheckBase::RankDivergenceCheckBase;

protected:
  bool owns(const ::ddp::Finding &F) const override;
  bool reportsDataLoops() const override { return true; }
  DiagnosticBuilder warn(const ::ddp::Finding &F, SourceLocation Loc) override;
  void advise(const ::ddp::Finding &F, bool Fixed,
              ASTContext &Context) override;
  void checkMore(::ddp::TranslationUnitAnalysis &TU,
                 ASTContext &Context) override;

private:
  void adviseLoader(const ::ddp::Finding &F);
  void checkSamplerArguments(const CXXConstructExpr *Sampler,
                             const FunctionDecl *Function, ASTContext &Context);
  void checkDefaultSampler(const CallExpr *MakeDataLoader);
  void checkCustomSampler(const CXXMethodDecl *Next,
                          ::ddp::TranslationUnitAnalysis &TU);
};

} // namespace clang::tidy::ddp

#endif // DDP_CHECKS_SAMPLERDROPLASTCHECK_H
