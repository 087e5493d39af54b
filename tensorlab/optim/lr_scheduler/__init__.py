"""tensorlab.optim.lr_scheduler: change each param group's ``lr`` as training goes on, as torch does.

A scheduler wraps an optimizer. Constructing it records each group's starting lr as
``initial_lr`` (the ``base_lrs``) and takes step 0; each ``scheduler.step()`` (once per epoch,
after ``optimizer.step()``) advances ``last_epoch`` and writes the new lr into the groups;
``get_last_lr()`` reads what was written. Most schedules are written as torch writes them:
*chainable*, the new lr computed from the lr in the group (so two schedulers on one optimizer
compose), which also means their floating-point rounding is torch's, step for step.
``ReduceLROnPlateau`` is different: it watches a metric and cuts the lr when it stops improving;
``SequentialLR`` and ``ChainedScheduler`` combine other schedulers.

Modules: ``scheduler`` (the shared bookkeeping), ``epoch_schedules`` (functions of the epoch),
``cyclic`` (per-batch cycles), ``plateau``, ``combined``.

Left out: tensors as learning rates.
"""

from .combined import ChainedScheduler, SequentialLR
from .cyclic import CyclicLR, OneCycleLR
from .epoch_schedules import (
    ConstantLR,
    CosineAnnealingLR,
    CosineAnnealingWarmRestarts,
    ExponentialLR,
    LambdaLR,
    LinearLR,
    MultiplicativeLR,
    MultiStepLR,
    PolynomialLR,
    StepLR,
)
from .plateau import ReduceLROnPlateau
from .scheduler import LRScheduler

_LRScheduler = LRScheduler  # torch's old name, still subclassed by older course code

__all__ = [
    "ChainedScheduler", "ConstantLR", "CosineAnnealingLR", "CyclicLR", "CosineAnnealingWarmRestarts", "ExponentialLR", "LRScheduler",
    "LambdaLR", "LinearLR", "MultiStepLR", "MultiplicativeLR", "OneCycleLR", "PolynomialLR", "ReduceLROnPlateau",
    "SequentialLR", "StepLR",
]
