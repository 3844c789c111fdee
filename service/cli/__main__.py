"""``python -m service.cli``: the same as the ``attest`` console script."""

from service.cli.app import main

raise SystemExit(main())
