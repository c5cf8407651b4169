"""``python -m trumps``: the same as the ``trumps`` command."""

from trumps.cli.main import main

raise SystemExit(main())
