"""Named things that modules contribute by registering themselves at import time.

Games, reports (the tables of `zerosum table`) and commands each live in a package whose
modules are found and imported once, the first time the list is needed, so adding one
means adding a module, nothing else.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from types import ModuleType
from typing import Generic, TypeVar

from zerosum.convert import shown
from zerosum.game import InputError

T = TypeVar("T")


def import_submodules(package: str) -> list[ModuleType]:
    """Import every module of `package` (sorted by name) and return them."""
    root = importlib.import_module(package)
    names = sorted(info.name for info in pkgutil.iter_modules(root.__path__))
    return [importlib.import_module(f"{package}.{name}") for name in names]


class Registry(Generic[T]):
    """Items by name, filled by the modules of `package` as they are imported."""

    def __init__(self, package: str, kind: str, name_of: Callable[[T], str]) -> None:
        self.package, self.kind, self.name_of = package, kind, name_of
        self._items: dict[str, T] = {}
        self._discovered = False

    def register(self, item: T) -> T:
        self._items[self.name_of(item)] = item
        return item

    def all(self) -> list[T]:
        if not self._discovered:
            self._discovered = True
            import_submodules(self.package)
        return [self._items[name] for name in sorted(self._items)]

    def get(self, name: str) -> T:
        known = self.all()
        try:
            return self._items[name]
        except KeyError:
            names = ", ".join(self.name_of(item) for item in known)
            raise InputError(f"unknown {self.kind} {shown(name)}; known: {names}") from None
