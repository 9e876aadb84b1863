"""``python -m widgets.server``: see :mod:`widgets.server`."""

import sys

from widgets.server.app import main

sys.exit(main())
