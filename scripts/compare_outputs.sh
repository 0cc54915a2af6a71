#!/usr/bin/env bash
# Compares what `ablate` writes (its SVGs and its JSON report) between a base commit and the
# work tree, for a list of runs that covers every panel and comparison: a refactoring must
# leave every byte as it was, or the commit says why.
#
#   scripts/compare_outputs.sh [BASE]      (BASE: a commit, default HEAD)
#
# The base is built once into target/compare-base (a git worktree, kept for the next run);
# the outputs go to target/compare/{base,new}/CASE/. The timings of depth or width
# (`ms_per_step`, `ms_per_char`, and the chart that shows them) are measured, not computed,
# so they are left out of the comparison.
set -euo pipefail
cd "$(dirname "$0")/.."
base="${1:-HEAD}"
base_sha="$(git rev-parse "$base")"
root="$PWD/target/compare"
tree="$PWD/target/compare-base/tree"

# name | flags (each run short, so the whole list takes about a minute per build)
cases=(
  "both-on-12|--depth 12 --steps 200"
  "both-off-12-dark|--depth 12 --residual off --norm off --steps 200 --dark"
  "post-24|--depth 24 --norm post --steps 200"
  "sandwich-rms|--depth 8 --norm sandwich --norm-kind rmsnorm --steps 150"
  "deepnorm-block|--depth 6 --norm deepnorm --sublayer block --steps 100"
  "explode|--preset explode --steps 200"
  "text-diverges|--preset text --depth 4 --steps 150 --lr 2 --optimizer sgd --warmup 0"
  "vanishing|--preset gradient-experiment --steps 200"
  "break-heal|--preset break-and-heal --norm pre --residual on --steps 200"
  "text-attention|--preset text --depth 4 --steps 150 --attention --knockout"
  "copy|--preset copy --steps 150 --attention"
  "induction|--preset induction --steps 120 --attention"
  "warmup|--preset warmup --seed 3 --steps 200 --warmup 50"
  "compare|--depth 12 --steps 100 --compare"
  "compare-text|--preset text --depth 4 --steps 60 --compare"
  "sweep|--sweep 2,6 --steps 60"
  "depth-width|--preset induction --steps 40 --depth-width"
)

build() { # dir → path of its ablate
  (cd "$1" && cargo build --release --quiet --bin ablate --target-dir "$2")
  echo "$2/release/ablate"
}

run_all() { # ablate outdir
  rm -rf "$2"
  mkdir -p "$2"
  for c in "${cases[@]}"; do
    name="${c%%|*}"
    flags="${c#*|}"
    # shellcheck disable=SC2086
    "$1" $flags --threads 1 --svg "$2/$name" > "$2/$name.json"
    # the measured timings differ run to run: keep only the computed fields
    python3 - "$2/$name.json" <<'EOF'
import json, sys
path = sys.argv[1]
report = json.load(open(path))
for row in report.get("depth_width", []):
    row.pop("ms_per_step", None)
    row.pop("ms_per_char", None)
json.dump(report, open(path, "w"), sort_keys=True, indent=0)
EOF
    rm -f "$2/$name/depth-width.svg"
  done
}

if [ ! -d "$tree" ]; then
  git worktree add --detach "$tree" "$base_sha" >/dev/null
else
  git -C "$tree" checkout --quiet --force --detach "$base_sha"
fi
echo "building the base ($(git log -1 --format='%h %s' "$base_sha" | cut -c1-70))" >&2
# the base's checkout lies inside this workspace's folder: a base that is a single crate is
# told that it is a workspace of its own (the checkout's change is undone by the next checkout)
if ! grep -q '^\[workspace\]' "$tree/Cargo.toml"; then
  printf '\n[workspace]\n' >> "$tree/Cargo.toml"
fi
old="$(build "$tree" "$PWD/target/compare-base/target")"
echo "building the work tree" >&2
new="$(build "$PWD" "$PWD/target")"
run_all "$old" "$root/base"
run_all "$new" "$root/new"
if diff -r "$root/base" "$root/new" > "$root/diff.txt"; then
  n=$(find "$root/new" -type f | wc -l)
  echo "identical: ${#cases[@]} runs, $n files (SVGs and JSON reports) byte for byte against $(git rev-parse --short "$base_sha")"
else
  echo "DIFFERENT from $(git rev-parse --short "$base_sha"): see $root/diff.txt" >&2
  grep -E '^(diff|Only)' "$root/diff.txt" | head -40 >&2
  exit 1
fi
