"""``python -m capital_lux.serve``: Voila with the class server's guards (``serve.app``)."""

from .app import main

if __name__ == "__main__":
    main()
