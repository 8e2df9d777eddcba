//===--- ModuleCalls.h - Running a LibTorch module's forward --------------===//
//
// `model(x)` on a LibTorch module holder (`TORCH_MODULE(Net)`, a
// `torch::nn::ModuleHolder<NetImpl>`) runs `NetImpl::forward` through the
// holder's `operator()`, a template in LibTorch's headers, which the
// analysis does not look into. A tensor-parallel layer whose forward
// all-gathers or all-reduces across its group is a collective wherever it
// runs, so the call is resolved here to the forward it reaches.
//
//===----------------------------------------------------------------------===//

#ifndef DDP_CORE_MODULECALLS_H
#define DDP_CORE_MODULECALLS_H

namespace clang {
class CallExpr;
class FunctionDecl;
} // namespace clang

namespace ddp {

/// The module's `forward` that \p Call runs through a module holder's
/// `operator()`, or null if \p Call is not such a call.
const clang::FunctionDecl *forwardRunBy(const clang::CallExpr *Call);

} // namespace ddp

#endif // DDP_CORE_MODULECALLS_H
