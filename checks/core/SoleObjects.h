//===--- SoleObjects.h - Classes whose only object is one global ----------===//
//
// Facts about fields are kept per field, for every object of the class: a
// write of `a.n` says nothing about `b.n`, so it only adds to what the field
// may hold. A C program's options struct is often the only object of its
// type (`static mdtest_options_t o;`): every access to its fields in the TU
// goes through that one variable, which no other TU can name. Then `o.n = v`
// replaces what `o.n` held, as a local variable's write does, and
// `o = (options_t){...}` replaces every field.
//
//===----------------------------------------------------------------------===//

#ifndef DDP_CORE_SOLEOBJECTS_H
#define DDP_CORE_SOLEOBJECTS_H

#include "llvm/ADT/DenseMap.h"

namespace clang {
class RecordDecl;
class VarDecl;
} // namespace clang

namespace ddp {

class AnalysisContext;

class SoleObjects {
public:
  explicit SoleObjects(const AnalysisContext &Ctx);

  /// The global variable, internal to the TU, through which every access
  /// to a field of \p Record goes; null if there is none.
  const clang::VarDecl *of(const clang::RecordDecl *Record) const;

private:
  /// Null for a class whose fields some other object's accesses reach.
  llvm::DenseMap<const clang::RecordDecl *, const clang::VarDecl *> Objects;
};

} // namespace ddp

#endif // DDP_CORE_SOLEOBJECTS_H
