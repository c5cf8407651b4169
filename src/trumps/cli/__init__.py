"""The ``trumps`` command line."""
