"""The sources check (scripts/check_numbers.py): what it takes for a result number, how a marked
number is matched to its study's cell, and that a number typed by hand is caught.

    python3 -m unittest discover -s tests/studies
"""
import sys, unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import check_numbers as cn  # noqa: E402


def found(text):
    return [m.group() for m in cn.NUMBER.finditer(cn.prose(text))]


class Scan(unittest.TestCase):
    def test_fractions_percentages_and_powers_are_results_whole_numbers_settings(self):
        self.assertEqual(found("ends at 2.06 after 3000 steps, 97% right, 4·10¹¹ at depth 12"),
                         ["2.06", "97%", "4·10¹¹"])

    def test_what_is_sourced_or_code_is_not_scanned(self):
        text = ('<data data-study="tasks" data-row="x" data-col="y">2.06</data> `--lr 0.003` '
                '<code>0.5·relu(xW)</code> <data value="1" data-ablate="--steps 5" data-check="1">1.0</data> '
                '<data data-given>4.25</data>\n<!-- study:x -->\n| 2.24 |\n<!-- /study:x -->')
        self.assertEqual(found(text), [])

    def test_a_data_element_without_a_source_is_scanned(self):
        self.assertEqual(found("<data value='2.5'>2.5</data>"), ["2.5"])

    def test_a_setting_or_a_rule_is_not_a_result(self):
        path = ROOT / "target" / "check-numbers-case.md"
        path.parent.mkdir(exist_ok=True)
        path.write_text("Adam at 0.003 with β₂ 0.98, within 10% of it; the loss ends at 2.31.\n",
                        encoding="utf-8")
        try:
            got = cn.unsourced(path.relative_to(ROOT).as_posix())
        finally:
            path.unlink()
        self.assertEqual([g.split(": ")[1].split(" ·")[0] for g in got], ["2.31"])


class Cells(unittest.TestCase):
    def test_a_number_matches_its_cell_as_printed_or_rounded_to_the_digits_said(self):
        self.assertTrue(cn.matches("2.24", ["2.24", "2.22", "2.29"]))
        self.assertTrue(cn.matches("0.07", ["0.072"]))
        self.assertTrue(cn.matches("2.30", ["2.3"]))
        self.assertTrue(cn.matches("37", ["0.37"]))
        self.assertTrue(cn.matches("4e11", ["3.6e+11"]))
        self.assertFalse(cn.matches("0.07", ["0.077"]))
        self.assertFalse(cn.matches("10", ["11"]))
        self.assertFalse(cn.matches("2.25", ["2.24"]))

    def test_numbers_read_ranges_thousands_and_powers(self):
        self.assertEqual(cn.numbers("2.06 (2.02–2.14)"), ["2.06", "2.02", "2.14"])
        self.assertEqual(cn.numbers("1 500 steps"), ["1500"])
        self.assertEqual(cn.numbers("4·10¹¹"), ["4e11"])

    def test_a_marked_number_is_held_to_the_kept_study(self):
        ok = {"data-study": "shapes", "data-row": "text;47 × 16", "data-col": "held-out loss"}
        self.assertIsNone(cn.check_mark(ok, "2.24"))
        self.assertIn("the cell", cn.check_mark(ok, "2.25"))
        self.assertIn("rows", cn.check_mark({**ok, "data-row": "text"}, "2.24"))
        self.assertIn("columns", cn.check_mark({**ok, "data-col": "nothing like it"}, "2.24"))
        self.assertIn("no kept study", cn.check_mark({**ok, "data-study": "nowhere"}, "2.24"))
        # no cell named: anything the table prints
        self.assertIsNone(cn.check_mark({"data-study": "shapes"}, "75 056"))
        self.assertIn("does not print", cn.check_mark({"data-study": "shapes"}, "9.99"))

    def test_a_marker_never_stands_before_a_bullets_dash(self):
        # `<!-- numbers: … -->- text` is no longer a list item in Markdown
        for path in cn.DOCUMENTS:
            text = (ROOT / path).read_text(encoding="utf-8")
            bad = [l for l in text.splitlines() if cn.re.match(r"<!-- numbers: [\w, -]+ -->\s*[-*] ", l)]
            self.assertEqual(bad, [], path)


if __name__ == "__main__":
    unittest.main()
