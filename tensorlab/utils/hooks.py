"""RemovableHandle: what every ``register_*_hook`` returns, so a hook can be taken out again."""

from __future__ import annotations

from typing import Any


class RemovableHandle:
    """Removes one hook from the container it was added to (a list or a dict).

    A hook kept in a dict under ``key`` may also be flagged in ``extra`` dicts under the same key
    (a module's "called with kwargs" and "always called" sets): ``remove`` clears those too.
    """

    def __init__(self, container: Any, hook: Any, key: Any = None, extra: tuple[dict, ...] = ()) -> None:
        self._container = container
        self._hook = hook
        self._key = key
        self._extra = extra

    @property
    def id(self) -> Any:
        """The key the hook is stored under (torch's ``handle.id``)."""
        return self._key

    def remove(self) -> None:
        container = self._container
        if isinstance(container, dict):
            container.pop(self._key, None)
        elif self._hook in container:
            container.remove(self._hook)
        for flags in self._extra:
            flags.pop(self._key, None)

    def __enter__(self) -> RemovableHandle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.remove()
