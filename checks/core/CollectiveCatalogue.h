//===--- CollectiveCatalogue.h - What each communication call does --------===//
//
// The catalogue is data: a table of call patterns and the role each call plays
// in a multi-rank program (collective, barrier, point-to-point, local, source
// of the rank, source of a uniform value). Defaults cover c10d, the NCCL API,
// torch::cuda::nccl and MPI; users add entries through check options.
//
//===----------------------------------------------------------------------===//

#ifndef DDP_CORE_COLLECTIVECATALOGUE_H
#define DDP_CORE_COLLECTIVECATALOGUE_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/GlobPattern.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class CallExpr;
class FunctionDecl;
} // namespace clang

namespace ddp {

/// The part a call plays in the communication between ranks.
enum class CallRole : unsigned char {
  Collective,     ///< Every rank of the group must call it, in the same order.
  Barrier,        ///< A collective whose only effect is to synchronise.
  PointToPoint,   ///< send/recv: matched pairs, asymmetric by design.
  Local,          ///< No communication (Work::wait, ncclGetUniqueId).
  RankSource,     ///< Returns, or writes to OutArg, the caller's rank.
  UniformSource,  ///< Returns, or writes to OutArg, a value equal on all ranks.
  GradientSync,   ///< backward(): a collective when gradient sync is armed.
  ArmsGradSync,   ///< Arms gradient synchronisation (Reducer methods).
  LocalData,      ///< Reads a value this rank computed from its own data
                  ///< (tensor.item()): rank-dependent unless synchronised.
  DeviceProperty, ///< Returns, or writes to OutArg, a property of the GPU
                  ///< model (compute capability, attribute, name): the same
                  ///< on every rank, whichever device a rank was given.
  OutputBinding,  ///< Gives an options object the buffer (Arg) that a later
                  ///< collective taking that object fills: Gloo's
                  ///< `opts.setOutput(ptr, n)` before `gloo::allreduce(opts)`.
};

/// True for the roles that every rank must execute together.
/// True for a collective that creates a communicator (ncclCommInitRank,
/// MPI_Comm_split, ...): executed by some ranks only, it is a rendezvous
/// that never completes. \p Op is the catalogue's display name.
inline bool createsCommunicator(llvm::StringRef Op) {
  return Op.starts_with("ncclCommInit") || Op == "ncclCommSplit" ||
         Op.starts_with("MPI_Comm_split") || Op == "MPI_Comm_dup" ||
         Op.starts_with("MPI_Comm_create") || Op == "MPI_Intercomm_create" ||
         Op == "MPI_Cart_create" || Op == "MPI_Graph_create" ||
         Op.starts_with("MPI_Dist_graph_create");
}

/// True for a broadcast: on return every rank holds what the root's buffer
/// held. \p Op is the catalogue's display name.
inline bool publishesRootValue(llvm::StringRef Op) {
  return Op.contains_insensitive("broadcast") ||
         Op.contains_insensitive("bcast");
}

inline bool isCollectiveRole(CallRole Role) {
  return Role == CallRole::Collective || Role == CallRole::Barrier;
}

struct CatalogueEntry {
  /// Pattern as written: "c10d::ProcessGroup::allreduce", "MPI_Allreduce",
  /// "MyComm::*". A method pattern matches the method on the named class and on
  /// every class derived from it.
  std::string Pattern;
  CallRole Role;
  /// RankSource/UniformSource: the argument the value is written to.
  /// Collective: the buffer argument that holds the same value on every rank
  /// once the call has completed (allreduce, broadcast, allgather output).
  int Arg = -1;
  /// The name shown in diagnostics ("allreduce", "MPI_Barrier").
  std::string Display;
};

class CollectiveCatalogue {
public:
  /// The built-in table (c10d, torch::cuda::nccl, NCCL, MPI).
  static CollectiveCatalogue withDefaults();

  /// Adds one entry. Later entries take precedence over earlier ones, so user
  /// entries override the defaults.
  void add(llvm::StringRef Pattern, CallRole Role, int Arg = -1);

  /// Adds a ';'- or ','-separated list of patterns with one role. A pattern may
  /// end in "@N" to name its argument (e.g. "my_get_rank@0").
  void addList(llvm::StringRef Patterns, CallRole Role);

  /// The entry that describes a call to \p Callee, or null. Memoised per
  /// declaration: a catalogue classifies the declarations of one AST.
  const CatalogueEntry *classify(const clang::FunctionDecl *Callee) const;
  const CatalogueEntry *classify(const clang::CallExpr *Call) const;
  /// True if some entry named \p Name (its last component) communicates:
  /// a collective, barrier, point-to-point call, gradient synchronisation.
  bool communicates(llvm::StringRef Name) const;
  /// The newest entry for \p Name whose pattern's qualifier is \p Qualifier
  /// ("c10d::ProcessGroup", "c10d::ops"): for calls that did not resolve,
  /// matched by name (see UnresolvedCalls).
  const CatalogueEntry *lookupName(llvm::StringRef Qualifier,
                                   llvm::StringRef Name) const;

private:
  struct Compiled {
    CatalogueEntry Entry;
    std::string Qualifier; ///< "c10d::ProcessGroup", empty for global names.
    /// A GlobPattern refers to the text it was compiled from: these copies
    /// never move, however the entries are moved or copied.
    std::shared_ptr<const std::string> QualifierText, NameText;
    std::optional<llvm::GlobPattern> QualifierGlob;
    std::optional<llvm::GlobPattern> NameGlob;
  };
  bool matches(const Compiled &C, const clang::FunctionDecl *FD) const;
  /// The index of the newest entry that matches \p FD, or -1.
  int match(const clang::FunctionDecl *FD) const;

  std::vector<Compiled> Entries;
  /// Index of exact final names ("allreduce") to entries, newest last.
  llvm::StringMap<llvm::SmallVector<unsigned, 2>> ByName;
  /// Entries whose final name is a glob.
  llvm::SmallVector<unsigned, 4> Globbed;
  /// classify's answers: the index of the entry, or -1. An index, not a
  /// pointer, so that a copy of the catalogue does not point into another.
  mutable llvm::DenseMap<const clang::FunctionDecl *, int> Classified;
};

} // namespace ddp

#endif // DDP_CORE_COLLECTIVECATALOGUE_H
