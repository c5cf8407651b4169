"""``python -m trumps.cli`` runs the ``trumps`` command."""

from trumps.cli.main import main

if __name__ == "__main__":
    raise SystemExit(main())
