"""The kernel cache: from a KernelSpec to a loaded kernel.

Where an artifact for a spec's key comes from, in order:
  1. the kernels already loaded in this process;
  2. ahead-of-time artifacts: <dir>/<key>/ for each dir of $ATTNC_KERNEL_DIR
     (os.pathsep-separated), so that machines without a compiler work;
  3. the on-disk cache: $ATTNC_CACHE_DIR, else $XDG_CACHE_HOME/attnc, else
     ~/.cache/attnc; artifacts live in <cache>/<compiler fingerprint>/<key>/;
  4. a compile with attnc-compile (compiler.find_compiler) into that cache.
Every artifact's manifest is checked against the spec before it is used.
"""
import json
import os
import threading

from . import _capi
from .compiler import compile_spec, find_compiler, fingerprint
from .errors import AttncError

_CALL = "attnc kernel cache"


def default_cache_dir():
    env = os.environ.get("ATTNC_CACHE_DIR")
    if env:
        return env
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "attnc")


def default_kernel_dirs():
    return [d for d in os.environ.get("ATTNC_KERNEL_DIR", "").split(os.pathsep) if d]


def read_manifest(spec, artifact):
    """The parsed manifest.json of `artifact`, checked against `spec`."""
    path = os.path.join(artifact, "manifest.json")
    try:
        with open(path) as f:
            manifest = json.load(f)
    except (OSError, ValueError) as e:
        raise AttncError(_CALL, f"{path}: {e}") from None
    spec.check_manifest(manifest, path)
    return manifest


class Kernel:
    """A loaded kernel: its spec, artifact directory, manifest and runtime handle."""

    def __init__(self, runtime, spec, path, manifest):
        self.spec, self.path, self.manifest = spec, path, manifest
        self.runtime = runtime
        self.handle = runtime.load(path)

    @property
    def split_kv(self):
        """Whether the kernel splits the keys (a split-KV artifact: two kernels and a workspace)."""
        return "split_kv" in self.manifest

    def workspace_size(self, args):
        """attnc_attention_workspace_size: the split-KV workspace bytes a launch with `args` needs."""
        return self.runtime.workspace_size(self.handle, args)

    def launch(self, args, stream):
        """Launches with `args` (_capi.pack_attention_args bytes) on CUstream `stream`."""
        self.runtime.launch(self.handle, args, stream)

    def check(self, args, stream):
        """attnc_attention_check: every check of a launch, and a paged or varlen
        kernel's index values (a device-to-host copy on `stream` and a wait for it)."""
        self.runtime.attention_check(self.handle, args, stream)


class KernelCache:
    """Finds, compiles and loads kernels; safe to share between threads."""

    def __init__(self, kernel_dirs=None, cache_dir=None, compiler=None, runtime=None):
        """Defaults come from the environment (see the module docstring);
        compiler=False disables compiling, runtime is a _capi.Runtime."""
        self.kernel_dirs = list(default_kernel_dirs() if kernel_dirs is None else kernel_dirs)
        self.cache_dir = default_cache_dir() if cache_dir is None else cache_dir
        self._compiler = compiler
        self._runtime = runtime
        self._kernels = {}
        self._lock = threading.Lock()

    @property
    def compiler(self):
        """The attnc-compile path, or None (looked up once)."""
        if self._compiler is None:
            self._compiler = find_compiler() or False
        return self._compiler or None

    def cached_path(self, spec):
        """Where the on-disk cache keeps `spec`'s artifact (None without a compiler)."""
        compiler = self.compiler
        if compiler is None:
            return None
        return os.path.join(self.cache_dir, fingerprint(compiler), spec.key)

    def find(self, spec):
        """The directory of an existing artifact for `spec`, or None."""
        candidates = [os.path.join(d, spec.key) for d in self.kernel_dirs]
        cached = self.cached_path(spec)
        if cached:
            candidates.append(cached)
        for path in candidates:
            if os.path.isfile(os.path.join(path, "manifest.json")):
                return path
        return None

    def artifact(self, spec):
        """The directory of an artifact for `spec`, compiling it on a miss."""
        path = self.find(spec)
        if path is not None:
            return path
        cached = self.cached_path(spec)
        if cached is None:
            where = os.pathsep.join(self.kernel_dirs) or "(ATTNC_KERNEL_DIR is not set)"
            raise AttncError(_CALL, f"no kernel {spec.key} in {where}, and no compiler to build it: set "
                             "ATTNC_COMPILER or put attnc-compile on PATH, or precompile it with "
                             f"python3 -m attnc.precompile --out DIR {spec.key}")
        return compile_spec(self.compiler, spec, cached)

    def kernel(self, spec):
        """The loaded Kernel for `spec` (loaded once per process)."""
        kernel = self._kernels.get(spec)
        if kernel is None:
            with self._lock:
                kernel = self._kernels.get(spec)
                if kernel is None:
                    path = self.artifact(spec)
                    manifest = read_manifest(spec, path)
                    runtime = self._runtime or _capi.runtime()
                    kernel = self._kernels[spec] = Kernel(runtime, spec, path, manifest)
        return kernel


_default = None
_default_lock = threading.Lock()


def default_cache():
    """The process-wide KernelCache that attnc.attention uses."""
    global _default
    if _default is None:
        with _default_lock:
            if _default is None:
                _default = KernelCache()
    return _default
