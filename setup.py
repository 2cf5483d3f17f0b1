"""The one build step pyproject.toml cannot declare: the wheel carries the assignment
folders (launchers, READMEs, data) as zerosum/_assignments/, so that `zerosum assignment
export` works from an installed package. assignments/ stays the one copy in the
repository; a source checkout or editable install reads it there."""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ASSIGNMENTS = Path(__file__).resolve().parent / "assignments"


class BuildWithAssignments(build_py):
    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        for source in sorted(ASSIGNMENTS.rglob("*")):
            if source.is_file() and "__pycache__" not in source.parts:
                target = Path(self.build_lib, "zerosum", "_assignments",
                              source.relative_to(ASSIGNMENTS))
                self.mkpath(str(target.parent))
                self.copy_file(str(source), str(target))  # keeps the executable bits


setup(cmdclass={"build_py": BuildWithAssignments})
