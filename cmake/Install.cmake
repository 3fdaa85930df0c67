# Installs the translator, the runtime headers and the `tilecc` CMake package:
#
#   <prefix>/bin/tilecc
#   <prefix>/bin/tilecc-tune                   autotuning caches to a table
#   <prefix>/include/tile/...                  tile.hpp, types.hpp, rt/*.cuh
#   <prefix>/lib/cmake/tilecc/tilecc-config.cmake, -config-version.cmake,
#                              AddTileKernel.cmake, TileccResources.cmake
#
# bin/ and include/ are fixed (not CMAKE_INSTALL_BINDIR/INCLUDEDIR): an
# installed tilecc finds its headers at <exe>/../include/tile/tile.hpp, so the
# two must stay siblings whatever the distribution's conventions.

include(CMakePackageConfigHelpers)

set(TILECC_INSTALL_CMAKEDIR lib/cmake/tilecc)

# tilecc links the shared libLLVM and libclang-cpp: keep the paths it was
# linked against, so an install under any prefix runs without LD_LIBRARY_PATH.
set_target_properties(tilecc PROPERTIES INSTALL_RPATH_USE_LINK_PATH ON)
install(TARGETS tilecc RUNTIME DESTINATION bin)
install(PROGRAMS ${PROJECT_SOURCE_DIR}/scripts/tilecc-tune DESTINATION bin)
install(DIRECTORY ${TILECC_RUNTIME_HEADERS_DIR}/tile DESTINATION include)

configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/tilecc-config.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/tilecc-config.cmake
  INSTALL_DESTINATION ${TILECC_INSTALL_CMAKEDIR})
# Generated code is only guaranteed to match the headers of the same minor
# release, hence SameMinorVersion.
write_basic_package_version_file(
  ${CMAKE_CURRENT_BINARY_DIR}/tilecc-config-version.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${CMAKE_CURRENT_BINARY_DIR}/tilecc-config.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/tilecc-config-version.cmake
  ${CMAKE_CURRENT_LIST_DIR}/AddTileKernel.cmake
  ${CMAKE_CURRENT_LIST_DIR}/TileccResources.cmake
  DESTINATION ${TILECC_INSTALL_CMAKEDIR})
