# Installation: `cmake --install <build> [--prefix <dir>]` puts
#
#   bin/ddp-clang-tidy, bin/ddp-lint (and bin/ddp-clangd when it is built)
#   <libdir>/ddp-lint/libDdpLintPlugin.so
#   <libdir>/cmake/DdpLint/     the package find_package(DdpLint) reads
#   share/doc/ddp-lint/         README.md, docs/*.md, docs/checks/*.rst
#
# Included from the top-level CMakeLists.txt after every add_subdirectory, so
# that every product target exists here.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(DDP_INSTALL_PLUGINDIR "${CMAKE_INSTALL_LIBDIR}/ddp-lint")
set(DDP_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/DdpLint")

# The clang-tidy the plugin must be loaded into: the one of the LLVM release
# it was built against. The package records its path.
set(DDP_LINT_HOST_CLANG_TIDY "${LLVM_TOOLS_BINARY_DIR}/clang-tidy" CACHE FILEPATH
  "The clang-tidy of LLVM ${LLVM_VERSION_MAJOR} that installed projects load the plugin into")

# The executables link LLVM's and Clang's shared libraries. Where those are
# found in the system's library directories (Debian installs them in
# /usr/lib/<triplet> and links them into /usr/lib/llvm-<N>/lib), the installed
# executables need no run path, and must have none for dpkg-shlibdeps to
# credit the libraries to their packages (libllvm<N>, libclang-cpp<N>) rather
# than to the -dev package that owns the link in /usr/lib/llvm-<N>/lib.
# Elsewhere (an LLVM of one's own in /opt) they get LLVM's library directory.
set(DDP_INSTALL_RPATH "")
foreach(lib LLVM clang-cpp)
  set(link "${LLVM_LIBRARY_DIR}/lib${lib}${CMAKE_SHARED_LIBRARY_SUFFIX}")
  if(EXISTS "${link}")
    file(REAL_PATH "${link}" real)
    get_filename_component(dir "${real}" DIRECTORY)
    if(NOT dir IN_LIST CMAKE_CXX_IMPLICIT_LINK_DIRECTORIES)
      set(DDP_INSTALL_RPATH "${LLVM_LIBRARY_DIR}")
    endif()
  endif()
endforeach()
set_target_properties(ddp-clang-tidy ddp-lint PROPERTIES
  INSTALL_RPATH "${DDP_INSTALL_RPATH}")

install(TARGETS ddp-clang-tidy ddp-lint
  EXPORT DdpLintTargets
  RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}" COMPONENT ddp-lint)
install(TARGETS DdpLintPlugin
  EXPORT DdpLintTargets
  LIBRARY DESTINATION "${DDP_INSTALL_PLUGINDIR}" COMPONENT ddp-lint)

# The language server, where this tree builds one (tools/ddp-clangd).
if(TARGET ddp-clangd)
  set_target_properties(ddp-clangd PROPERTIES INSTALL_RPATH "${DDP_INSTALL_RPATH}")
  install(TARGETS ddp-clangd
    EXPORT DdpLintTargets
    RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}" COMPONENT ddp-lint)
endif()

install(FILES README.md
  DESTINATION "${CMAKE_INSTALL_DOCDIR}" COMPONENT ddp-lint)
file(GLOB DDP_DOC_PAGES CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/docs/*.md")
install(FILES ${DDP_DOC_PAGES}
  DESTINATION "${CMAKE_INSTALL_DOCDIR}/docs" COMPONENT ddp-lint)
file(GLOB DDP_CHECK_PAGES CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/docs/checks/*.rst")
install(FILES ${DDP_CHECK_PAGES}
  DESTINATION "${CMAKE_INSTALL_DOCDIR}/docs/checks" COMPONENT ddp-lint)

# The CMake package: imported targets DdpLint::ddp-clang-tidy,
# DdpLint::ddp-lint, DdpLint::DdpLintPlugin (and DdpLint::ddp-clangd), the
# variables DdpLint_PLUGIN, DdpLint_CLANG_TIDY, ..., and the helpers
# ddp_lint_enable_clang_tidy() and ddp_lint_add_analysis() (whose link step
# is DdpLintLink.cmake).
install(EXPORT DdpLintTargets
  NAMESPACE DdpLint::
  DESTINATION "${DDP_INSTALL_CMAKEDIR}" COMPONENT ddp-lint)
set(DDP_PLUGIN_FILE
  "${DDP_INSTALL_PLUGINDIR}/libDdpLintPlugin${CMAKE_SHARED_MODULE_SUFFIX}")
configure_package_config_file(
  "${PROJECT_SOURCE_DIR}/cmake/DdpLintConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/cmake/DdpLintConfig.cmake"
  INSTALL_DESTINATION "${DDP_INSTALL_CMAKEDIR}"
  PATH_VARS DDP_PLUGIN_FILE CMAKE_INSTALL_BINDIR)
# Before 1.0 a minor release may change the checks' names and options.
write_basic_package_version_file(
  "${PROJECT_BINARY_DIR}/cmake/DdpLintConfigVersion.cmake"
  VERSION "${PROJECT_VERSION}"
  COMPATIBILITY SameMinorVersion)
install(FILES
  "${PROJECT_BINARY_DIR}/cmake/DdpLintConfig.cmake"
  "${PROJECT_BINARY_DIR}/cmake/DdpLintConfigVersion.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/DdpLintLink.cmake"
  DESTINATION "${DDP_INSTALL_CMAKEDIR}" COMPONENT ddp-lint)
