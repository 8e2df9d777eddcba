//===--- Origin.h - Why a value depends on the rank -----------------------===//

#ifndef DDP_CORE_ORIGIN_H
#define DDP_CORE_ORIGIN_H

#include "clang/Basic/SourceLocation.h"
#include <string>

namespace ddp {

/// One link of the explanation of a rank dependence: a place in the source and
/// what happens there ("'rank' is set from 'pg->getRank()' here"). Links form
/// a chain back to the source of the rank.
struct Origin {
  clang::SourceLocation Loc;
  std::string Message;
  const Origin *Cause = nullptr;
};

} // namespace ddp

#endif // DDP_CORE_ORIGIN_H
