#!/usr/bin/env python3
"""The studies behind docs/findings.md, declared in studies/*.toml and run by one command.

A study file names its arms (each a list of `ablate` flags added to the study's own), its
seeds, and the reduction (`table`, a function of scripts/study_tables.py) that turns the runs'
reports into the table findings.md quotes. `run` trains every job (one `ablate` per arm and
seed, or per arm when the study is a tuned comparison that runs its seeds itself), keeps what
the table reads in docs/studies/NAME.json, writes the table to docs/studies/NAME.md and between
the markers `<!-- study:NAME -->` and `<!-- /study:NAME -->` of docs/findings.md.

    bash scripts/studies.sh run                      every study, here, on every core
    bash scripts/studies.sh run xiong-gradients      one
    bash scripts/studies.sh run --scheduler tcp://HOST:8786
                                                     on a running Dask cluster: each job is a
                                                     task; the workers get this ablate binary
                                                     (x86-64 Linux) from the client, and need
                                                     no checkout
    bash scripts/studies.sh tables                   the tables again from the kept results
    bash scripts/studies.sh check                    recomputes each study's check job and
                                                     fails if a kept number drifted
    bash scripts/studies.sh schema                   checks every study file
    bash scripts/studies.sh cluster-check            the check jobs here and on a local Dask
                                                     cluster of two workers: bit for bit alike
    bash scripts/studies.sh scaling [NAME]           a study's jobs on 1 and on 2 local workers

The jobs are independent runs of a deterministic program: the same flags give the same bytes on
any machine with this binary, so where a job ran does not change a number.
"""
import argparse, hashlib, json, os, re, shlex, subprocess, sys, time, tomllib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STUDIES = ROOT / "studies"
OUT = ROOT / "docs" / "studies"
FINDINGS = ROOT / "docs" / "findings.md"
# AP_ABLATE: another build of ablate (a copy, so that a long study is not disturbed by a rebuild)
ABLATE = Path(os.environ.get("AP_ABLATE") or ROOT / "target" / "release" / "ablate")

sys.path.insert(0, str(Path(__file__).resolve().parent))
import study_tables  # noqa: E402
from study_cluster import local_cluster, run_cluster, shrunk, untimed  # noqa: E402

# the keys a study file may have, and what each must be
KEYS = {
    "title": str,
    "finding": str,  # the findings.md section it serves
    "paper": str,  # the paper and what of it the study follows
    "protocol": str,  # the paper's own protocol, in words
    "ours": str,  # where ours differs, and why
    "flags": list,
    "seeds": list,  # [first, last], inclusive
    "per": str,  # "seed": one job per arm and seed; "arm": one job per arm (it runs its seeds)
    "table": str,
    "arms": list,
    "check": dict,
}
REQUIRED = {"title", "finding", "paper", "protocol", "ours", "flags", "seeds", "per", "table", "arms", "check"}


def reduction(study, suffix=""):
    """The study's reduction in scripts/study_tables.py (`NAME`, `NAME_values`, `NAME_check`), or None."""
    return getattr(study_tables, study["table"].replace("-", "_") + suffix, None)


def validate(name, study):
    """Every way `study` (the file NAME.toml) breaks the schema, as sentences."""
    errors = []
    for key in sorted(REQUIRED - study.keys()):
        errors.append(f"{name}: no `{key}`")
    for key, value in study.items():
        if key not in KEYS:
            errors.append(f"{name}: unknown key `{key}`")
        elif not isinstance(value, KEYS[key]):
            errors.append(f"{name}: `{key}` is a {type(value).__name__}, not a {KEYS[key].__name__}")
    if errors:
        return errors
    if study["per"] not in ("seed", "arm"):
        errors.append(f"{name}: `per` is {study['per']!r}, not \"seed\" or \"arm\"")
    seeds = study["seeds"]
    if len(seeds) != 2 or not all(isinstance(s, int) and s >= 0 for s in seeds) or seeds[0] > seeds[1]:
        errors.append(f"{name}: `seeds` must be [first, last], {seeds}")
    if not all(isinstance(f, str) and f for f in study["flags"]):
        errors.append(f"{name}: `flags` must be strings")
    if "--seed" in study["flags"]:
        errors.append(f"{name}: `flags` sets --seed; the seeds come from `seeds`")
    names = []
    for i, arm in enumerate(study["arms"]):
        if not isinstance(arm, dict) or set(arm) != {"name", "flags"} or not isinstance(arm.get("name"), str) \
                or not isinstance(arm.get("flags"), list) or not all(isinstance(f, str) for f in arm["flags"]):
            errors.append(f"{name}: arm {i + 1} must be {{name = \"…\", flags = [\"--flag\", \"value\", …]}}")
            continue
        names.append(arm["name"])
    if len(set(names)) != len(names):
        errors.append(f"{name}: two arms share a name")
    if reduction(study) is None:
        errors.append(f"{name}: `table` {study['table']!r} is not a function of scripts/study_tables.py")
    check = study["check"]
    if set(check) - {"arm", "seed"} or check.get("arm") not in names or not isinstance(check.get("seed"), int):
        errors.append(f"{name}: `check` must be {{arm = one of the arms' names, seed = N}}: {check}")
    if not FINDINGS.read_text(encoding="utf-8").count(f"<!-- study:{name} -->") == 1:
        errors.append(f"{name}: docs/findings.md has no `<!-- study:{name} -->` marker (or more than one)")
    return errors


def load(names=None):
    studies = {}
    for path in sorted(STUDIES.glob("*.toml")):
        if names and path.stem not in names:
            continue
        with open(path, "rb") as f:
            studies[path.stem] = tomllib.load(f)
    missing = set(names or []) - studies.keys()
    if missing:
        sys.exit(f"no study file for: {', '.join(sorted(missing))} (studies/*.toml)")
    return studies


def jobs(study):
    """(arm name, seed or None, the flags) of every job of `study`."""
    first, last = study["seeds"]
    out = []
    for arm in study["arms"]:
        if study["per"] == "seed":
            for seed in range(first, last + 1):
                out.append((arm["name"], seed, [*study["flags"], *arm["flags"], "--seed", str(seed), "--threads", "1"]))
        else:
            out.append((arm["name"], None, [*study["flags"], *arm["flags"], "--seed", str(first)]))
    return out


def run_local(argss, workers):
    def one(args):
        p = subprocess.run([str(ABLATE), *args], capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError(f"ablate {shlex.join(args)} failed: {p.stderr.strip()}")
        return p.stdout

    with ThreadPoolExecutor(workers) as ex:
        return list(ex.map(one, argss))


def run_jobs(argss, scheduler=None, workers=None):
    if scheduler is not None:
        return run_cluster(ABLATE, argss, scheduler)
    return run_local(argss, workers or os.cpu_count() or 1)


def results_of(name, study, outputs, todo):
    extract = reduction(study, "_values")
    return {
        "study": name,
        "ablate": ablate_version(),
        "jobs": [{"arm": arm, "seed": seed, "flags": flags, "values": extract(json.loads(out))}
                 for (arm, seed, flags), out in zip(todo, outputs)],
    }


def ablate_version():
    return hashlib.sha256(ABLATE.read_bytes()).hexdigest()[:16]


def write_table(name, study, results):
    table = reduction(study)(study, results)
    first, last = study["seeds"]
    head = f"*{study_tables.title_words(study, results)}.* Study file `studies/{name}.toml`, seeds {first}–{last}; " \
           f"regenerate with `bash scripts/studies.sh run {name}`.\n\n"
    text = head + table.strip() + "\n"
    findings = FINDINGS.read_text(encoding="utf-8")
    pattern = re.compile(rf"(<!-- study:{re.escape(name)} -->\n).*?(<!-- /study:{re.escape(name)} -->)", re.S)
    if not pattern.search(findings):
        sys.exit(f"docs/findings.md: no `<!-- study:{name} -->` … `<!-- /study:{name} -->` markers")
    FINDINGS.write_text(pattern.sub(lambda m: m.group(1) + text + m.group(2), findings), encoding="utf-8")


def cmd_run(a):
    studies = load(a.names)
    bad = [e for n, s in studies.items() for e in validate(n, s)]
    if bad:
        sys.exit("\n".join(bad))
    OUT.mkdir(parents=True, exist_ok=True)
    scheduler = a.scheduler
    for name, study in studies.items():
        todo = jobs(study)
        start = time.monotonic()
        print(f"{name}: {len(todo)} jobs {'on ' + str(a.scheduler) if a.scheduler else 'here'} …", flush=True)
        raw = OUT / f"{name}.failed.json"
        kept = json.loads(raw.read_text(encoding="utf-8")) if raw.exists() else None
        if kept and kept["todo"] == [list(t) for t in todo] and kept.get("ablate") == ablate_version():
            # the jobs ran before and only their reduction failed: reduce their reports again
            print(f"{name}: the jobs' reports kept in {raw} (the reduction had failed)", flush=True)
            outputs = kept["outputs"]
        else:
            outputs = run_jobs([flags for _, _, flags in todo], scheduler, a.workers)
        try:
            results = results_of(name, study, outputs, todo)
        except Exception:
            # the reduction failed: keep what the jobs reported, so that a long run is not lost
            raw.write_text(json.dumps({"todo": todo, "ablate": ablate_version(), "outputs": outputs}) + "\n",
                           encoding="utf-8")
            print(f"{name}: the reduction failed; the jobs' reports are in {raw}", file=sys.stderr)
            raise
        results["seconds"] = round(time.monotonic() - start, 1)
        results["where"] = f"a Dask cluster" if a.scheduler else f"here, {a.workers or os.cpu_count()} at once"
        (OUT / f"{name}.json").write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
        raw.unlink(missing_ok=True)
        write_table(name, study, results)
        print(f"{name}: done in {results['seconds']} s", flush=True)


def cmd_tables(a):
    for name, study in load(a.names).items():
        write_table(name, study, json.loads((OUT / f"{name}.json").read_text(encoding="utf-8")))


def close(a, b, rel):
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(close(a[k], b[k], rel) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(close(x, y, rel) for x, y in zip(a, b))
    if isinstance(a, float) and isinstance(b, (int, float)):
        return a == b or abs(a - b) <= rel * max(abs(a), abs(b))
    return a == b


def check_jobs(study):
    arm, seed = study["check"]["arm"], study["check"]["seed"]
    return [j for j in jobs(study) if j[0] == arm and (j[1] == seed or j[1] is None)]


def checks(name, study, kept):
    """(what, the flags, the numbers kept, how to read them from the report) of each job
    `check` recomputes: the study's check arm and seed, or its table's own (`NAME_check`, for a
    study whose jobs are too long to run again, a single run of one it reported)."""
    own = reduction(study, "_check")
    if own:
        return own(study, kept)
    extract = reduction(study, "_values")
    out = []
    for arm, seed, flags in check_jobs(study):
        want = next((j for j in kept["jobs"] if j["arm"] == arm and j["seed"] == seed), None)
        if want is None:
            sys.exit(f"study {name}: {arm} seed {seed} is not in docs/studies/{name}.json")
        out.append((f"{arm}, seed {seed}", flags, want["values"], extract))
    return out


def cmd_check(a):
    """Each study's check jobs, recomputed, against the numbers kept from the full run."""
    failed = 0
    for name, study in load(a.names).items():
        kept = json.loads((OUT / f"{name}.json").read_text(encoding="utf-8"))
        todo = checks(name, study, kept)
        outputs = run_jobs([flags for _, flags, _, _ in todo], None, a.workers)
        for (what, flags, want, extract), out in zip(todo, outputs):
            got = extract(json.loads(out))
            want = {k: want[k] for k in got if k in want}
            if not close(got, want, 1e-9):
                print(f"FAIL - study {name}: {what} drifted\n    kept: {json.dumps(want)[:600]}\n"
                      f"    now:  {json.dumps(got)[:600]}\n    ablate {shlex.join(flags)}")
                failed += 1
            else:
                print(f"ok - study {name}: {what}: the kept numbers recomputed ({', '.join(got)})")
    if failed:
        sys.exit(1)


def cmd_schema(a):
    studies = load(a.names)
    bad = [e for n, s in studies.items() for e in validate(n, s)]
    for e in bad:
        print(f"FAIL - {e}")
    if not studies:
        print("FAIL - no study files in studies/")
        sys.exit(1)
    marked = set(re.findall(r"<!-- study:([\w-]+) -->", FINDINGS.read_text(encoding="utf-8")))
    for name in sorted(marked - studies.keys()):
        print(f"FAIL - docs/findings.md marks study {name}, which has no studies/{name}.toml")
        bad.append(name)
    for name in studies:
        if not (OUT / f"{name}.json").exists():
            print(f"FAIL - {name}: no kept results (docs/studies/{name}.json): run `bash scripts/studies.sh run {name}`")
            bad.append(name)
    if bad:
        sys.exit(1)
    print(f"ok - {len(studies)} study files keep the schema, each with its kept results and its place in findings.md")


def cmd_cluster_check(a):
    """The check jobs of every study here, then on a local Dask cluster of two worker
    processes: the reports must be the same bytes."""
    # the check job of every study that runs one job per seed, and of every tuned comparison
    # (one job per arm, which runs for minutes) the same program shrunk to seconds (`shrunk`)
    every = load(a.names).values()
    todo = [j for s in every if s["per"] == "seed" for j in check_jobs(s)]
    todo += [(arm, seed, shrunk(flags)) for s in every if s["per"] == "arm" for arm, seed, flags in check_jobs(s)]
    argss = [flags for _, _, flags in todo]
    here = run_local(argss, 2)
    cluster, client = local_cluster(2)
    try:
        there = run_cluster(ABLATE, argss, client)
        workers = len(client.scheduler_info()["workers"])
    finally:
        client.close()
        cluster.close()
    bad = 0
    for (arm, seed, flags), x, y in zip(todo, here, there):
        if x != y and untimed(x) == untimed(y):
            continue  # only the wall-clock timings of depth or width differ, as they must
        if x != y:
            bad += 1
            print(f"FAIL - cluster: ablate {shlex.join(flags)} gave other bytes on the cluster "
                  f"({len(y)} against {len(x)} here; first difference at {next(i for i, (p, q) in enumerate(zip(x, y)) if p != q) if x[:1] else 0})")
    if workers != 2:
        print(f"FAIL - cluster: {workers} workers, not 2")
        bad += 1
    if bad:
        sys.exit(1)
    print(f"ok - cluster: {len(todo)} jobs on a local Dask cluster of 2 workers, {sum(s['per'] == 'arm' for s in every)} of them "
          "tuned comparisons shrunk to seconds, gave the local run's bytes (depth or width's timings aside)")


def cmd_scaling(a):
    """A study's jobs on a local cluster of 1 worker, then 2: the wall time of each."""
    studies = load(a.names)
    argss = [flags for s in studies.values() for _, _, flags in jobs(s)]
    for n in (1, 2):
        cluster, client = local_cluster(n)
        try:
            start = time.monotonic()
            run_cluster(ABLATE, argss, client)
            print(f"{n} worker{'s' if n > 1 else ''}: {len(argss)} jobs in {time.monotonic() - start:.1f} s", flush=True)
        finally:
            client.close()
            cluster.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("command", choices=["run", "tables", "check", "schema", "cluster-check", "scaling"])
    ap.add_argument("names", nargs="*", help="the studies (file names without .toml); all if none")
    ap.add_argument("--scheduler", help="a Dask scheduler's address (tcp://HOST:8786): run there")
    ap.add_argument("--workers", type=int, help="jobs at once here [the cores]")
    a = ap.parse_args()
    if not ABLATE.exists():
        sys.exit(f"{ABLATE} is missing: cargo build --release --bin ablate")
    {"run": cmd_run, "tables": cmd_tables, "check": cmd_check, "schema": cmd_schema,
     "cluster-check": cmd_cluster_check, "scaling": cmd_scaling}[a.command](a)


if __name__ == "__main__":
    main()
