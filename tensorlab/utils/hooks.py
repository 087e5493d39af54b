"""RemovableHandle: what every ``register_*_hook`` returns, so a hook can be taken out again."""

from __future__ import annotations

from typing import Any


class RemovableHandle:
    """Removes one hook from the container it was added to (a list or a dict)."""

    def __init__(self, container: Any, hook: Any, key: Any = None) -> None:
        self._container = container
        self._hook = hook
        self._key = key

    def remove(self) -> None:
        container = self._container
        if isinstance(container, dict):
            container.pop(self._key, None)
        elif self._hook in container:
            container.remove(self._hook)

    def __enter__(self) -> RemovableHandle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.remove()
