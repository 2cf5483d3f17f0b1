"""The tutorial notebook (docs/tutorial.ipynb) runs from top to bottom without an error."""

from __future__ import annotations

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat", reason="the dev extra's nbformat is not installed")
nbclient = pytest.importorskip("nbclient", reason="the dev extra's nbclient is not installed")

NOTEBOOK = Path(__file__).resolve().parent.parent / "docs" / "tutorial.ipynb"


def test_the_tutorial_notebook_runs_and_shows_its_results() -> None:
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    # A cell that raises fails the run (CellExecutionError) with the cell and its traceback.
    nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(NOTEBOOK.parent.parent)}}
                            ).execute()
    printed = "".join(output.get("text", "") for cell in notebook.cells
                      if cell.cell_type == "code" for output in cell.outputs)
    assert "minimax:  1,173 nodes" in printed
    assert "alpha-beta:    279 nodes" in printed
    assert "20 positions; value 1 in 5 plies" in printed
    assert "take 2: +1 (First wins in 5 plies)" in printed
    assert " iterative: take 2, value +1.00, 133 nodes" in printed  # the notebook's own game
    # The rich display: boards as SVG, results, traces and move lists as tables.
    shown = [output.get("data", {}) for cell in notebook.cells if cell.cell_type == "code"
             for output in cell.outputs]
    html = "".join(data.get("text/html", "") for data in shown)
    assert html.count("<table class='zerosum-result'>") == 3  # minimax, ID, MCTS
    assert "<td style='text-align:left'>1,173</td>" in html  # minimax's nodes
    assert html.count("pruned the rest") == 2  # figure 5.2: C and D cut off
    assert "threw a win away: win -&gt; draw" in html  # the reviewed game's 5th move
    assert sum("<svg" in data.get("text/html", data.get("image/svg+xml", ""))
               for data in shown) == 3  # two positions, Connect Four with its line
