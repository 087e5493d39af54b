"""tensorlab.optim: optimizers that update parameters from their ``.grad``."""

from . import lr_scheduler
from .adagrad import Adagrad
from .adam import Adam, AdamW
from .optimizer import Optimizer
from .rmsprop import RMSprop
from .sgd import SGD

__all__ = ["SGD", "Adam", "AdamW", "Optimizer"]
__all__ += ["Adagrad", "RMSprop", "lr_scheduler"]  # beyond the course: what older course code uses
