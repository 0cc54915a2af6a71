#!/usr/bin/env python3
"""The author's check: every number a lesson page marks up is recomputed with `ablate`.

A number in the prose is written as

    <data value="17" data-ablate="--preset break-and-heal --norm pre --steps 500"
          data-check="r.init.grad_norm[0] / r.init.grad_norm[-1]" data-within="0.05">17</data>

`data-ablate` holds the CLI's flags (docs/reference.md); `data-check` an expression
over the run's JSON report `r` (its fields as attributes, lists indexed as in Python, and
`mean_last(xs, n)`, the mean of a list's last n numbers); `value` the number the prose
states; `data-within` the relative difference allowed (default 0.05: "about" allows more).
`<data>` shows its text as it is; nothing changes for the reader.

    cargo build --release && python3 scripts/check_lesson.py www/lesson.html

prints each claim with the number it gets, and exits 1 if one does not hold (2 if a claim is
malformed). scripts/test.sh checks the example lesson and docs/findings.md with it.
"""
import json, subprocess, sys
from html.parser import HTMLParser
from types import SimpleNamespace

ABLATE = "target/release/ablate"


class Claims(HTMLParser):
    def __init__(self):
        super().__init__()
        self.claims = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "data-ablate" in a:
            line, _ = self.getpos()
            self.claims.append((line, a))


def as_object(value):
    if isinstance(value, dict):
        return SimpleNamespace(**{k: as_object(v) for k, v in value.items()})
    if isinstance(value, list):
        return [as_object(v) for v in value]
    return value


def mean_last(xs, n):
    xs = xs[-n:]
    return sum(xs) / len(xs)


def first_at(pairs, level):
    """The first step of `[[step, value], ...]` whose value reaches `level` (inf if none does)."""
    return next((step for step, v in pairs if v is not None and v >= level), float("inf"))


def main(path):
    parser = Claims()
    with open(path, encoding="utf-8") as f:
        parser.feed(f.read())
    runs = {}
    failed = 0
    for line, a in parser.claims:
        where = f"{path}:{line}"
        try:
            stated = float(a["value"])
            check = a["data-check"]
            within = float(a.get("data-within", "0.05"))
        except (KeyError, ValueError) as e:
            print(f"{where}: a claim needs value, data-ablate and data-check ({e})")
            return 2
        flags = a["data-ablate"]
        if flags not in runs:
            out = subprocess.run([ABLATE, *flags.split()], capture_output=True, text=True)
            if out.returncode != 0:
                print(f"{where}: ablate {flags}: {out.stderr.strip()}")
                return 2
            runs[flags] = as_object(json.loads(out.stdout))
        got = eval(check, {"__builtins__": {}}, {"r": runs[flags], "mean_last": mean_last, "first_at": first_at, "abs": abs, "max": max, "min": min})
        holds = abs(got - stated) <= within * abs(stated)
        failed += not holds
        print(f"{'ok  ' if holds else 'FAIL'} {where}: {stated:g} stated, {got:.4g} from `ablate {flags}` ({check}, within {within:.1%})")
    print(f"{len(parser.claims)} claims, {failed} not holding")
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))
