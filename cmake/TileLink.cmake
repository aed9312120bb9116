# How Tile's libraries and tools are linked against LLVM and MLIR.
#
# Tile's own libraries are static archives that record no link dependency on
# LLVM or MLIR; each tool then links one consistent set: the shared
# libMLIR.so + libLLVM.so (default), or every static MLIR archive plus LLVM's
# static component archives inside one linker group (TILE_STATIC_LLVM), from
# which the linker pulls only the objects that are referenced.

function(tile_add_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPENDS;LINK" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  if(ARG_DEPENDS)
    add_dependencies(${name} ${ARG_DEPENDS})
  endif()
  if(ARG_LINK)
    target_link_libraries(${name} PUBLIC ${ARG_LINK})
  endif()
  set_property(GLOBAL APPEND PROPERTY TILE_LIBRARIES ${name})
endfunction()

# Compiles `name`'s sources as unity sources of at most 16 files (see
# TILE_UNITY_BUILD in the top-level CMakeLists.txt); GROUPS NAME FILES...
# puts those files in a unity source of their own (files whose file-scope
# using-directives clash with the others').
function(tile_unity_build name)
  if(NOT TILE_UNITY_BUILD)
    return()
  endif()
  cmake_parse_arguments(ARG "" "" "GROUPS" ${ARGN})
  set_target_properties(${name} PROPERTIES UNITY_BUILD ON
                                           UNITY_BUILD_BATCH_SIZE 16)
  if(ARG_GROUPS)
    set_target_properties(${name} PROPERTIES UNITY_BUILD_MODE GROUP)
    set(group "")
    foreach(item ${ARG_GROUPS})
      if(item MATCHES "\\.cpp$")
        set_source_files_properties(${item} PROPERTIES UNITY_GROUP ${group})
      else()
        set(group ${item})
      endif()
    endforeach()
  endif()
endfunction()

if(TILE_STATIC_LLVM)
  file(GLOB TILE_MLIR_ARCHIVES "${LLVM_LIBRARY_DIR}/libMLIR*.a")
  list(FILTER TILE_MLIR_ARCHIVES EXCLUDE REGEX "libMLIR(CAPI|Python|ExecutionEngine|JitRunner|Mlir|RocmTarget|ROCDLTarget)")
  execute_process(
    COMMAND ${LLVM_TOOLS_BINARY_DIR}/llvm-config --link-static --libs all
    OUTPUT_VARIABLE TILE_LLVM_STATIC_LIBS OUTPUT_STRIP_TRAILING_WHITESPACE)
  separate_arguments(TILE_LLVM_STATIC_LIBS UNIX_COMMAND "${TILE_LLVM_STATIC_LIBS}")
  # Debian lists Polly among "all" without shipping its archives.
  list(FILTER TILE_LLVM_STATIC_LIBS EXCLUDE REGEX "Polly")
  # Only what the tools really use: z3 and libxml2 are absent on the GPU machine.
  set(TILE_LLVM_SYSTEM_LIBS rt dl m z zstd pthread)
endif()

function(tile_link_llvm target)
  if(TILE_STATIC_LLVM)
    # Tile's own archives join the group: they and MLIR refer to each other.
    get_property(tile_libraries GLOBAL PROPERTY TILE_LIBRARIES)
    set(tile_archives)
    foreach(lib ${tile_libraries})
      list(APPEND tile_archives $<TARGET_FILE:${lib}>)
    endforeach()
    target_link_directories(${target} PRIVATE ${LLVM_LIBRARY_DIR})
    target_link_libraries(${target} PRIVATE
      -Wl,--start-group ${tile_archives} ${TILE_MLIR_ARCHIVES}
      ${TILE_LLVM_STATIC_LIBS} -Wl,--end-group
      ${TILE_LLVM_SYSTEM_LIBS} ${CMAKE_DL_LIBS})
    # Tools carry their C++ runtime; libtile.so uses the program's.
    get_target_property(type ${target} TYPE)
    if(NOT type STREQUAL "SHARED_LIBRARY")
      target_link_libraries(${target} PRIVATE -static-libstdc++ -static-libgcc)
    endif()
  else()
    target_link_libraries(${target} PRIVATE MLIR LLVM ${CMAKE_DL_LIBS})
  endif()
endfunction()
