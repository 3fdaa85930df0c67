# lit configuration for tilecc's golden tests (tests/golden, tests/compile).
import os
import lit.formats

config.name = "tilecc"
config.test_format = lit.formats.ShTest(execute_external=False)
# lit matches the last extension: .tile.cpp files are ".cpp"; .tir files
# are TileIR for tests of one pass (tests/passes).
config.suffixes = [".cpp", ".test", ".tir"]
config.test_source_root = config.tests_src_dir
# test_exec_root is set by lit.site.cfg.py, in the build tree.
config.excludes = ["unit", "consumer", "gpu", "conformance", "Inputs",
                   "CMakeLists.txt"]

# The executable, for scripts that run it (they pass --verify-format).
config.substitutions.append(("%tilecc-bin", config.tilecc))
# Every file a test writes is also checked against whole-file clang-format.
config.substitutions.append(("%tilecc", config.tilecc + " --verify-format"))
# Bad kernels: FileCheck that also fails on any error placed inside tile's
# own headers (an error belongs at the user's line, the library's detail in
# notes after it).
config.substitutions.append(
    ("%check-errors",
     config.filecheck + ' --implicit-check-not="{{/tile/[a-z_/]+[.](hpp|cuh):[0-9]+:[0-9]+: (fatal )?error}}"'))
config.substitutions.append(("%FileCheck", config.filecheck))
config.substitutions.append(("%rt", config.runtime_headers))
config.substitutions.append(("%samples", config.samples_dir))
config.substitutions.append(
    ("%scripts", os.path.join(os.path.dirname(config.samples_dir), "scripts")))
# Generated code must compile warning-free for every target.
config.substitutions.append(
    ("%nvcc-sm90a",
     f"{config.nvcc} -std=c++20 -gencode arch=compute_90a,code=sm_90a "
     f"-Werror all-warnings -Xcompiler -Wall,-Wextra,-Werror -I{config.runtime_headers} -c"))
config.substitutions.append(
    ("%nvcc-sm80",
     f"{config.nvcc} -std=c++20 -gencode arch=compute_80,code=sm_80 "
     f"-Werror all-warnings -Xcompiler -Wall,-Wextra,-Werror -I{config.runtime_headers} -c"))
# PTX, to check the instructions an access helper becomes.
config.substitutions.append(
    ("%nvcc-ptx-sm80",
     f"{config.nvcc} -std=c++20 -arch=sm_80 -I{config.runtime_headers} -ptx"))
config.substitutions.append(
    ("%hipcc-gfx90a",
     f"{config.hipcc} --offload-arch=gfx90a -std=c++20 -O3 -Wall -Wextra "
     f"-Werror -I{config.runtime_headers} -c"))
config.substitutions.append(
    ("%host-cxx",
     f"c++ -std=c++20 -Wall -Wextra -Werror -I{config.runtime_headers} "
     f"-I/usr/local/cuda/include -c"))
config.substitutions.append(("%not", config.not_tool or "not"))

if config.nvcc and os.path.exists(config.nvcc):
    config.available_features.add("nvcc")
if config.hipcc and os.path.exists(config.hipcc):
    config.available_features.add("hipcc")
