"""Deprecated since groupkit 0.2.0: the plugin test kit is `groupkit_testing`
(distribution `groupkit-testing`). This alias re-exports it with a DeprecationWarning until
0.3.0."""

from __future__ import annotations

import warnings

warnings.warn("groupkit.testing moved to groupkit_testing (install groupkit-testing) in "
              "groupkit 0.2.0; the old name goes in 0.3.0", DeprecationWarning, stacklevel=2)

from groupkit_testing import *  # noqa: E402, F403
from groupkit_testing import __all__ as __all__  # noqa: E402
