"""``python -m capital_lux.serve``: Voila with the class server's guards (``serve.app``)."""

from ..engine.position import import_jsonschema

import_jsonschema()  # before Jupyter Server imports it: without its IRI grammars (0.9 s of CPU)

from .app import main  # noqa: E402

if __name__ == "__main__":
    main()
