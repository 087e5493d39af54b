"""The tasks of each course unit, one module per exercise; importing this package registers them all.

A new unit only adds its module here: every module of the package is imported.
"""

import importlib
import pkgutil

for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")
