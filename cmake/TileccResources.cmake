# Adds what ptxas reports about each generated kernel -- registers, spills,
# stack frame and static shared memory, per arch -- to the metadata files
# tilecc wrote beside it (variants[i].resources.sm_XX in K.json).
#
#   cmake -DNVCC=... -DARCHS="90a;80" -DINCLUDES="dir;dir" -DSOURCE=x.tile.cu
#         -DDIR=<tilecc output dir> -DSTAMP=<file> -P TileccResources.cmake

set(include_flags)
foreach(dir IN LISTS INCLUDES)
  list(APPEND include_flags -I${dir})
endforeach()

# Per mangled kernel name and arch: "registers stack spill_stores
# spill_loads smem".
set(kernels)
foreach(arch IN LISTS ARCHS)
  execute_process(
    COMMAND ${NVCC} -std=c++20 -cubin -arch=sm_${arch} -Xptxas -v
            ${include_flags} ${SOURCE} -o ${DIR}/resources.sm_${arch}.cubin
    RESULT_VARIABLE rc ERROR_VARIABLE log OUTPUT_QUIET)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "ptxas resource report for ${SOURCE} failed:\n${log}")
  endif()
  file(REMOVE ${DIR}/resources.sm_${arch}.cubin)
  string(REPLACE "\n" ";" lines "${log}")
  set(current)
  foreach(line IN LISTS lines)
    if(line MATCHES "Compiling entry function '([^']+)' for 'sm_([0-9a-z]+)'")
      set(current ${CMAKE_MATCH_1})
      set(cur_arch ${CMAKE_MATCH_2})
      set(stack 0)
      set(spill_st 0)
      set(spill_ld 0)
    elseif(current AND line MATCHES "([0-9]+) bytes stack frame, ([0-9]+) bytes spill stores, ([0-9]+) bytes spill loads")
      set(stack ${CMAKE_MATCH_1})
      set(spill_st ${CMAKE_MATCH_2})
      set(spill_ld ${CMAKE_MATCH_3})
    elseif(current AND line MATCHES "Used ([0-9]+) registers")
      set(regs ${CMAKE_MATCH_1})
      set(smem 0)
      if(line MATCHES "([0-9]+) bytes smem")
        set(smem ${CMAKE_MATCH_1})
      endif()
      list(APPEND kernels ${current})
      set(res_${current}_${cur_arch}
          "{\"registers\": ${regs}, \"stack_frame_bytes\": ${stack}, \"spill_store_bytes\": ${spill_st}, \"spill_load_bytes\": ${spill_ld}, \"static_shared_bytes\": ${smem}}")
      set(current)
    endif()
  endforeach()
endforeach()

file(GLOB metadata ${DIR}/*.json)
foreach(file IN LISTS metadata)
  file(READ ${file} json)
  string(JSON count ERROR_VARIABLE err LENGTH "${json}" variants)
  if(err)
    continue()
  endif()
  math(EXPR last "${count} - 1")
  foreach(i RANGE ${last})
    string(JSON name GET "${json}" variants ${i} name)
    string(LENGTH "${name}" len)
    set(resources "{}")
    foreach(mangled IN LISTS kernels)
      # Itanium mangling spells the kernel's name as <length><name>.
      string(FIND "${mangled}" "${len}${name}E" at)
      if(at EQUAL -1)
        continue()
      endif()
      foreach(arch IN LISTS ARCHS)
        if(DEFINED res_${mangled}_${arch})
          string(JSON resources SET "${resources}" "sm_${arch}" "${res_${mangled}_${arch}}")
        endif()
      endforeach()
    endforeach()
    string(JSON json SET "${json}" variants ${i} resources "${resources}")
  endforeach()
  file(WRITE ${file} "${json}\n")
endforeach()
file(TOUCH ${STAMP})
