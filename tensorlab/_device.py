"""``torch.device``, for code that names where its tensors live.

tensorlab computes with NumPy, so every tensor lives on the CPU: ``device("cpu")`` and
``device=`` arguments naming it are accepted everywhere torch takes them, and naming another
device fails as it does in a CPU-only build of torch: CUDA with torch's own AssertionError ("Torch
not compiled with CUDA enabled"), any other backend with NotImplementedError. A ``device`` object
for CUDA can still be *made* (``device("cuda:0")``), as in torch; only using it fails.

Differs from torch: the ``meta`` device (shapes without data) is refused like the other backends.
"""

from __future__ import annotations

from typing import Any

# The device types torch's parser knows, in the order its error message lists them.
DEVICE_TYPES = (
    "cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve", "fpga", "maia",
    "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia", "privateuseone",
)


class device:  # noqa: N801 - torch's name
    """Where a tensor lives: a type ("cpu", "cuda"...) and an optional index (``cuda:1``)."""

    __slots__ = ("index", "type")
    type: str
    index: int | None

    def __init__(self, type_or_string: Any, index: int | None = None) -> None:
        if isinstance(type_or_string, device):
            type_or_string, index = type_or_string.type, type_or_string.index
        elif isinstance(type_or_string, int) and not isinstance(type_or_string, bool):
            raise RuntimeError("Cannot access accelerator device when none is available.")  # torch: an int is an accelerator index
        elif not isinstance(type_or_string, str):
            raise TypeError(f"device() received an invalid combination of arguments - got ({type(type_or_string).__name__}), but expected one of: (torch.device device), (str type, int index = -1)")
        name, _, number = type_or_string.partition(":")
        if name not in DEVICE_TYPES:
            raise RuntimeError(f"Expected one of {', '.join(DEVICE_TYPES)} device type at start of device string: {type_or_string}")
        if number:
            if not number.isdigit() or index is not None:
                raise RuntimeError(f"Invalid device string: '{type_or_string}'")
            index = int(number)
        if index is not None and index < 0:
            raise RuntimeError("Device index must not be negative")
        self.type, self.index = name, index

    def __eq__(self, other: object) -> bool:
        return isinstance(other, device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self) -> int:
        return hash((self.type, self.index))

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __repr__(self) -> str:
        return f"device(type='{self.type}')" if self.index is None else f"device(type='{self.type}', index={self.index})"


CPU = device("cpu")


def check_device(where: Any) -> None:
    """A ``device=`` argument (None, a string, an int or a device) must name the CPU."""
    if where is None:
        return
    named = where if isinstance(where, device) else device(where)
    if named.type == "cuda":
        raise AssertionError("Torch not compiled with CUDA enabled")
    if named.type != "cpu":
        raise NotImplementedError(f"Could not run tensorlab's ops with arguments from the '{named.type.upper()}' backend: tensorlab tensors live on the CPU.")


def is_device_like(value: Any) -> bool:
    """Whether a positional argument of ``Tensor.to`` names a device (rather than a dtype)."""
    return isinstance(value, (str, device)) or (isinstance(value, int) and not isinstance(value, bool))
