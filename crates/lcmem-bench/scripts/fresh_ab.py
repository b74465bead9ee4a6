#!/usr/bin/env python3
"""Two lcmem binaries as fresh `lcmem recall --json` processes, and `rg -i -c`,
one query at a time in turn, on a synthetic store (`lcmem-bench synth`).

Each binary answers on its own copy of the store, since two versions may
write the index in different formats:

    cp -a STORE STORE-old                      # then, in STORE-old/home/sessions,
    # rename the project folder to the one OLD makes of STORE-old/project, and
    OLD --home STORE-old/home --project STORE-old/project index rebuild
    fresh_ab.py --new NEW --new-store STORE --old OLD --old-store STORE-old

The queries have the speed benchmark's shapes, drawn from the session files'
names (project name and noun). Prints the p50 of each and the ratio to rg's.
"""

import argparse
import random
import statistics
import subprocess
import time
from pathlib import Path


def queries(sessions: Path, count: int) -> list[str]:
    rng = random.Random(7)
    names = sorted(p.stem.split("-") for p in sessions.glob("*.jsonl"))
    adjectives = ["stale", "flaky", "slow", "broken", "legacy", "async", "nested"]
    verbs = ["fix", "refactor", "migrate", "cache", "retry", "document"]
    out = []
    for i in range(count):
        name = rng.choice(names)
        project, noun = name[3], name[4]
        out.append(
            [
                f"{project} {noun}",
                f"{rng.choice(verbs)} {rng.choice(adjectives)} {noun}",
                f'"{rng.choice(adjectives)} {noun}"',
                f"why was the {project} {noun} {rng.choice(adjectives)}",
            ][i % 4]
        )
    return out


def timed(args: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(args, stdout=subprocess.DEVNULL, check=True)
    return (time.perf_counter() - started) * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--new", required=True)
    ap.add_argument("--new-store", required=True, type=Path)
    ap.add_argument("--old", required=True)
    ap.add_argument("--old-store", required=True, type=Path)
    ap.add_argument("--queries", type=int, default=40)
    a = ap.parse_args()
    runs = {"new": (a.new, a.new_store), "old": (a.old, a.old_store)}
    sessions = next(p for p in (a.new_store / "home" / "sessions").iterdir() if p.is_dir())
    times: dict[str, list[float]] = {"new": [], "old": [], "rg": []}
    for i, q in enumerate(queries(sessions, a.queries)):
        for which in ("new", "old") if i % 2 == 0 else ("old", "new"):
            binary, store = runs[which]
            args = [binary, "--home", str(store / "home"), "--project", str(store / "project")]
            times[which].append(timed(args + ["recall", "--json", "--", q]))
        words = q.replace('"', " ").split()
        times["rg"].append(timed(["rg", "-i", "-c", *sum((["-e", w] for w in words), []), str(sessions)]))
    p50 = {k: statistics.median(v) for k, v in times.items()}
    for k, v in p50.items():
        print(f"{k}: p50 {v:.2f} ms over {len(times[k])} queries")
    print(f"rg p50 / new p50 = {p50['rg'] / p50['new']:.2f}x; rg p50 / old p50 = {p50['rg'] / p50['old']:.2f}x")


if __name__ == "__main__":
    main()
