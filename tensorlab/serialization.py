"""``tensorlab.save`` / ``tensorlab.load``: torch's checkpoint format, written and read without torch.

A ``.pt`` file is a zip archive (stored, not compressed):

- ``archive/data.pkl`` — a pickle of the object: dicts, lists, numbers... and, for each tensor,
  a call ``torch._utils._rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, hooks)``;
- ``archive/data/0``, ``archive/data/1``, ... — the raw bytes of each *storage*, once per storage.
  The pickle does not contain the numbers: it names a storage by a persistent id
  ``('storage', torch.FloatStorage, '0', 'cpu', numel)`` that points at ``data/0``;
- ``archive/version``, ``archive/byteorder`` — small records the reader checks.

Because tensors point at storages by key, a tensor and its view saved together still share one
storage after loading, as in torch. The pickle names torch's functions (``torch._utils``...) as
text, so a file written here loads in torch and a file torch wrote loads here; tensorlab never
imports torch to do it: the writer spells those names out, the reader maps them to its own code.

Loading is safe by default (``weights_only=True``, torch's default since 2.6): a pickle can call
any function it names, so the reader allows only the names a checkpoint needs (tensors,
parameters, containers, dtypes). ``weights_only=False`` loads anything — only for files you trust.
"""

from __future__ import annotations

import io
import os
import pickle
from collections import Counter, OrderedDict
from collections.abc import Callable
from typing import IO, Any, ClassVar

import numpy as np

from ._device import device
from ._dtype import ALL_DTYPES, dtype
from ._storage import Storage, storage_extent
from ._tensor import Size, Tensor

# torch's typed-storage class for each dtype: the persistent id names it, and it fixes the dtype.
STORAGE_CLASS = {
    "bool": "BoolStorage", "uint8": "ByteStorage", "int8": "CharStorage", "int16": "ShortStorage",
    "int32": "IntStorage", "int64": "LongStorage", "float16": "HalfStorage", "float32": "FloatStorage",
    "float64": "DoubleStorage",
}
_DTYPE_BY_NAME = {d.name: d for d in ALL_DTYPES}
_DTYPE_OF_STORAGE = {storage_class: _DTYPE_BY_NAME[name] for name, storage_class in STORAGE_CLASS.items()}
_DTYPE_BY_NUMPY = {d.numpy: d for d in ALL_DTYPES}
ARCHIVE = "archive"
FORMAT_VERSION = "3"  # torch's archive/version record
_LEGACY_MAGIC_NUMBER = 0x1950A86A20F9469CFC6C  # the first value of a pre-1.6 (non-zip) torch file


# --- writing -------------------------------------------------------------------------------------


class TorchName:
    """A global written into the pickle by name (``GLOBAL torch._utils _rebuild_tensor_v2``).

    The standard pickler would import a global to check it exists; torch is not imported here,
    so this marker writes the two lines of text directly.
    """

    def __init__(self, module: str, name: str) -> None:
        self.module, self.name = module, name

    def __call__(self, *args: Any) -> Any:  # pickle only accepts a callable as a reduce function
        raise TypeError(f"{self.module}.{self.name} is a name written into a file, not a function to call")


REBUILD_TENSOR = TorchName("torch._utils", "_rebuild_tensor_v2")
REBUILD_PARAMETER = TorchName("torch._utils", "_rebuild_parameter")


class _CheckpointPickler(pickle._Pickler):
    """The pure-Python pickler with three additions: tensors and parameters reduce to torch's
    rebuild calls, storages become persistent ids (their bytes go to ``data/<key>``), and torch
    names (dtypes, ``Size``, the rebuild functions) are written as text."""

    dispatch: ClassVar[dict] = dict(pickle._Pickler.dispatch)
    write: Callable[[bytes], object]  # set by pickle._Pickler.__init__: appends opcodes to the file

    def __init__(self, file: IO[bytes]) -> None:
        super().__init__(file, protocol=2)
        self.storage_keys: dict[int, str] = {}
        self.storages: list[Storage] = []

    def write_global(self, module: str, name: str) -> None:
        self.write(pickle.GLOBAL + f"{module}\n{name}\n".encode())

    def persistent_id(self, obj: Any) -> Any:
        if not isinstance(obj, Storage):
            return None
        key = self.storage_keys.get(id(obj))
        if key is None:  # the first tensor on this storage: its bytes get the next file name
            key = self.storage_keys[id(obj)] = str(len(self.storages))
            self.storages.append(obj)
        dtype_name = _DTYPE_BY_NUMPY[obj.array.dtype].name
        return ("storage", TorchName("torch", STORAGE_CLASS[dtype_name]), key, "cpu", obj.size())

    def reducer_override(self, obj: Any) -> Any:
        if isinstance(obj, Tensor):
            if type(obj) is not Tensor:
                for subclass, rebuild in _SAVED_SUBCLASSES.items():
                    if isinstance(obj, subclass):  # its data as a plain tensor, then the flag
                        return rebuild, (obj.detach(), obj.requires_grad, OrderedDict())
            layout = (obj._storage, obj.storage_offset(), tuple(obj.shape), tuple(obj.stride()))
            return REBUILD_TENSOR, (*layout, obj.requires_grad, OrderedDict())
        if isinstance(obj, Size):
            return TorchName("torch", "Size"), (tuple(obj),)
        if isinstance(obj, device):
            return TorchName("torch", "device"), (str(obj),)
        return NotImplemented


_CheckpointPickler.dispatch[TorchName] = lambda pickler, name: pickler.write_global(name.module, name.name)
_CheckpointPickler.dispatch[dtype] = lambda pickler, d: pickler.write_global("torch", d.name)


def save(
    obj: Any, f: Any, pickle_module: Any = pickle, pickle_protocol: int = 2,
    _use_new_zipfile_serialization: bool = True, _disable_byteorder_record: bool = False,
) -> None:
    """Write ``obj`` (tensors, state dicts, containers of them, or any picklable object) to ``f``
    (a path or a binary file object) in torch's zip format."""
    if not _use_new_zipfile_serialization:
        raise NotImplementedError("tensorlab writes torch's zip format only (_use_new_zipfile_serialization=True)")
    if isinstance(f, (str, os.PathLike)):
        parent = os.path.dirname(os.path.abspath(f))
        if not os.path.isdir(parent):
            raise RuntimeError(f"Parent directory {parent} does not exist.")
    elif not hasattr(f, "write"):
        raise AttributeError("expected 'f' to be string, path, or a file-like object with a 'write' attribute")
    import zipfile  # here, not at the top: ``import tensorlab`` stays fast

    pickled = io.BytesIO()
    pickler = _CheckpointPickler(pickled)
    pickler.dump(obj)
    with zipfile.ZipFile(f, "w", compression=zipfile.ZIP_STORED) as archive:
        archive.writestr(f"{ARCHIVE}/data.pkl", pickled.getvalue())
        archive.writestr(f"{ARCHIVE}/.format_version", "1")
        archive.writestr(f"{ARCHIVE}/.storage_alignment", "64")
        if not _disable_byteorder_record:
            archive.writestr(f"{ARCHIVE}/byteorder", "little")
        for key, storage in enumerate(pickler.storages):
            archive.writestr(f"{ARCHIVE}/data/{key}", storage.array.astype(storage.array.dtype.newbyteorder("<")).tobytes())
        archive.writestr(f"{ARCHIVE}/version", FORMAT_VERSION + "\n")


# --- reading -------------------------------------------------------------------------------------


def _rebuild_tensor_v2(storage: Storage, storage_offset: int, size: tuple, stride: tuple, requires_grad: bool, backward_hooks: Any, metadata: Any = None) -> Tensor:
    """A tensor is a (size, stride, offset) window on a storage: here that window is rebuilt."""
    if storage_extent(size, stride, storage_offset) > storage.size():
        raise RuntimeError(
            f"setStorage: sizes {list(size)}, strides {list(stride)}, storage offset {storage_offset} "
            f"requiring a storage size that is out of bounds for storage of size {storage.size()}"
        )
    base = Tensor._from_array(storage.array, _DTYPE_BY_NUMPY[storage.array.dtype], storage=storage)
    tensor = base._alias(tuple(size), tuple(stride), storage_offset)
    return tensor.requires_grad_(True) if requires_grad else tensor


class _StorageClass:
    """What ``torch.FloatStorage`` & co. load as: only its dtype matters."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.dtype = _DTYPE_OF_STORAGE[name]


def _bytes_from_latin1(text: str, encoding: str = "latin1") -> bytes:
    """Protocol 2 has no bytes opcode: pickle writes bytes as ``_codecs.encode(text, 'latin1')``."""
    return text.encode(encoding)


# The globals a weights-only load may call: what checkpoints of tensors and state dicts contain.
SAFE_GLOBALS: dict[tuple[str, str], Any] = {
    ("collections", "OrderedDict"): OrderedDict,
    ("collections", "Counter"): Counter,
    ("builtins", "set"): set,
    ("builtins", "frozenset"): frozenset,
    ("builtins", "complex"): complex,
    ("builtins", "slice"): slice,
    ("_codecs", "encode"): _bytes_from_latin1,
    ("torch._utils", "_rebuild_tensor_v2"): _rebuild_tensor_v2,
    ("torch", "Size"): lambda shape: Size(shape),
    ("torch", "device"): device,
    **{("torch", name): _StorageClass(name) for name in _DTYPE_OF_STORAGE},
    **{("torch", d.name): d for d in ALL_DTYPES},
}
_SAVED_SUBCLASSES: dict[type, TorchName] = {}
"""Tensor subclasses that torch saves under their own rebuild function (``nn.Parameter``)."""


def register_saved_subclass(
    subclass: type, rebuild: TorchName, load: Callable[..., Tensor], *aliases: str
) -> None:
    """Save instances of ``subclass`` as a call of torch's ``rebuild`` (and read that call, or one of
    the ``aliases`` in the same module, back with ``load``). The subclass's own module registers it
    when imported (``nn/parameter.py``): this core module knows no layer above it."""
    _SAVED_SUBCLASSES[subclass] = rebuild
    for name in (rebuild.name, *aliases):
        SAFE_GLOBALS[(rebuild.module, name)] = load


# Protocol 2 writes Python 2's module names for builtins (as torch's files do): read them back.
_PYTHON2_MODULES = {"__builtin__": "builtins", "copy_reg": "copyreg"}
_added_safe_globals: dict[tuple[str, str], Any] = {}


def add_safe_globals(safe_globals: list) -> None:
    """Allow more classes or functions in weights-only loads (only ones you trust)."""
    for item in safe_globals:
        _added_safe_globals[(item.__module__, item.__qualname__)] = item


def _weights_only_error(module: str, name: str) -> pickle.UnpicklingError:
    return pickle.UnpicklingError(
        "Weights only load failed. This file can still be loaded, to do so you have two options, do those steps "
        "only if you trust the source of the checkpoint. \n\t(1) Re-running `tensorlab.load` with `weights_only` set "
        "to `False` will likely succeed, but it can result in arbitrary code execution. Do it only if you got the "
        "file from a trusted source.\n\t(2) Alternatively, allowlist it with "
        f"`tensorlab.serialization.add_safe_globals([{module}.{name}])` if you trust this class/function.\n\t"
        f"WeightsUnpickler error: Unsupported global: GLOBAL {module}.{name} was not an allowed global by default."
    )


class _CheckpointUnpickler(pickle.Unpickler):
    """Reads ``data.pkl``: storages come from ``load_storage``; globals only from the allowlist,
    unless ``weights_only`` is False (then any importable name, as plain pickle does)."""

    def __init__(self, file: IO[bytes], load_storage: Callable[[tuple], Storage], weights_only: bool) -> None:
        super().__init__(file)
        self.load_storage = load_storage
        self.weights_only = weights_only

    def find_class(self, module: str, name: str) -> Any:
        module = _PYTHON2_MODULES.get(module, module)
        known = SAFE_GLOBALS.get((module, name), _added_safe_globals.get((module, name)))
        if known is not None:
            return known
        if module == "torch" and name.endswith("Storage"):  # bfloat16, complex...: no NumPy dtype here
            raise TypeError(f"Got unsupported ScalarType {name.removesuffix('Storage')}: tensorlab cannot load a {name}")
        if self.weights_only:
            raise _weights_only_error(module, name)
        if module.startswith("torch"):
            raise pickle.UnpicklingError(f"tensorlab cannot load torch's {module}.{name}: only tensors, parameters and containers of them")
        return super().find_class(module, name)

    def persistent_load(self, pid: Any) -> Any:
        if not isinstance(pid, tuple) or not pid or pid[0] != "storage":
            raise pickle.UnpicklingError(f"Unknown typename for persistent_load, expected 'storage' but got '{pid[0] if isinstance(pid, tuple) and pid else pid}'")
        return self.load_storage(pid)


def _check_location(location: str, map_location: Any) -> None:
    """Every storage is loaded onto the CPU; a CUDA storage needs map_location, as in CPU-only torch."""
    wanted = str(map_location) if isinstance(map_location, (str, device)) else None
    if (wanted is None and map_location is None and location.startswith("cuda")) or (wanted or "").startswith("cuda"):
        raise RuntimeError(
            "Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are "
            "running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your "
            "storages to the CPU."
        )


def load(f: Any, map_location: Any = None, pickle_module: Any = None, *, weights_only: bool | None = None, mmap: bool | None = None, **pickle_load_args: Any) -> Any:
    """Read what :func:`save` (or ``torch.save``) wrote. ``map_location`` may only name the CPU."""
    safe = True if weights_only is None else bool(weights_only)
    if not isinstance(f, (str, os.PathLike)) and not hasattr(f, "seek"):
        raise AttributeError(
            f"'{type(f).__name__}' object has no attribute 'seek'. You can only torch.load from a file that is seekable. "
            "Please pre-load the data into a buffer like io.BytesIO and try to load from it instead."
        )
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as file:
            return _load_file(file, map_location, safe)
    return _load_file(f, map_location, safe)


def _load_file(file: IO[bytes], map_location: Any, weights_only: bool) -> Any:
    import zipfile  # here, not at the top: ``import tensorlab`` stays fast

    if not zipfile.is_zipfile(file):
        file.seek(0)
        _reject_non_zip(file)
    file.seek(0)
    with zipfile.ZipFile(file) as archive:
        names = archive.namelist()
        pickle_name = next((n for n in names if n.endswith("data.pkl")), None)
        if pickle_name is None:
            raise RuntimeError("PytorchStreamReader failed locating file data.pkl: file not found")
        prefix = pickle_name[: -len("data.pkl")]
        byteorder = archive.read(prefix + "byteorder").decode() if prefix + "byteorder" in names else "little"
        storages: dict[str, Storage] = {}

        def load_storage(pid: tuple) -> Storage:
            _, storage_class, key, location, numel = pid
            _check_location(location, map_location)
            if key not in storages:  # views of one storage name the same key: load it once
                numpy_type = storage_class.dtype.numpy.newbyteorder("<" if byteorder == "little" else ">")
                values = np.frombuffer(archive.read(f"{prefix}data/{key}"), dtype=numpy_type, count=numel)
                storages[key] = Storage(values.astype(storage_class.dtype.numpy))  # a native, writable copy
            return storages[key]

        unpickler = _CheckpointUnpickler(io.BytesIO(archive.read(pickle_name)), load_storage, weights_only)
        return unpickler.load()


def _reject_non_zip(file: IO[bytes]) -> None:
    """Not a zip: either torch's pre-1.6 format (a pickled magic number first) or not a checkpoint.

    Reading the first pickled value fails on a file that is no pickle with the error pickle gives,
    as torch's reader does."""
    magic = _CheckpointUnpickler(file, lambda pid: Storage(np.zeros(0)), weights_only=True).load()
    if magic == _LEGACY_MAGIC_NUMBER:
        raise RuntimeError(
            "tensorlab.load reads torch's zip format (torch.save's default since torch 1.6); this file is in the "
            "older, non-zip format. Load it with torch and save it again with torch.save(obj, path)."
        )
    raise RuntimeError("Invalid magic number; corrupt file?")


__all__ = ["add_safe_globals", "load", "save"]
