# add_tile_kernel(<target>
#   SOURCES <file.tile.cpp>...
#   [BACKEND CUDA|HIP]          default CUDA
#   [ARCHS <arch>...]           CUDA: 90a 80 ... (default 90a); HIP: gfx90a ...
#   [SHARDS <n>]                translation units per source (default 4)
#   [DEBUG]                     device_assert checks (-DTILE_DEBUG)
#   [TUNING_TABLE <file.json>]  configurations measured fastest per device
#                               and key, compiled into the launch wrappers
#                               (what TILECC_CACHE_DIR's autotuning cache
#                               holds; docs/language.md, "Autotuning")
#   [TILECC_ARGS <arg>...])     passed to tilecc (e.g. --kernel name,
#                               --assume=aligned16)
#
# Each source's kernels are compiled as SHARDS translation units
# (name.tile.shardI.cu, tilecc --shards), so that the build compiles them
# in parallel and a compiler cache keeps them apart; tilecc fills as many
# as the code needs (a small file is one, the others empty). SHARDS 1
# compiles name.tile.cu, which holds every kernel.
#
# Creates a static library <target> holding the generated kernels and launch
# wrappers, and <target>_sources, the sources compiled as plain C++ (their
# emulation; built only when asked for), which gives each .tile.cpp a
# command in compile_commands.json for clangd and `tilecc -p`. For each source file `name.tile.cpp`, `#include "name.tile.h"`
# declares its launch wrappers (namespace tilecc). tilecc runs at build time
# with a depfile, so editing the kernel or a header it includes regenerates.
#
# CUDA: native code for every arch plus PTX for the oldest, so newer GPUs can
# JIT it. The CUDA runtime is linked statically, as nvcc does by default,
# unless CMAKE_CUDA_RUNTIME_LIBRARY is Shared: binaries then run on machines
# that have a driver but another toolkit or none.
#
# HIP: compiled with hipcc (CMake's HIP language does not work with Debian's
# ROCm 5.2); consumers get libamdhip64 and __HIP_PLATFORM_AMD__.
#
# With TILECC_PREGENERATED_DIR set, tilecc is not run: the generated files
# are taken from <dir>/<target>/<name>/ (for machines without LLVM).
#
# Needs TILECC_INCLUDE_DIR (the folder holding tile/tile.hpp) and the
# executable target tilecc::tilecc, both set by tilecc-config.cmake or by
# tilecc's own build.

# Where this file (and TileccResources.cmake beside it) was included from.
set(_TILECC_CMAKE_DIR ${CMAKE_CURRENT_LIST_DIR})

# A macro, so that it can enable CUDA in the caller's directory scope:
# enable_language() inside a function leaves the compile rules unset
# ("Missing variable is: CMAKE_CUDA_COMPILE_OBJECT"). Call it at file scope,
# or enable CUDA yourself first.
macro(add_tile_kernel target)
  if(NOT CMAKE_CUDA_COMPILER_LOADED AND NOT "${ARGN}" MATCHES "(^|;)BACKEND;HIP(;|$)")
    enable_language(CUDA)
  endif()
  _tilecc_add_tile_kernel(${target} ${ARGN})
endmacro()

function(_tilecc_add_tile_kernel target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "DEBUG" "BACKEND;SHARDS;TUNING_TABLE" "SOURCES;ARCHS;TILECC_ARGS")
  # DEBUG: device_assert checks (TILE_DEBUG), as Triton's debug=True.
  if(ARG_DEBUG)
    list(APPEND ARG_TILECC_ARGS -DTILE_DEBUG)
  endif()
  set(table_depends)
  if(ARG_TUNING_TABLE)
    get_filename_component(table_abs ${ARG_TUNING_TABLE} ABSOLUTE)
    if(NOT EXISTS ${table_abs})
      message(FATAL_ERROR "add_tile_kernel(${target}): TUNING_TABLE ${table_abs} does not exist")
    endif()
    list(APPEND ARG_TILECC_ARGS --tuning-table ${table_abs})
    set(table_depends ${table_abs})
  endif()
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "add_tile_kernel(${target}): no SOURCES")
  endif()
  if(NOT ARG_BACKEND)
    set(ARG_BACKEND CUDA)
  endif()
  if(NOT ARG_BACKEND MATCHES "^(CUDA|HIP)$")
    message(FATAL_ERROR "add_tile_kernel(${target}): BACKEND must be CUDA or HIP")
  endif()
  if(NOT DEFINED ARG_SHARDS)
    set(ARG_SHARDS 4)
  endif()
  if(NOT ARG_SHARDS MATCHES "^[1-9][0-9]*$" OR ARG_SHARDS GREATER 256)
    message(FATAL_ERROR "add_tile_kernel(${target}): SHARDS must be 1 to 256, got '${ARG_SHARDS}'")
  endif()
  if(NOT ARG_ARCHS)
    if(ARG_BACKEND STREQUAL "CUDA")
      set(ARG_ARCHS 90a)
    else()
      set(ARG_ARCHS gfx90a)
    endif()
  endif()
  # tilecc's target only picks the layout family (warp size): one CUDA
  # translation serves every CUDA arch.
  if(ARG_BACKEND STREQUAL "CUDA")
    set(tilecc_target sm_90a)
    set(kernel_ext cu)
  else()
    set(tilecc_target gfx90a)
    set(kernel_ext hip)
  endif()

  set(kernel_sources)
  set(launch_sources)
  set(include_dirs)
  foreach(src IN LISTS ARG_SOURCES)
    get_filename_component(src_abs ${src} ABSOLUTE)
    get_filename_component(name ${src} NAME)
    string(REGEX REPLACE "\\..*$" "" stem ${name})
    if(TILECC_PREGENERATED_DIR)
      set(outdir ${TILECC_PREGENERATED_DIR}/${target}/${stem})
    else()
      set(outdir ${CMAKE_CURRENT_BINARY_DIR}/${target}.tile/${stem})
    endif()
    set(pieces)
    set(shard_args)
    if(ARG_SHARDS EQUAL 1)
      set(pieces ${outdir}/${stem}.tile.${kernel_ext})
    else()
      math(EXPR last "${ARG_SHARDS} - 1")
      foreach(i RANGE ${last})
        list(APPEND pieces ${outdir}/${stem}.tile.shard${i}.${kernel_ext})
      endforeach()
      set(shard_args --shards ${ARG_SHARDS})
    endif()
    if(TILECC_PREGENERATED_DIR)
      foreach(piece IN LISTS pieces)
        if(NOT EXISTS ${piece})
          message(FATAL_ERROR "add_tile_kernel(${target}): TILECC_PREGENERATED_DIR "
                  "has no ${piece} (generated with SHARDS ${ARG_SHARDS}?)")
        endif()
      endforeach()
    else()
      add_custom_command(
        OUTPUT ${outdir}/${stem}.tile.h ${outdir}/${stem}.tile.${kernel_ext}
               ${outdir}/${stem}.tile.launch.cpp ${pieces}
        COMMAND tilecc::tilecc ${src_abs} -o ${outdir} --target ${tilecc_target}
                --depfile ${outdir}/${stem}.d ${shard_args} ${ARG_TILECC_ARGS}
        DEPENDS ${src_abs} tilecc::tilecc ${table_depends}
        DEPFILE ${outdir}/${stem}.d
        COMMENT "tilecc ${name}"
        VERBATIM)
    endif()
    list(APPEND kernel_sources ${pieces})
    list(APPEND launch_sources ${outdir}/${stem}.tile.launch.cpp)
    list(APPEND include_dirs ${outdir})
  endforeach()

  if(ARG_BACKEND STREQUAL "CUDA")
    find_package(CUDAToolkit REQUIRED)
    # The oldest arch is the one with the smallest number (90a -> 90).
    set(cuda_archs)
    set(oldest)
    foreach(arch IN LISTS ARG_ARCHS)
      list(APPEND cuda_archs ${arch}-real)
      string(REGEX MATCH "^[0-9]+" num ${arch})
      if(NOT oldest OR num LESS oldest_num)
        set(oldest ${arch})
        set(oldest_num ${num})
      endif()
    endforeach()
    list(APPEND cuda_archs ${oldest}-virtual)
    add_library(${target} STATIC ${kernel_sources} ${launch_sources})
    set_source_files_properties(${launch_sources} PROPERTIES LANGUAGE CXX)
    set_target_properties(${target} PROPERTIES
      CUDA_ARCHITECTURES "${cuda_archs}"
      POSITION_INDEPENDENT_CODE ON)
    # CMake 3.25 knows nvcc's standard flags only up to C++17, and a
    # CXX_STANDARD property would also be applied to the CUDA sources (a
    # configure error there): ask for C++20 by compile feature and flag.
    target_compile_features(${target} PUBLIC cxx_std_20)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-std=c++20>)
    # The executable that links this library is usually plain C++, which
    # CMake does not give a CUDA runtime: name it here.
    if(CMAKE_CUDA_RUNTIME_LIBRARY STREQUAL "Shared")
      target_link_libraries(${target} PUBLIC CUDA::cudart)
    else()
      target_link_libraries(${target} PUBLIC CUDA::cudart_static)
    endif()
    # ptxas's resource report (registers, spills, shared memory) per kernel
    # and arch, added to the metadata JSON tilecc wrote, from the compile
    # itself: our launcher runs the compile (behind the user's own launcher).
    if(NOT TILECC_PREGENERATED_DIR)
      set(launcher ${CMAKE_COMMAND} -P ${_TILECC_CMAKE_DIR}/TileccResources.cmake --
                   ${CMAKE_CUDA_COMPILER_LAUNCHER})
      set_target_properties(${target} PROPERTIES CUDA_COMPILER_LAUNCHER "${launcher}")
    endif()
  else()
    find_program(TILECC_HIPCC hipcc REQUIRED)
    find_library(TILECC_AMDHIP64 amdhip64 HINTS /opt/rocm/lib REQUIRED)
    set(offload)
    foreach(arch IN LISTS ARG_ARCHS)
      list(APPEND offload --offload-arch=${arch})
    endforeach()
    set(objects)
    foreach(file IN LISTS kernel_sources launch_sources)
      get_filename_component(fname ${file} NAME)
      get_filename_component(fdir ${file} DIRECTORY)
      set(obj ${CMAKE_CURRENT_BINARY_DIR}/${target}.tile/${fname}.o)
      # hipcc puts -std=c++11 first: ours, later, wins. The depfile covers
      # the per-kernel files the umbrella includes and tile/rt/*.
      add_custom_command(
        OUTPUT ${obj}
        COMMAND ${TILECC_HIPCC} ${offload} -std=c++20 -O3 -fPIC
                -I${TILECC_INCLUDE_DIR} -I${fdir} -MD -MF ${obj}.d
                -c ${file} -o ${obj}
        DEPENDS ${file}
        DEPFILE ${obj}.d
        COMMENT "hipcc ${fname}"
        VERBATIM)
      list(APPEND objects ${obj})
    endforeach()
    add_library(${target} STATIC ${objects})
    set_target_properties(${target} PROPERTIES LINKER_LANGUAGE CXX)
    # Host code including the launch headers needs HIP's platform macro.
    target_compile_definitions(${target} INTERFACE __HIP_PLATFORM_AMD__)
    target_link_libraries(${target} INTERFACE ${TILECC_AMDHIP64})
  endif()
  target_include_directories(${target} PUBLIC ${include_dirs} ${TILECC_INCLUDE_DIR})

  # Each .tile.cpp as the plain C++ it also is (its emulation), in a library
  # built only when asked for (<target>_sources): the build's
  # compile_commands.json then has a command for it, which clangd reads for
  # completion and errors while a kernel is edited, and `tilecc -p` for its
  # include paths and macros. TILECC_ARGS' -I and -D apply to it too.
  set(source_paths)
  foreach(src IN LISTS ARG_SOURCES)
    get_filename_component(src_abs ${src} ABSOLUTE)
    list(APPEND source_paths ${src_abs})
  endforeach()
  add_library(${target}_sources OBJECT EXCLUDE_FROM_ALL ${source_paths})
  set_source_files_properties(${source_paths} TARGET_DIRECTORY ${target}_sources
    PROPERTIES LANGUAGE CXX)
  target_compile_features(${target}_sources PRIVATE cxx_std_20)
  target_include_directories(${target}_sources PRIVATE ${TILECC_INCLUDE_DIR})
  foreach(arg IN LISTS ARG_TILECC_ARGS)
    if(arg MATCHES "^-I(.+)$")
      target_include_directories(${target}_sources PRIVATE ${CMAKE_MATCH_1})
    elseif(arg MATCHES "^-D(.+)$")
      target_compile_definitions(${target}_sources PRIVATE ${CMAKE_MATCH_1})
    endif()
  endforeach()
endfunction()
