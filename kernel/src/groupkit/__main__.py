"""`python -m groupkit ...` is the `groupkit` command."""

from groupkit.ops._cli import main

if __name__ == "__main__":
    raise SystemExit(main())
