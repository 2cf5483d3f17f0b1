"""Reading input files with clear errors and a size limit, and writing output files
atomically, with the user's usual permissions and no temporary file left behind."""

from __future__ import annotations

import contextlib
import os
import signal
import stat
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import BinaryIO

from zerosum.game import InputError

KiB = 1024
DEFAULT_LIMIT = 1024 * KiB  # the largest input of any format here is far below this


def _fail(what: str, name: str, why: str) -> InputError:
    return InputError(f"{what} {name}: {why}")


def _too_large(what: str, name: str, limit: int) -> InputError:
    article = "an" if what[:1] in ("a", "e", "i", "o", "u") else "a"
    return _fail(what, name, f"larger than {limit // KiB:,} KiB, the most {article} {what} "
                 "may be")


def _check_name(what: str, name: str) -> None:
    if "\x00" in name or not name:
        raise _fail(what, repr(name), "not a file name")


def read_limited(f: BinaryIO, limit: int, what: str, name: str) -> bytes:
    """At most `limit` bytes of `f`; InputError when there are more (reading one byte past
    the limit is enough to know, so an endless source such as /dev/zero answers at once)."""
    data = f.read(limit + 1)
    if len(data) > limit:
        raise _too_large(what, name, limit)
    return data


def _decode(data: bytes, what: str, name: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise _fail(what, name, f"not a text file (byte {e.start} is not UTF-8)") from None


def read_text(path: str | os.PathLike[str], what: str = "file",
              limit: int = DEFAULT_LIMIT) -> str:
    """The file's text (at most `limit` bytes of UTF-8); InputError naming the file when
    it is missing, unreadable, not text, too large or a directory. '-' reads standard
    input, under the same limit."""
    name = os.fspath(path)
    if name == "-":
        return read_stdin(what, limit)
    _check_name(what, name)
    try:
        with open(path, "rb") as f:
            data = read_limited(f, limit, what, name)
    except FileNotFoundError:
        raise _fail(what, name, "no such file") from None
    except IsADirectoryError:
        raise _fail(what, name, "is a directory") from None
    except PermissionError:
        raise _fail(what, name, "permission denied") from None
    except OSError as e:
        raise _fail(what, name, e.strerror or "cannot be read") from None
    return _decode(data, what, name)


def read_stdin(what: str = "input", limit: int = DEFAULT_LIMIT) -> str:
    """Standard input's text, under the same limit and checks as a file's."""
    raw = getattr(sys.stdin, "buffer", None)
    if raw is None:  # a text stream put in place of stdin (tests, embedding)
        text = sys.stdin.read(limit + 1)
        if len(text.encode("utf-8", "surrogatepass")) > limit:
            raise _too_large(what, "<stdin>", limit)
        return text
    return _decode(read_limited(raw, limit, what, "<stdin>"), what, "<stdin>")


# --- writing ----------------------------------------------------------------------------


def check_writable(path: str | os.PathLike[str], what: str = "output file") -> None:
    """InputError naming `path` as given, now, if a file could not be written there:
    run it before a long search, so that a typo costs no time."""
    name = os.fspath(path)
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    _check_name(what, name)
    if name.endswith(os.sep):
        raise _fail(what, name, "not a file name (it ends with a folder separator)")
    if not directory.is_dir():
        raise _fail(what, name, f"no folder {os.fspath(directory)}")
    if target.is_dir():
        raise _fail(what, name, "is a directory")
    if target.exists() and not target.is_file():
        raise _fail(what, name, "not a regular file")
    if not os.access(directory, os.W_OK | os.X_OK):
        raise _fail(what, name, f"permission denied (cannot write in {os.fspath(directory)})")
    if target.exists() and not os.access(target, os.W_OK):
        raise _fail(what, name, "permission denied")


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


class _Terminated(BaseException):
    """A terminating signal arrived while a file was being written."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP", "SIGINT")
                 if hasattr(signal, name))


@contextlib.contextmanager
def _signals_raise() -> Iterator[None]:
    """While inside, SIGTERM, SIGHUP and SIGINT raise (so that cleanup code runs); on the
    way out the previous handlers come back, and a signal that arrived is then delivered
    to them as if it came now. Only the main thread may set handlers: elsewhere, nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: FrameType | None) -> None:
        raise _Terminated(signum)

    # A signal that is ignored stays ignored.
    previous = {s: signal.signal(s, handler) for s in _SIGNALS
                if signal.getsignal(s) is not signal.SIG_IGN}
    try:
        yield
    except _Terminated as e:
        for s, h in previous.items():
            signal.signal(s, h)
        previous = {}
        if e.signum == signal.SIGINT:
            raise KeyboardInterrupt from None
        signal.raise_signal(e.signum)  # the usual handler: by default, the process ends
        raise InputError(f"stopped by signal {e.signum} before the file was written") from None
    finally:
        for s, h in previous.items():
            signal.signal(s, h)


def write_atomic(path: str | os.PathLike[str], text: str | bytes, newline: str = "\n",
                 what: str = "output file") -> None:
    """Write `text` (with '\\n' turned into `newline`; bytes as they are) so that readers
    see either the old file or the whole new one, never half: write a temporary file
    beside it, then rename.
    The file gets the permissions a plain open() would give it (0666 less the umask), and
    the temporary file goes away on any error or terminating signal. Errors name `path`."""
    check_writable(path, what)
    name = os.fspath(path)
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    with _signals_raise():
        try:
            fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp",
                                       dir=directory)
        except OSError as e:
            raise _fail(what, name, e.strerror or "cannot be written") from None
        try:
            os.fchmod(fd, stat.S_IMODE(0o666 & ~_umask()))
            if isinstance(text, bytes):
                with os.fdopen(fd, "wb") as binary:
                    binary.write(text)
            else:
                with os.fdopen(fd, "w", encoding="utf-8", newline=newline) as f:
                    f.write(text)
            os.replace(tmp, target)
        except OSError as e:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise _fail(what, name, e.strerror or "cannot be written") from None
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
