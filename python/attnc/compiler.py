"""Driving the installed compiler, attnc-compile, to turn a KernelSpec into an artifact."""
import hashlib
import os
import shutil
import subprocess
import tempfile

from .errors import AttncError

_CALL = "attnc-compile"


def find_compiler():
    """The path of attnc-compile, or None where no compiler is installed.

    Looked for, in order: $ATTNC_COMPILER (which must exist), attnc-compile on
    PATH, build/bin/ of the source tree this package sits in.
    """
    env = os.environ.get("ATTNC_COMPILER")
    if env:
        if not os.access(env, os.X_OK):
            raise AttncError(_CALL, f"ATTNC_COMPILER is {env!r}, which is not an executable file")
        return env
    on_path = shutil.which("attnc-compile")
    if on_path:
        return on_path
    here = os.path.dirname(os.path.abspath(__file__))
    candidate = os.path.normpath(os.path.join(here, "..", "..", "build", "bin", "attnc-compile"))
    return candidate if os.access(candidate, os.X_OK) else None


def fingerprint(compiler):
    """A short id of one compiler build (path, size, mtime), so a rebuilt
    compiler does not reuse kernels that its predecessor cached."""
    st = os.stat(compiler)
    ident = f"{os.path.realpath(compiler)}:{st.st_size}:{st.st_mtime_ns}"
    return hashlib.sha256(ident.encode()).hexdigest()[:16]


def compile_spec(compiler, spec, dest):
    """Compiles `spec` into the artifact directory `dest` (manifest.json,
    kernel.ptx and the source graph.mlir) and returns `dest`.

    Compiles in a temporary directory beside `dest` and renames it into place,
    so a concurrent process sees either no artifact or a whole one; if another
    process got there first, its artifact is kept.
    """
    parent = os.path.dirname(os.path.abspath(dest))
    os.makedirs(parent, exist_ok=True)
    work = tempfile.mkdtemp(prefix=".compile-", dir=parent)
    try:
        source = os.path.join(work, "graph.mlir")
        with open(source, "w") as f:
            f.write(spec.mlir())
        out = os.path.join(work, "out")
        command = [compiler, source, "-o", out] + [f"--{name}={value}" for name, value in spec.options]
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            log = (result.stderr or result.stdout).strip()
            raise AttncError(_CALL, f"kernel {spec.key} failed (exit {result.returncode}):\n{log}")
        artifact = os.path.join(out, spec.function_name)
        if not os.path.isfile(os.path.join(artifact, "manifest.json")):
            raise AttncError(_CALL, f"kernel {spec.key}: no {spec.function_name}/manifest.json in its output")
        shutil.move(source, os.path.join(artifact, "graph.mlir"))
        try:
            os.rename(artifact, dest)
        except OSError:
            if not os.path.isfile(os.path.join(dest, "manifest.json")):
                raise
        return dest
    finally:
        shutil.rmtree(work, ignore_errors=True)
