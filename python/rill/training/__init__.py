"""tf.compat.v1.train: optimizers, Saver, global step."""
from rill.training.optimizer import (Optimizer, GradientDescentOptimizer, MomentumOptimizer,  # noqa
                                     AdamOptimizer, AdagradOptimizer, RMSPropOptimizer)
from rill.training.saver import (Saver, latest_checkpoint, get_checkpoint_state,  # noqa: F401
                                 import_meta_graph)
from rill.training.optimizer import get_global_step, get_or_create_global_step, create_global_step  # noqa
from rill.training.learning_rate import exponential_decay, piecewise_constant  # noqa: F401
