//===--- DataLoading.h - What LibTorch's data API does with the rank ------===//
//
// How many batches a LibTorch data loader yields on a rank, in terms of the
// expressions it was built from (torch/data/dataloader.h, samplers/):
// - make_data_loader(dataset, sampler, options): the sampler decides; the
//   dataset only supplies the examples the indices name.
// - make_data_loader<Sampler>(dataset, options): Sampler(dataset.size()), so
//   the dataset's size decides.
// - make_data_loader(stateful dataset, options): the dataset decides.
// - DistributedRandomSampler/DistributedSequentialSampler(size, num_replicas,
//   rank, allow_duplicates) yield ceil(size / num_replicas) indices (padding)
//   or floor(size / num_replicas) (truncating) on every rank: the count
//   depends on the size only, never on the rank.
// - A ChunkDataset whose chunk sampler is distributed reads different chunks
//   on each rank, and chunks can differ in size.
//
//===----------------------------------------------------------------------===//

#ifndef DDP_CORE_DATALOADING_H
#define DDP_CORE_DATALOADING_H

namespace clang {
class CallExpr;
class CXXConstructExpr;
class CXXRecordDecl;
class Expr;
class ForStmt;
class FunctionDecl;
class QualType;
class Stmt;
class VarDecl;
} // namespace clang

namespace ddp {
struct Finding;
} // namespace ddp

namespace ddp::data {

/// torch::data::DataLoaderBase and the loaders derived from it.
bool isDataLoader(const clang::CXXRecordDecl *RD);
/// A loader, a reference to one, or a (smart) pointer to one.
bool isDataLoaderType(clang::QualType T);
/// Samplers derived from torch::data::samplers::DistributedSampler.
bool isDistributedSampler(const clang::CXXRecordDecl *RD);
/// Classes derived from torch::data::samplers::Sampler.
bool isSampler(const clang::CXXRecordDecl *RD);
/// torch::data::datasets::ChunkDataset.
bool isChunkDataset(const clang::CXXRecordDecl *RD);
/// torch::data::make_data_loader.
bool isMakeDataLoader(const clang::FunctionDecl *FD);

/// The construction \p E evaluates to, looking through temporaries, casts,
/// std::move and a local variable initialised by one.
const clang::CXXConstructExpr *constructionOf(const clang::Expr *E);

/// For a call of make_data_loader: the argument that decides how many
/// batches the loader yields (the sampler, or the dataset whose size the
/// default sampler is built from), and the options argument (null if
/// defaulted).
struct LoaderInputs {
  const clang::Expr *Count = nullptr;
  bool CountIsSampler = false;
  const clang::Expr *Options = nullptr;
};
LoaderInputs loaderInputs(const clang::CallExpr *MakeDataLoader);

/// For a ChunkDataset construction (or make_shared_dataset<ChunkDataset>):
/// the chunk sampler argument, if the call has one.
const clang::Expr *chunkSamplerArgument(const clang::Expr *Construction);

/// The loop statement iterates over a data loader: a range-for over one,
/// or a loop whose condition takes its next batch.
bool iteratesDataLoader(const clang::Stmt *Loop);

/// A loop that walks a strided share of the data: `for (i = <start>; ...;
/// i += <stride>)` with a non-constant start (the rank). Returns the
/// loop variable, or null.
const clang::VarDecl *stridedShardVariable(const clang::ForStmt *Loop);

/// A finding about a loop over data: a loop over a data loader, or a
/// strided shard, whose trip count depends on the rank.
bool isDataLoop(const Finding &F);

} // namespace ddp::data

#endif // DDP_CORE_DATALOADING_H
