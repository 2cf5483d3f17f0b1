"""The one file format of learned weights (`.zsnet`): what every method saves and every
`learned:FILE` player loads.

A file is three parts, nothing executable in any of them (never a pickle):

1. the magic line `zerosum-weights 1\\n` (the format's version);
2. one line of JSON, the header: the game and its options, the method, the shape of
   each array, the training settings, the seed, the games played, the last grade and
   whatever else the method keeps (a trainer's random state, to resume), and
   `payload` (its length in bytes and SHA-256);
3. the arrays, back to back, as raw little-endian IEEE-754 doubles, in the order the
   header lists them.

`read` refuses, in one line (InputError), a file of another format or version, a
truncated or garbled file (the payload's length and hash are checked), and a file made
for another game or board size than the one asked for. `write` writes the whole file or
nothing (fileio.write_atomic).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from array import array
from dataclasses import dataclass, field
from typing import Any

from zerosum.fileio import read_limited, write_atomic
from zerosum.game import InputError, shown

MAGIC = b"zerosum-weights"
VERSION = 1
MAX_BYTES = 512 * 1024 * 1024  # far above any network here (Connect Four's: 7 or 73 MB)
MAX_HEADER = 16 * 1024 * 1024


@dataclass
class Weights:
    """A learned player's contents: `header` (JSON-able: game, options, method and its
    settings) and named arrays of doubles."""

    header: dict[str, Any]
    arrays: dict[str, array] = field(default_factory=dict)  # type: ignore[type-arg]

    @property
    def game(self) -> str:
        return str(self.header.get("game", ""))

    @property
    def options(self) -> dict[str, Any]:
        return dict(self.header.get("options", {}))

    @property
    def method(self) -> str:
        return str(self.header.get("method", ""))


def _little(values: array) -> bytes:  # type: ignore[type-arg]
    if sys.byteorder == "little":
        return values.tobytes()
    swapped = array("d", values)
    swapped.byteswap()
    return swapped.tobytes()


def encode(weights: Weights) -> bytes:
    """The file's bytes."""
    payload = b"".join(_little(a) for a in weights.arrays.values())
    header = {**weights.header, "format": VERSION,
              "arrays": [[name, len(a)] for name, a in weights.arrays.items()],
              "payload": {"bytes": len(payload),
                          "sha256": hashlib.sha256(payload).hexdigest()}}
    line = json.dumps(header, sort_keys=True, separators=(",", ":"))
    return MAGIC + f" {VERSION}\n".encode() + line.encode() + b"\n" + payload


def write(path: str | os.PathLike[str], weights: Weights) -> None:
    """Save `weights` whole or not at all."""
    write_atomic(path, encode(weights), what="weights file")


def decode(data: bytes, name: str) -> Weights:
    """The weights in `data` (the bytes of the file `name`); InputError naming the file
    and what is wrong."""
    def bad(why: str) -> InputError:
        return InputError(f"weights file {shown(name, 60)}: {why}")

    if data.startswith(b"\x80") or data[:1] in (b"(", b"c", b"]", b"}"):
        raise bad("a pickle or other object dump, never loaded; weights files start "
                  "with 'zerosum-weights'")
    first, newline, rest = data.partition(b"\n")
    if not newline or not first.startswith(MAGIC + b" "):
        raise bad("not a zerosum weights file (it does not start with 'zerosum-weights')")
    version = first[len(MAGIC) + 1:].decode("ascii", "replace")
    if version != str(VERSION):
        raise bad(f"format version {shown(version)}; this zerosum reads version {VERSION}")
    line, newline, payload = rest.partition(b"\n")
    if not newline:
        raise bad("truncated in its header")
    try:
        header = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise bad("its header is not valid JSON (garbled)") from None
    if not isinstance(header, dict):
        raise bad("its header is not a JSON object")
    try:
        expected = header["payload"]
        shapes = [(str(n), int(k)) for n, k in header["arrays"]]
        size, digest = int(expected["bytes"]), str(expected["sha256"])
    except (KeyError, TypeError, ValueError):
        raise bad("its header lacks the arrays' shapes and the payload's size") from None
    if len(payload) != size or sum(k for _, k in shapes) * 8 != size:
        raise bad(f"truncated or padded: {len(payload)} bytes of arrays, the header "
                  f"says {size}")
    if hashlib.sha256(payload).hexdigest() != digest:
        raise bad("garbled: the arrays do not match the header's SHA-256")
    arrays = {}
    offset = 0
    for n, k in shapes:
        values = array("d")
        values.frombytes(payload[offset:offset + 8 * k])
        if sys.byteorder != "little":
            values.byteswap()
        arrays[n] = values
        offset += 8 * k
    for key in ("format", "arrays", "payload"):
        header.pop(key, None)
    return Weights(header, arrays)


def read(path: str | os.PathLike[str], game: str | None = None,
         options: dict[str, Any] | None = None) -> Weights:
    """The weights saved in `path`, checked to be for `game` with `options` (when given);
    InputError in one line otherwise."""
    name = os.fspath(path)
    try:
        with open(name, "rb") as f:
            data = read_limited(f, MAX_BYTES, "weights file", name)
    except FileNotFoundError:
        raise InputError(f"weights file {shown(name, 60)}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"weights file {shown(name, 60)}: a folder, not a file") from None
    except OSError as e:
        raise InputError(f"weights file {shown(name, 60)}: {e.strerror}") from None
    weights = decode(data, name)
    check(weights, name, game, options)
    return weights


def check(weights: Weights, name: str, game: str | None,
          options: dict[str, Any] | None) -> None:
    """InputError unless `weights` were learned for `game` with `options`."""
    if game is not None and weights.game != game:
        raise InputError(f"weights file {shown(name, 60)} is for {weights.game or 'no game'}, "
                         f"not {game}")
    if options is not None and weights.options != options:
        mine = ", ".join(f"{k} {v}" for k, v in sorted(weights.options.items()))
        theirs = ", ".join(f"{k} {v}" for k, v in sorted(options.items()))
        raise InputError(f"weights file {shown(name, 60)} is for {weights.game} with "
                         f"{mine or 'its default options'}, not {theirs}")
