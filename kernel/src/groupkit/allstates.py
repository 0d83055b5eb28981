"""Deprecated since groupkit 0.2.0: the all-states browser check is `groupkit_testing.allstates`
(distribution `groupkit-testing`). This alias re-exports it with a DeprecationWarning until
0.3.0."""

from __future__ import annotations

import warnings

warnings.warn("groupkit.allstates moved to groupkit_testing.allstates (install "
              "groupkit-testing) in groupkit 0.2.0; the old name goes in 0.3.0",
              DeprecationWarning, stacklevel=2)

from groupkit_testing.allstates import *  # noqa: E402, F403
from groupkit_testing.allstates import __all__ as __all__  # noqa: E402
