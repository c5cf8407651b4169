"""Each game's own sub-commands (``trumps score <game> ...``, ``trumps dd``):
``trumps.cli.games.<game package>`` defines ``<command>_command(argv) -> int``."""
