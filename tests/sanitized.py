"""A native kernel built under AddressSanitizer and UBSan (or ThreadSanitizer) and run
on a script: the one recipe the native tests share (compiled with warnings as errors, as
the real build's warnings would be)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from zerosum import native


def run_sanitized(kernel: str, script: str, tmp_path: Path, *args: str,
                  threads: bool = False) -> None:
    """Build the native kernel `kernel` (a name in zerosum.native.KERNELS, whose C sources
    it lists) with the sanitizers into tmp_path, then run `script` (given the built
    module's path and `args`) with the sanitizers' runtime preloaded; the script prints
    "sanitized ok" when its checks pass. `threads`: under ThreadSanitizer instead (data
    races between the kernel's threads). Skipped where gcc or the sanitizer's runtime is
    missing."""
    gcc = shutil.which("gcc")
    if gcc is None:
        pytest.skip("no gcc here to build the sanitized module")
    runtime = "libtsan.so" if threads else "libasan.so"
    preload = subprocess.run([gcc, f"-print-file-name={runtime}"], capture_output=True,
                             text=True).stdout.strip()
    if not os.path.isabs(preload):
        pytest.skip(f"gcc has no {'Thread' if threads else 'Address'}Sanitizer runtime here")
    module, sources = native.KERNELS[kernel]
    package = Path(native.__file__).parent
    target = tmp_path / f"{module.rsplit('.', 1)[1]}.so"
    sanitize = ["-fsanitize=thread"] if threads else \
        ["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined"]
    build = subprocess.run(
        [gcc, "-shared", "-fPIC", "-std=c99", "-O1", "-g", "-fno-omit-frame-pointer",
         "-pthread", *sanitize,
         "-Wall", "-Wextra", "-Wshadow", "-Werror", "-Wno-missing-field-initializers",
         f"-I{sysconfig.get_paths()['include']}", *(str(package / source) for source in sources),
         "-o", str(target)],
        capture_output=True, text=True)
    assert build.returncode == 0, build.stderr  # -Werror: warnings fail the test too
    run = tmp_path / "run.py"
    run.write_text(script)
    env = {**os.environ, "LD_PRELOAD": preload, "ASAN_OPTIONS": "detect_leaks=0",
           "UBSAN_OPTIONS": "print_stacktrace=1", "ZEROSUM_NATIVE": "1",
           # the interpreter itself is not instrumented: only the kernel's own races count
           "TSAN_OPTIONS": "halt_on_error=1 report_signal_unsafe=0"}
    done = subprocess.run([sys.executable, str(run), str(target), *args], env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and "sanitized ok" in done.stdout, done.stderr[-3000:]
    assert "runtime error" not in done.stderr, done.stderr[-3000:]
    assert "ThreadSanitizer" not in done.stderr, done.stderr[-3000:]
