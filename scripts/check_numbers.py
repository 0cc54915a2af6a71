#!/usr/bin/env python3
"""Every result number in the prose has a source.

A result number is one with a fraction, a percentage or a power of ten (`2.24`, `97%`,
`1.9·10⁸`); whole numbers are taken as settings (a depth, a step count, a seed) and not
checked. Each result number in the documents below must be one of:

- inside a study's table (`<!-- study:NAME -->` … `<!-- /study:NAME -->`, written from the kept
  JSON by `bash scripts/studies.sh tables`);
- a claim a run recomputes, `<data value=… data-ablate="FLAGS" data-check=…>` (checked by
  scripts/check_lesson.py);
- a cell of a kept study's table, marked

      <data data-study="liu" data-row="post-norm" data-col="held-out loss">2.24</data>

  where `data-row` names the row by words its cells contain (`;` between several, one row
  must match; a word equal to a cell names it by that cell alone) and `data-col` by its header
  or words of it (one column must match, or `#2` picks the second of those that do); every number of
  the marked text must be one of the cell's, as printed or rounded to fewer places (`0.7` for
  a cell's `0.72`). This script renders the table from the kept JSON and checks it. Without
  `data-row` and `data-col` the number must be one the table prints anywhere (a note's);
- not a result: inside code (a command, a flag), or after words that make it a setting or a
  rule (`lr 0.01`, `init gain 2.25`, `β₂ 0.98`, `within 10%`; the list is `SETTING` below), or
  marked `<data data-given>0.5</data>` (a value the text sets, not one it found).

- in a paragraph of the findings marked `<!-- numbers: lens, attention-heads -->` (from the
  marker to the paragraph's or the bullet's end): each of its numbers must be one that those
  studies' tables print (a cell, a header or a note), as above (a weaker check than a cell's mark: a number typed by hand that
  happens to equal another cell passes; one in no cell of the study fails).

Anything else is listed in `studies/unsourced.txt`, the numbers not yet traced to a study, one
per line as `FILE: NUMBER · the words before it`: the check fails on a result number that is
neither sourced nor listed (a new number typed by hand), and on a listed one no longer in its
file (so the list only shrinks).

    python3 scripts/check_numbers.py          # checks; exits 1 and prints what it saw
    python3 scripts/check_numbers.py --list   # rewrites studies/unsourced.txt from the documents
"""
import json, re, sys
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import studies  # noqa: E402

DOCUMENTS = ["www/lesson.html", "README.md", "docs/findings.md", "docs/using.md", "docs/tasks.md"]
UNSOURCED = ROOT / "studies" / "unsourced.txt"

SUPER = "⁰¹²³⁴⁵⁶⁷⁸⁹⁻"
NUMBER = re.compile(rf"(?<![\w.·])\d+\.\d+(?:·10[{SUPER}]+)?(?![\w])|(?<![\w.])\d+(?:\.\d+)?\s?%"
                    rf"|(?<![\w.])\d+·10[{SUPER}]+")
# the words just before a number that make it a setting or a rule, not a result
SETTING = re.compile(
    r"(?:\blr|learning rate|\brate|init gain|\bgain|β₂|β₁|\bbeta2|\beps|Adam at|Adam|SGD at|warmup of|"
    r"temperature|\bscale|\bfloor|version|package|Python|Node|Rust|Chrome|Firefox|Safari|WebKitGTK|ESR|"
    r"License|licence|CC BY|within|less than|under|a number from|the last|keeps about"
    r")(?:[^.;:!?]|\.(?=\d)){0,30}$", re.I)
# what a number is when the words after it say so: a rule's or a setting's
RULE = re.compile(r"^\S*\s*(?:of the (?:gain|steps|way)|held out|as well|times the steps)", re.I)


def prose(text):
    """The text with what is sourced or not prose blanked out (its length kept)."""
    blank = lambda m: re.sub(r"[^\n]", " ", m.group())
    for pattern in [r"<!-- study:([\w-]+) -->.*?<!-- /study:\1 -->", r"<script.*?</script>",
                    r"<style.*?</style>", r"```.*?```", r"<code>.*?</code>",
                    r"<data\b[^>]*\bdata-(?:ablate|study|given)\b.*?</data>", r"<!--.*?-->",
                    r"`[^`\n]*`", r"<[^>]+>", r"\]\([^)]*\)", r'"[^"]{0,240}"', r"“[^”]{0,240}”"]:
        text = re.sub(pattern, blank, text, flags=re.S)
    return text


PARAGRAPH = re.compile(r"<!-- numbers: ([\w, -]+) -->(.*?)(?=\n\n|\n- |\n<!--|\Z)", re.S)


def paragraphs(raw):
    """(start, end, [study names]) of each paragraph marked `<!-- numbers: NAME, … -->`."""
    return [(m.start(2), m.end(2), [n.strip() for n in m.group(1).split(",") if n.strip()])
            for m in PARAGRAPH.finditer(raw)]


def pool(names):
    """Every number the named studies' tables print (their cells, headers and notes)."""
    return [n for name in names for n in numbers(table(name)[2])]


def scan(path):
    """(unsourced, wrong): each result number in `path` with no source, as `FILE: NUMBER · the
    words before it`, and each in a paragraph marked with its studies that none of their cells
    holds."""
    raw = (ROOT / path).read_text(encoding="utf-8")
    text = prose(raw)
    marked = paragraphs(raw)
    found, wrong = [], []
    for m in NUMBER.finditer(text):
        before = text[max(0, m.start() - 60):m.start()]
        if SETTING.search(" ".join(before.replace("*", "").split())) or RULE.search(" ".join(text[m.end():m.end() + 40].split())):
            continue
        said = " ".join(m.group().split())
        words = " ".join(text[max(0, m.start() - 40):m.start()].split())
        studies_of = next((names for start, end, names in marked if start <= m.start() < end), None)
        if studies_of is None:
            found.append(f"{path}: {said} · {words}")
            continue
        try:
            cells = pool(studies_of)
        except (Exception, SystemExit) as e:  # noqa: BLE001 - reported, not raised
            wrong.append(f"{path}: a paragraph marked with {studies_of}: {e}")
            continue
        if not all(matches(n, cells) for n in numbers(said.rstrip("%"))):
            line = raw.count("\n", 0, m.start()) + 1
            wrong.append(f"{path}:{line}: {said} ({words}) is in none of {', '.join(studies_of)}'s cells")
    return found, wrong


def unsourced(path):
    """Each result number in `path` with no source (`scan`)."""
    return scan(path)[0]


class Marks(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.marks, self.open = [], None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "data" and "data-study" in a:
            self.open = (self.getpos()[0], a, [])

    def handle_data(self, data):
        if self.open:
            self.open[2].append(data)

    def handle_endtag(self, tag):
        if tag == "data" and self.open:
            line, a, text = self.open
            self.marks.append((line, a, "".join(text)))
            self.open = None


def numbers(text):
    """The numbers in a cell or a marked text as written (`1 500` as `1500`, `4·10¹¹` as
    `4e11`, `3.6e+11` as it is; a range gives both ends)."""
    text = re.sub(r"(?<=\d) (?=\d{3}\b)", "", text)
    text = re.sub(rf"·10([{SUPER}]+)", lambda m: "e" + m.group(1).translate(str.maketrans(SUPER, "0123456789-")), text)
    return re.findall(r"\d+(?:\.\d+)?(?:e[-+]?\d+)?", text)


def significant(said):
    """How many significant digits `said` is written with (`0.070` three, `110` three)."""
    digits = said.split("e")[0].replace(".", "").lstrip("0")
    return max(len(digits), 1)


def matches(said, cell):
    """Whether `said` is one of the cell's numbers as printed, or rounded to the significant
    digits `said` is written with (`0.07` for a cell's `0.072`, `3` for `2.9`); a cell's fraction
    may be said as a percentage (`37` for `0.37`)."""
    value, places = float(said), significant(said)
    for c in cell:
        for x in (float(c), float(c) * 100):
            if float(f"{x:.{places}g}") == value:
                return True
    return False


TABLES = {}


def table(name):
    if name not in TABLES:
        every = studies.load([name])
        study = every[name]
        results = json.loads((studies.OUT / f"{name}.json").read_text(encoding="utf-8"))
        text = studies.reduction(study)(study, results)
        rows = [[c.strip() for c in line.strip().strip("|").split("|")]
                for line in text.splitlines() if line.startswith("|")]
        TABLES[name] = (rows[0], [r for r in rows[2:] if not set("".join(r)) <= set("-: ")], text)
    return TABLES[name]


def check_mark(a, text):
    name, row, col = a.get("data-study"), a.get("data-row", ""), a.get("data-col", "")
    try:
        head, rows, _ = table(name)
    except (Exception, SystemExit) as e:  # noqa: BLE001 - a bad name is reported, not raised
        return f"no kept study {name!r} ({e})"
    if not row and not col:
        # no cell named: the number must be one the study's table prints (a note's, say)
        said = numbers(text)
        everywhere = pool([name])
        wrong = [n for n in said if not matches(n, everywhere)]
        return f"says {text!r}, which {name}'s table does not print" if not said or wrong else None
    words = [w.strip() for w in row.split(";") if w.strip()]
    # a word names a row by a cell it equals, or, if no cell of the table equals it, one it is in
    exact = {w for w in words if any(w == c for r in rows for c in r)}
    hit = [r for r in rows if all(any(w == c if w in exact else w in c for c in r) for w in words)]
    col, _, nth = col.partition("#")
    cols = [i for i, h in enumerate(head) if col == h] or [i for i, h in enumerate(head) if col and col in h]
    if nth.isdigit() and 0 < int(nth) <= len(cols):
        cols = [cols[int(nth) - 1]]
    if len(hit) != 1:
        return f"data-row {row!r} matches {len(hit)} rows of {name}'s table (one must)"
    if len(cols) != 1:
        return f"data-col {col!r} matches {len(cols)} columns of {name}'s table: {head}"
    cell = hit[0][cols[0]] if cols[0] < len(hit[0]) else ""
    said = numbers(text)
    wrong = [n for n in said if not matches(n, numbers(cell))]
    if not said or wrong:
        return f"says {text!r}, the cell ({hit[0][0]} · {head[cols[0]]}) is {cell!r}"
    return None


def main(argv):
    scans = [scan(path) for path in DOCUMENTS]
    found = [u for f, _ in scans for u in f]
    if "--list" in argv:
        UNSOURCED.write_text("# result numbers not yet traced to a study (scripts/check_numbers.py)\n"
                             + "".join(f + "\n" for f in found), encoding="utf-8")
        print(f"{len(found)} numbers listed in {UNSOURCED.relative_to(ROOT)}")
        return 0
    listed = [line for line in UNSOURCED.read_text(encoding="utf-8").splitlines()
              if line and not line.startswith("#")] if UNSOURCED.exists() else []
    errors = [w for _, wrong in scans for w in wrong]
    for path in DOCUMENTS:
        parser = Marks()
        parser.feed((ROOT / path).read_text(encoding="utf-8"))
        for line, a, text in parser.marks:
            problem = check_mark(a, text)
            print(f"{path}:{line}: {text!r} from {a.get('data-study')}: {problem or 'holds'}")
            if problem:
                errors.append(f"{path}:{line}: {problem}")
    left = list(listed)
    for f in found:
        if f in left:
            left.remove(f)
        else:
            errors.append(f"no source: {f} (mark it, or say why it is not a result)")
    errors += [f"listed in studies/unsourced.txt but no longer in its file: {f}" for f in left]
    print(f"{len(found)} result numbers without a study's source, {len(listed)} listed")
    for e in errors:
        print(e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
