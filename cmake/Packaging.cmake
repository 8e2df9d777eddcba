# The Debian package: `cpack -G DEB` in the build directory writes
# ddp-lint_<version>_<arch>.deb, installing under /usr what
# cmake/Install.cmake installs.
#
# Its dependencies: the shared libraries of ddp-clang-tidy and ddp-lint
# (libclang-cpp<N>, libllvm<N>, ...) as dpkg-shlibdeps computes them, and the
# clang-tidy of the same LLVM release, which the plugin loads into (and which
# brings Clang's resource headers, libclang-common-<N>-dev, that both tools
# parse with).
set(DDP_PACKAGE_MAINTAINER
  "ddp-lint maintainers <maintainers@users.noreply.a-seed-ac33ba5c.example>"
  CACHE STRING "Maintainer field of the Debian package")

set(CPACK_PACKAGE_NAME "ddp-lint")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_CONTACT "${DDP_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "static analyzer for distributed-training hangs in C++")
set(CPACK_PACKAGE_DESCRIPTION
"ddp-lint finds the bugs that hang distributed training: collectives,
barriers and point-to-point exchanges that only some ranks reach, data
loaders whose batch counts differ between ranks, rendezvous set-up on which
the ranks never meet, in C++ that uses LibTorch's c10d, NCCL or MPI.

This package holds a clang-tidy plugin for clang-tidy-${LLVM_VERSION_MAJOR}, ddp-clang-tidy (a
clang-tidy ${LLVM_VERSION_MAJOR} with the ddp checks built in), the whole-program driver
ddp-lint, the documentation, and the CMake package DdpLint
(find_package(DdpLint)).")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_STRIP_FILES ON)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "devel")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${DDP_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# At least the clang-tidy the plugin was built beside, where dpkg knows it.
set(DDP_CLANG_TIDY_PACKAGE "clang-tidy-${LLVM_VERSION_MAJOR}")
set(CPACK_DEBIAN_PACKAGE_DEPENDS "${DDP_CLANG_TIDY_PACKAGE}")
find_program(DDP_DPKG_QUERY dpkg-query)
if(DDP_DPKG_QUERY)
  execute_process(
    COMMAND "${DDP_DPKG_QUERY}" -W "-f=\${Version}" "${DDP_CLANG_TIDY_PACKAGE}"
    OUTPUT_VARIABLE DDP_CLANG_TIDY_PACKAGE_VERSION
    RESULT_VARIABLE DDP_DPKG_QUERY_RESULT ERROR_QUIET)
  # 1:22.1.8-1~deb12u1: the upstream version, without the Debian revision.
  if(DDP_DPKG_QUERY_RESULT EQUAL 0
      AND DDP_CLANG_TIDY_PACKAGE_VERSION MATCHES "^(.+)-[^-]+$")
    set(CPACK_DEBIAN_PACKAGE_DEPENDS
      "${DDP_CLANG_TIDY_PACKAGE} (>= ${CMAKE_MATCH_1})")
  endif()
endif()

set(CPACK_GENERATOR "DEB")
include(CPack)
