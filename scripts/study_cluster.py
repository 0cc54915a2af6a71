"""How a study's jobs run on a Dask cluster (scripts/studies.py calls these): each plain job a
task, and a tuned comparison driven from the client, each candidate's trial and each seed's run
of its rounds a task of its own (`ablate --jobs-elsewhere`, `ablate --run-job`). The workers get
the client's `ablate` binary and need no checkout. No module of ours is imported here: the
functions take the binary's path.
"""
import hashlib, json, subprocess
from concurrent.futures import ThreadPoolExecutor


def tuned(args):
    """Whether a job is a tuned comparison, whose candidates and seeds can each be a task."""
    return "--tune" in args


def run_elsewhere(ablate, args, run_round):
    """`ablate ARGS --jobs-elsewhere`, its rounds of jobs run by `run_round` (a list of jobs'
    hex to their reports' hex, in the same order): each candidate and seed of a tuned
    comparison a job of its own. Returns ablate's report, the bytes it gives when it runs its
    jobs itself."""
    p = subprocess.Popen([str(ablate), *args, "--jobs-elsewhere"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out = []
    for line in p.stdout:
        if line.startswith("JOBS"):
            p.stdin.write("REPORTS " + " ".join(run_round(line.split()[1:])) + "\n")
            p.stdin.flush()
        else:
            out.append(line)
    err = p.stderr.read()
    if p.wait() != 0:
        raise RuntimeError(f"ablate {' '.join(args)} --jobs-elsewhere failed: {err.strip()}")
    return "".join(out)


def run_job_here(ablate, hexes, workers):
    """One round's jobs, each `ablate --run-job` here, `workers` at once."""
    def one(h):
        p = subprocess.run([str(ablate), "--run-job"], input=h, capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError(f"ablate --run-job failed: {p.stderr.strip()}")
        return p.stdout.strip()

    with ThreadPoolExecutor(workers) as ex:
        return list(ex.map(one, hexes))


def _on_worker(binary, digest, args, stdin=None):
    """Runs on a Dask worker: `ablate` from the bytes the client sent, kept once per worker
    machine (with `stdin`, what it reads: a job's hex for `--run-job`)."""
    import os, subprocess, tempfile
    path = os.path.join(tempfile.gettempdir(), f"ablate-{digest[:16]}")
    if not os.path.exists(path):
        tmp = f"{path}.{os.getpid()}"
        with open(tmp, "wb") as f:
            f.write(binary)
        os.chmod(tmp, 0o755)
        os.replace(tmp, path)
    p = subprocess.run([path, *args], input=stdin, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"ablate {' '.join(args)} failed: {p.stderr.strip()}")
    return p.stdout


def run_cluster(ablate, argss, scheduler):
    """Each job a task on the Dask cluster at `scheduler` (an address, or a `Client`); a tuned
    comparison's job driven from here (`run_elsewhere`), each of its candidates' trials and
    seeds' runs a task."""
    from distributed import Client
    client = scheduler if isinstance(scheduler, Client) else Client(scheduler)
    binary = ablate.read_bytes()
    digest = hashlib.sha256(binary).hexdigest()
    shipped = client.scatter(binary, broadcast=True)
    plain = {i: client.submit(_on_worker, shipped, digest, args, pure=False)
             for i, args in enumerate(argss) if not tuned(args)}

    def run_round(hexes):
        tasks = [client.submit(_on_worker, shipped, digest, ["--run-job"], h, pure=False) for h in hexes]
        return [r.strip() for r in client.gather(tasks)]

    driven = [i for i, args in enumerate(argss) if tuned(args)]
    with ThreadPoolExecutor(max(1, len(driven))) as ex:
        tuned_out = dict(zip(driven, ex.map(lambda i: run_elsewhere(ablate, argss[i], run_round), driven)))
    got = client.gather(list(plain.values()))
    out = dict(zip(plain.keys(), got)) | tuned_out
    return [out[i] for i in range(len(argss))]


def local_cluster(workers):
    from distributed import Client, LocalCluster
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
    return cluster, Client(cluster)


def untimed(report):
    """A report's JSON without its wall-clock timings (depth or width's `ms_per_step` and
    `ms_per_char`, which no two runs share): every other number, exactly."""
    def strip(x):
        if isinstance(x, dict):
            return {k: strip(v) for k, v in x.items() if not k.startswith("ms_per_")}
        if isinstance(x, list):
            return [strip(v) for v in x]
        return x
    return strip(json.loads(report))


SHRUNK = {"--steps": "60", "--seeds": "2", "--choose-seeds": "2"}


def shrunk(flags):
    """A tuned comparison's flags with its budget cut (`SHRUNK`: 60 steps, 2 seeds shown, 2
    choosing): the same search and the same runs, in seconds, for the cluster's check."""
    out = list(flags)
    for i, f in enumerate(out[:-1]):
        if f in SHRUNK:
            out[i + 1] = SHRUNK[f]
    return out


