# -*- Python -*-
# lit configuration for Tile's tests.

import ctypes
import os
import shutil

import lit.formats
from lit.llvm import llvm_config

config.name = "Tile"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".tile", ".test"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt", "lib",
                   "Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tile_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%tile_src_root", config.tile_src_root))
config.substitutions.append(("%kernels", os.path.join(config.tile_src_root, "kernels")))
config.substitutions.append(("%tile_obj_root", config.tile_obj_root))

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.tile_tools_dir, append_path=True)
llvm_config.add_tool_substitutions(
    ["tile-opt", "tile-run", "tile-compile", "tile-api-test"],
    [config.tile_tools_dir])

# tile-run's kernel cache is off in tests, so that each run compiles and
# nothing is written under $HOME; the cache's own tests turn it on
# (TILE_CACHE_DISABLE=0) with a TILE_CACHE_DIR of their own.
config.environment["TILE_CACHE_DISABLE"] = "1"

# ptxas: tests that assemble the emitted PTX run only where it is on the PATH.
ptxas = shutil.which("ptxas")
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))

# compute-sanitizer: GPU tests that run under it, where it is on the PATH.
if shutil.which("compute-sanitizer"):
    config.available_features.add("compute-sanitizer")

# cuda: GPU tests run only where the driver loads.
try:
    ctypes.CDLL("libcuda.so.1")
    config.available_features.add("cuda")
except OSError:
    pass

# libfuzzer: the front-end fuzzer (tools/tile-frontend-fuzzer, built with
# clang in build-fuzz/ by scripts/fuzz.sh) runs briefly where it was built.
# `lit --param tile_fuzzer=PATH` points at another build of it.
tile_fuzzer = lit_config.params.get("tile_fuzzer",
                                    getattr(config, "tile_fuzzer", ""))
if tile_fuzzer and os.access(tile_fuzzer, os.X_OK):
    config.available_features.add("libfuzzer")
    config.substitutions.append(("%tile-frontend-fuzzer", tile_fuzzer))
