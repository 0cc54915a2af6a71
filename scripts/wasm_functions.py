#!/usr/bin/env python3
"""The page's wasm read function by function: what each function, crate and module costs, and
which functions are compiled more than once (BENCHMARKS.md, "Issue 69, third sitting").

    python3 scripts/wasm_functions.py [--top N] [--match REGEX] [WASM]

WASM is a wasm with its name section; without one, the page's is built as Trunk builds it
(the `site` profile, `wasm-bindgen`, `wasm-opt -Oz --converge`) but with the names kept
(`wasm-opt -g`: the same passes; the names section is left out of the shipped file only), into
target/wasm-functions/. Prints the code's size, the largest functions, the size by crate and
module, and our functions compiled twice or more (the same path, other hashes: a generic
function is compiled in every crate that names its type, and copies that name other constants
cannot be folded by `wasm-opt`). Sizes are bytes of code before gzip.
"""
import argparse
import collections
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "target" / "wasm-functions"
FEATURES = ["--enable-bulk-memory", "--enable-nontrapping-float-to-int", "--enable-sign-ext",
            "--enable-mutable-globals", "--enable-reference-types", "--enable-multivalue"]


def leb(data, i):
    result = shift = 0
    while True:
        byte = data[i]
        i += 1
        result |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return result, i


def functions(path):
    """(size, name) of every function defined in the wasm at `path`."""
    data = Path(path).read_bytes()
    if data[:4] != b"\0asm":
        sys.exit(f"{path}: not a wasm module")
    i, imported, sizes, names = 8, 0, [], {}
    while i < len(data):
        section = data[i]
        size, i = leb(data, i + 1)
        start, end = i, i + size
        if section == 2:  # imports: functions among them take the first indices
            count, j = leb(data, start)
            for _ in range(count):
                for _ in range(2):
                    length, j = leb(data, j)
                    j += length
                kind = data[j]
                j += 1
                if kind == 0:
                    _, j = leb(data, j)
                    imported += 1
                elif kind == 1:
                    j += 1
                    flags, j = leb(data, j)
                    _, j = leb(data, j)
                    if flags & 1:
                        _, j = leb(data, j)
                elif kind == 2:
                    flags, j = leb(data, j)
                    _, j = leb(data, j)
                    if flags & 1:
                        _, j = leb(data, j)
                else:
                    j += 2
        elif section == 10:  # code
            count, j = leb(data, start)
            for _ in range(count):
                length, j = leb(data, j)
                sizes.append(length)
                j += length
        elif section == 0:  # custom: the name section's function names
            length, j = leb(data, start)
            if data[j:j + length] == b"name":
                j += length
                while j < end:
                    sub = data[j]
                    sub_size, j = leb(data, j + 1)
                    if sub == 1:
                        count, k = leb(data, j)
                        for _ in range(count):
                            index, k = leb(data, k)
                            length, k = leb(data, k)
                            names[index] = data[k:k + length].decode("utf-8", "replace")
                            k += length
                    j += sub_size
        i = end
    if not names:
        sys.exit(f"{path}: no name section (build one with this script, without WASM)")
    return [(size, names.get(imported + n, "?")) for n, size in enumerate(sizes)]


def build():
    """The page's wasm as Trunk builds it, its names kept; returns its path."""
    env = dict(os.environ)
    tools = subprocess.run(["bash", "-c", "source scripts/tools.sh >/dev/null && ensure_page_tools >/dev/null "
                            "&& command -v wasm-bindgen && command -v wasm-opt"],
                           cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    bindgen, opt = tools[-2], tools[-1]
    subprocess.run(["cargo", "build", "--quiet", "--offline", "--lib", "--profile", "site",
                    "--target", "wasm32-unknown-unknown"], cwd=ROOT, env=env, check=True)
    OUT.mkdir(parents=True, exist_ok=True)
    built = ROOT / "target" / "wasm32-unknown-unknown" / "site" / "ablation_playground.wasm"
    subprocess.run([bindgen, "--target", "web", "--out-dir", str(OUT), str(built)], check=True)
    out = OUT / "named.wasm"
    subprocess.run([opt, "-Oz", "--converge", "-g", *FEATURES, str(OUT / "ablation_playground_bg.wasm"),
                    "-o", str(out)], check=True)
    return out


def without_hash(name):
    return re.sub(r"::h[0-9a-f]{16}$", "", name)


def place(name, depth):
    """The crate and modules a function's path begins with (its first `depth` parts)."""
    path = re.sub(r"^<+", "", without_hash(name))
    path = re.sub(r"\[[0-9a-f]+\]", "", path)
    parts = re.split(r"::", path.split(" as ")[0].split("<")[0])
    return "::".join(parts[:depth]) if parts and parts[0] else "(no path)"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("wasm", nargs="?")
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--match", help="only the functions whose name matches this regular expression")
    a = ap.parse_args()
    path = a.wasm or build()
    rows = functions(path)
    if a.match:
        rows = [r for r in rows if re.search(a.match, r[1])]
    print(f"{path}: {len(rows)} functions, {sum(s for s, _ in rows)} B of code")
    print(f"\nthe {a.top} largest functions (B):")
    for size, name in sorted(rows, reverse=True)[:a.top]:
        print(f"{size:9d}  {without_hash(name)[:140]}")
    for depth, what in [(1, "crate"), (2, "crate and module")]:
        by = collections.Counter()
        for size, name in rows:
            by[place(name, depth)] += size
        print(f"\nby {what} (B):")
        for key, size in by.most_common(a.top):
            print(f"{size:9d}  {key[:140]}")
    copies = collections.defaultdict(list)
    for size, name in rows:
        copies[without_hash(name)].append(size)
    # our crates' functions only: a library's generic adapter (an iterator's `next`) appears once
    # per type it is used with, under one name, and those are not copies
    ours = re.compile(r"^<*ablation_")
    twice = sorted(((sum(s) - max(s), len(s), n) for n, s in copies.items() if len(s) > 1 and ours.match(n)),
                   reverse=True)
    print(f"\nour functions compiled more than once: {sum(t[0] for t in twice)} B beyond one copy each "
          "(a generic one named with two types is two functions, not a copy: read the list); the largest:")
    for extra, count, name in twice[:a.top]:
        print(f"{extra:9d}  ×{count}  {name[:140]}")


if __name__ == "__main__":
    main()
