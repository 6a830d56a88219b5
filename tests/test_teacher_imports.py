"""The teacher's page imports no matplotlib until it draws a chart: the teacher's key screen is
what the class server warms ahead, and the tutorial's app (``tutor/__init__``) and the tables'
review pulled matplotlib in for it (2.1 s of the 3.6 s its imports took on a loaded machine).

One subprocess runs ``notebooks/teacher.ipynb``'s cells as Voila does, then draws one class chart."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import browser as B
from capital_lux.lessons.classroom import KEY_FAILURES_VARIABLE, TEACHER_KEY_VARIABLE

PROBE = """
import json, sys
namespace = {}
for cell in json.load(open(sys.argv[1]))["cells"]:
    if cell["cell_type"] == "code":
        source = "".join(cell["source"])
        try:  # a cell ending on an expression shows it: the page
            page = eval(compile(source, "cell", "eval"), namespace)
        except SyntaxError:
            exec(source, namespace)
seen = {"page": page._dom_classes, "built": "matplotlib" in sys.modules}
from fractions import Fraction
from capital_lux.i18n import translator
from capital_lux.lessons.classroom import ExerciseSummary
from capital_lux.tutor.teacher_app import class_chart
summary = ExerciseSummary("e", 3, 2, Fraction(1), (), (1, 1, 0, 0, 1))
seen["chart"] = type(class_chart(summary, "e", translator("fr"))).__module__
seen["drawn"] = "matplotlib" in sys.modules
from capital_lux.tutor import build_app  # the tutorial's names: imported when asked for
seen["tutorial"] = build_app.__module__
print(json.dumps(seen))
"""


def test_the_teachers_page_is_built_without_matplotlib_which_comes_with_the_first_chart(tmp_path: Path) -> None:
    environment = {**os.environ, TEACHER_KEY_VARIABLE: "a key", KEY_FAILURES_VARIABLE: str(tmp_path / "failures"),
                   "XDG_DATA_HOME": str(tmp_path / "data"), "CAPITAL_LUX_DB": str(tmp_path / "class.sqlite3"),
                   "QUERY_STRING": "lang=fr"}
    run = subprocess.run([sys.executable, "-c", PROBE, str(B.ROOT / "notebooks" / "teacher.ipynb")],
                         env=environment, capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    seen = json.loads(run.stdout.strip().splitlines()[-1])
    assert "cl-teacher-page" in seen.pop("page")
    assert seen == {"built": False, "chart": "matplotlib.figure", "drawn": True,
                    "tutorial": "capital_lux.tutor.app"}
