# tile_add_kernel(<target> NAME <name> SOURCE <kernel.tile>
#                 SIGNATURES <sig> [<sig>...]
#                 [KERNEL <function>] [NUM_WARPS <n>] [NUM_STAGES <n>]
#                 [ARCH <sm_90a>] [CUBIN] [PTXAS <path>])
#
# Compiles the kernel ahead of time when <target> builds: tile-compile
# writes <name>.h and <name>.c (one launcher, `int <name>(stream, grid_x,
# grid_y, grid_z, args...)`, over the specializations the signatures name;
# see tile-compile --help), which join <target>'s sources; `#include
# "<name>.h"` finds the header. The generated code needs the CUDA driver only
# (libcuda.so.1, opened at run time) and C: the project enables LANGUAGES C.
# CUBIN embeds each specialization's cubin for ARCH too, so the launcher
# needs no JIT on that GPU; it runs ptxas at build time (PTXAS, else the
# TILE_PTXAS variable, else ptxas on the PATH or in /usr/local/cuda/bin).
function(tile_add_kernel target)
  cmake_parse_arguments(ARG "CUBIN" "NAME;SOURCE;KERNEL;NUM_WARPS;NUM_STAGES;ARCH;PTXAS"
                        "SIGNATURES" ${ARGN})
  if(NOT ARG_NAME OR NOT ARG_SOURCE OR NOT ARG_SIGNATURES)
    message(FATAL_ERROR "tile_add_kernel(${target}) needs NAME, SOURCE and SIGNATURES")
  endif()
  get_filename_component(source "${ARG_SOURCE}" ABSOLUTE)
  set(dir "${CMAKE_CURRENT_BINARY_DIR}/tile_kernels")
  set(options)
  foreach(signature IN LISTS ARG_SIGNATURES)
    list(APPEND options --signature "${signature}")
  endforeach()
  if(ARG_KERNEL)
    list(APPEND options --kernel "${ARG_KERNEL}")
  endif()
  if(ARG_NUM_WARPS)
    list(APPEND options --num-warps "${ARG_NUM_WARPS}")
  endif()
  if(ARG_NUM_STAGES)
    list(APPEND options --num-stages "${ARG_NUM_STAGES}")
  endif()
  if(ARG_ARCH)
    list(APPEND options --target "${ARG_ARCH}")
  endif()
  if(ARG_CUBIN)
    list(APPEND options --cubin)
    if(NOT ARG_PTXAS AND TILE_PTXAS)
      set(ARG_PTXAS "${TILE_PTXAS}")
    endif()
    if(ARG_PTXAS)
      list(APPEND options --ptxas "${ARG_PTXAS}")
    endif()
  endif()
  add_custom_command(
    OUTPUT "${dir}/${ARG_NAME}.h" "${dir}/${ARG_NAME}.c"
    COMMAND ${CMAKE_COMMAND} -E make_directory "${dir}"
    COMMAND Tile::tile-compile "${source}" -o "${dir}/${ARG_NAME}" ${options}
    DEPENDS "${source}" Tile::tile-compile
    COMMENT "tile-compile ${ARG_NAME} (${ARG_SOURCE})"
    VERBATIM)
  target_sources(${target} PRIVATE "${dir}/${ARG_NAME}.c" "${dir}/${ARG_NAME}.h")
  target_include_directories(${target} PRIVATE "${dir}")
  find_package(Threads REQUIRED)
  target_link_libraries(${target} PRIVATE Threads::Threads ${CMAKE_DL_LIBS})
endfunction()
