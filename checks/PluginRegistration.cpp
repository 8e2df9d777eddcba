//===--- PluginRegistration.cpp - Registers the module when --load'ed -----===//
//
// A plugin built for one LLVM release must not run inside a clang-tidy of
// another: the C++ ABI of clang's classes differs between releases and the
// result is a crash. Where the host's release can be seen (the libLLVM or
// libclang-cpp it loaded, or the llvm-N directory of the executable), a
// mismatch is reported in one line and the checks are not registered.
//
//===----------------------------------------------------------------------===//

#include "DdpTidyModule.h"
#include "llvm/ADT/StringRef.h"
#include <cstdio>
#include <initializer_list>
#include <link.h>
#include <string>
#include <unistd.h>

#ifndef DDP_LLVM_MAJOR
#error "DDP_LLVM_MAJOR must name the LLVM major version the plugin is built for"
#endif

namespace {

/// The LLVM major version after one of \p Markers in \p Path, such as
/// ".../libLLVM.so.19.1" or "/usr/lib/llvm-19/bin/clang-tidy", or 0.
int majorInPath(llvm::StringRef Path,
                std::initializer_list<llvm::StringRef> Markers) {
  for (llvm::StringRef Marker : Markers) {
    size_t At = Path.rfind(Marker);
    if (At == llvm::StringRef::npos)
      continue;
    llvm::StringRef Digits =
        Path.substr(At + Marker.size()).take_while([](char C) {
          return C >= '0' && C <= '9';
        });
    unsigned Major;
    if (!Digits.empty() && !Digits.getAsInteger(10, Major))
      return static_cast<int>(Major);
  }
  return 0;
}

int hostMajor() {
  int Found = 0;
  // The LLVM libraries the host loaded (not this plugin's own path, which
  // may well contain "llvm-N" too).
  dl_iterate_phdr(
      [](dl_phdr_info *Info, size_t, void *Data) {
        int Major = Info->dlpi_name
                        ? majorInPath(Info->dlpi_name,
                                      {"libLLVM.so.", "libLLVM-",
                                       "libclang-cpp.so."})
                        : 0;
        if (Major)
          *static_cast<int *>(Data) = Major;
        return Major ? 1 : 0;
      },
      &Found);
  if (Found)
    return Found;
  char Exe[4096];
  ssize_t Len = readlink("/proc/self/exe", Exe, sizeof(Exe) - 1);
  if (Len > 0)
    return majorInPath(llvm::StringRef(Exe, Len), {"/llvm-"});
  return 0;
}

struct Registrar {
  Registrar() {
    int Host = hostMajor();
    if (Host && Host != DDP_LLVM_MAJOR) {
      std::fprintf(stderr,
                   "error: the ddp-lint plugin was built for LLVM %d but was "
                   "loaded into clang-tidy of LLVM %d; use clang-tidy-%d, or "
                   "ddp-clang-tidy, or rebuild the plugin with "
                   "-DDDP_LLVM_VERSION=%d; the ddp checks are not available\n",
                   DDP_LLVM_MAJOR, Host, DDP_LLVM_MAJOR, Host);
      return;
    }
    clang::tidy::ddp::registerDdpModule();
  }
} TheRegistrar;

} // namespace
