# -*- Python -*-
"""lit configuration of the attnc test suite."""

import ctypes
import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "ATTNC"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test", ".c"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.attnc_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
# The source tree, for tests of the scripts in bench/.
config.substitutions.append(("%attnc_src", config.attnc_src_root))
# A CUDA driver stand-in (test/Runtime/FakeCuda), for ATTNC_LIBCUDA.
config.substitutions.append(("%fake_cuda", os.path.join(config.attnc_obj_root, "lib", "libattnc-fake-cuda.so")))
config.environment["FILECHECK_OPTS"] = "--enable-var-scope"

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tools = [
    ToolSubst("attnc-capi-test", unresolved="fatal"),
    ToolSubst("attnc-compile", unresolved="fatal"),
    ToolSubst("attnc-opt", unresolved="fatal"),
    ToolSubst("attnc-run", unresolved="fatal"),
    ToolSubst("%attnc_rt_check", os.path.join(config.attnc_tools_dir, "attnc-rt-check")),
    ToolSubst("attnc-registration-test", unresolved="fatal"),
    ToolSubst("%attnc_run_artifact", os.path.join(config.attnc_tools_dir, "attnc-run-artifact")),
    ToolSubst("%attnc_rt_threads_test", os.path.join(config.attnc_tools_dir, "attnc-rt-threads-test")),
    ToolSubst("%attnc_rt_launch_test", os.path.join(config.attnc_tools_dir, "attnc-rt-launch-test")),
    ToolSubst("attnc-unit-tests", unresolved="fatal"),
    ToolSubst("attnc-software-exp2-test", unresolved="fatal"),
    ToolSubst("attnc-tensor-map-cache-test", unresolved="fatal"),
]
llvm_config.add_tool_substitutions(tools, [config.attnc_tools_dir, config.llvm_tools_dir])

# ptxas checks of generated PTX run wherever the CUDA toolkit is installed.
if config.ptxas and os.path.exists(config.ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", config.ptxas))


def has_cuda_gpu():
    """True when a CUDA driver loads and reports at least one device."""
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return False
    count = ctypes.c_int(0)
    if cuda.cuInit(0) != 0 or cuda.cuDeviceGetCount(ctypes.byref(count)) != 0:
        return False
    return count.value > 0


# GPU tests (test/Integration) only run on a machine with a driver and a GPU.
if has_cuda_gpu():
    config.available_features.add("cuda-gpu")
