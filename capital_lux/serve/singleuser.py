"""``python -m capital_lux.serve.singleuser``: a person's server on the class's JupyterHub.

JupyterHub's own single-user server (``jupyterhub-singleuser``), started after jsonschema has
been imported without the IRI grammars it would build (``position.import_jsonschema``): the
server imports Jupyter Server, which imports jsonschema, and each learner's server paid 0.9 s
of CPU more at its start, a class signing in at once as many times over.
"""

from ..engine.position import import_jsonschema

import_jsonschema()

from jupyterhub.singleuser import main  # type: ignore[import-untyped]  # noqa: E402

if __name__ == "__main__":
    main()
