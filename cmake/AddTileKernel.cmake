# add_tile_kernel(<target>
#   SOURCES <file.tile.cpp>...
#   [BACKEND CUDA|HIP]          default CUDA
#   [ARCHS <arch>...]           CUDA: 90a 80 ... (default 90a); HIP: gfx90a ...
#   [TILECC_ARGS <arg>...])     passed to tilecc (e.g. --kernel name)
#
# Creates a static library <target> holding the generated kernels and launch
# wrappers. For each source file `name.tile.cpp`, `#include "name.tile.h"`
# declares its launch wrappers (namespace tilecc). tilecc runs at build time
# with a depfile, so editing the kernel or a header it includes regenerates.
#
# With TILECC_PREGENERATED_DIR set, tilecc is not run: the generated files
# are taken from <dir>/<target>/<name>/ (for machines without LLVM).

set(_TILECC_CMAKE_DIR ${CMAKE_CURRENT_LIST_DIR})

function(add_tile_kernel target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "BACKEND" "SOURCES;ARCHS;TILECC_ARGS")
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "add_tile_kernel(${target}): no SOURCES")
  endif()
  if(NOT ARG_BACKEND)
    set(ARG_BACKEND CUDA)
  endif()
  if(NOT ARG_BACKEND MATCHES "^(CUDA|HIP)$")
    message(FATAL_ERROR "add_tile_kernel(${target}): BACKEND must be CUDA or HIP")
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
    set(outdir ${CMAKE_CURRENT_BINARY_DIR}/${target}.tile/${stem})
    set(outputs ${outdir}/${stem}.tile.h ${outdir}/${stem}.tile.${kernel_ext}
                ${outdir}/${stem}.tile.launch.cpp)
    if(TILECC_PREGENERATED_DIR)
      set(outdir ${TILECC_PREGENERATED_DIR}/${target}/${stem})
      set(outputs ${outdir}/${stem}.tile.h ${outdir}/${stem}.tile.${kernel_ext}
                  ${outdir}/${stem}.tile.launch.cpp)
    else()
      add_custom_command(
        OUTPUT ${outputs}
        COMMAND tilecc::tilecc ${src_abs} -o ${outdir} --target ${tilecc_target}
                --depfile ${outdir}/${stem}.d ${ARG_TILECC_ARGS}
        DEPENDS ${src_abs} tilecc::tilecc
        DEPFILE ${outdir}/${stem}.d
        COMMENT "tilecc ${name}"
        VERBATIM)
    endif()
    list(APPEND kernel_sources ${outdir}/${stem}.tile.${kernel_ext})
    list(APPEND launch_sources ${outdir}/${stem}.tile.launch.cpp)
    list(APPEND include_dirs ${outdir})
  endforeach()

  if(ARG_BACKEND STREQUAL "CUDA")
    enable_language(CUDA)
    find_package(CUDAToolkit REQUIRED)
    set(cuda_archs)
    foreach(arch IN LISTS ARG_ARCHS)
      # Native code for each arch; PTX as well for the oldest, so newer
      # GPUs can run it through the driver's JIT.
      list(APPEND cuda_archs ${arch}-real)
    endforeach()
    list(GET ARG_ARCHS -1 oldest)
    list(APPEND cuda_archs ${oldest}-virtual)
    add_library(${target} STATIC ${kernel_sources} ${launch_sources})
    set_source_files_properties(${launch_sources} PROPERTIES LANGUAGE CXX)
    set_target_properties(${target} PROPERTIES
      CUDA_ARCHITECTURES "${cuda_archs}"
      CUDA_STANDARD 20 CUDA_STANDARD_REQUIRED ON
      CXX_STANDARD 20 CXX_STANDARD_REQUIRED ON
      POSITION_INDEPENDENT_CODE ON)
    target_link_libraries(${target} PUBLIC CUDA::cudart)
  else()
    # CMake's HIP language does not work with Debian's ROCm 5.2: compile with
    # hipcc directly.
    find_program(TILECC_HIPCC hipcc REQUIRED)
    set(objects)
    set(offload)
    foreach(arch IN LISTS ARG_ARCHS)
      list(APPEND offload --offload-arch=${arch})
    endforeach()
    foreach(file IN LISTS kernel_sources launch_sources)
      get_filename_component(fname ${file} NAME)
      set(obj ${CMAKE_CURRENT_BINARY_DIR}/${target}.tile/${fname}.o)
      get_filename_component(fdir ${file} DIRECTORY)
      add_custom_command(
        OUTPUT ${obj}
        COMMAND ${TILECC_HIPCC} ${offload} -std=c++20 -O3 -fPIC
                -I${TILECC_INCLUDE_DIR} -I${fdir} -c ${file} -o ${obj}
        DEPENDS ${file}
        COMMENT "hipcc ${fname}"
        VERBATIM)
      list(APPEND objects ${obj})
    endforeach()
    add_library(${target} STATIC ${objects})
    set_target_properties(${target} PROPERTIES LINKER_LANGUAGE CXX)
  endif()
  target_include_directories(${target} PUBLIC ${include_dirs} ${TILECC_INCLUDE_DIR})
endfunction()
