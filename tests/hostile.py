"""What the hostile programs' tests share: finding what survived a call."""

from __future__ import annotations

from pathlib import Path


def processes_running(marker: str) -> list[int]:
    """The live processes (not zombies) whose command line holds `marker`."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            line = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            state = (proc / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker in line and state != "Z":
            found.append(int(proc.name))
    return found
