# Flags of the fuzzing build (-DTILE_FUZZ=ON): libFuzzer's coverage
# instrumentation, AddressSanitizer and UndefinedBehaviorSanitizer on every
# source. UBSan's vptr check needs RTTI, which LLVM is built without; every
# UBSan report aborts so that libFuzzer records it as a crash.
if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "TILE_FUZZ needs clang (libFuzzer): configure with "
                      "-DCMAKE_CXX_COMPILER=clang++-14")
endif()
if(TILE_STATIC_LLVM)
  message(FATAL_ERROR "TILE_FUZZ links the shared LLVM/MLIR; drop TILE_STATIC_LLVM")
endif()
set(TILE_FUZZ_SANITIZERS "address,undefined" CACHE STRING
    "Sanitizers of the fuzzing build, besides fuzzer-no-link")
add_compile_options(
  -fsanitize=fuzzer-no-link,${TILE_FUZZ_SANITIZERS}
  -fno-sanitize=vptr -fno-sanitize-recover=all
  -O1 -gline-tables-only -fno-omit-frame-pointer -UNDEBUG)
add_link_options(-fsanitize=${TILE_FUZZ_SANITIZERS})
