"""``python -m widgets.server``: see :mod:`widgets.server`."""

import sys

from widgets.server.start import main

sys.exit(main())
