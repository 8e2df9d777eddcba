//===--- OptionList.h - Lists in option values ----------------------------===//

#ifndef DDP_CORE_OPTIONLIST_H
#define DDP_CORE_OPTIONLIST_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

namespace ddp {

/// The non-empty, trimmed items of an option value separated by ';' or ','.
inline llvm::SmallVector<llvm::StringRef, 8> splitList(llvm::StringRef List) {
  llvm::SmallVector<llvm::StringRef, 8> Items;
  while (!List.empty()) {
    size_t Sep = List.find_first_of(";,");
    llvm::StringRef Item = List.substr(0, Sep).trim();
    if (!Item.empty())
      Items.push_back(Item);
    if (Sep == llvm::StringRef::npos)
      break;
    List = List.substr(Sep + 1);
  }
  return Items;
}

/// True if \p Item of an option list is a glob rather than a plain name.
inline bool hasGlobChars(llvm::StringRef Item) {
  return Item.find_first_of("*?[") != llvm::StringRef::npos;
}

} // namespace ddp

#endif // DDP_CORE_OPTIONLIST_H
