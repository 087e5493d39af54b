"""tensorlab.nn: Parameter, Module and the layers, plus ``functional`` (as F) and ``init``."""

from . import functional, init, utils
from .modules import *  # noqa: F403
from .modules import __all__ as _modules_all
from .parameter import Parameter

__all__ = ["Parameter", "functional", "init", "utils", *_modules_all]
