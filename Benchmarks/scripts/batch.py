#!/usr/bin/env python3
"""The batch benchmark: `galley heights` over a large JSON Lines file of message rows at three
widths, end to end (reading, JSON parsing, measuring, writing), with one worker and with two.
Reports rows per second, output lines per second and peak memory (the child's maximum RSS).

    python3 scripts/batch.py [ROWS]          # default 1,000,000 rows
"""
import os, resource, subprocess, sys, time
from pathlib import Path

here = Path(__file__).resolve().parent.parent
rows = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
data = here / ".build" / f"rows-{rows}.jsonl"
galley = here.parent / ".build" / "release" / "galley"
if not galley.exists():
    subprocess.run(["swift", "build", "-c", "release", "--product", "galley"], cwd=here.parent, check=True)
if not data.exists():
    data.parent.mkdir(parents=True, exist_ok=True)
    with open(data, "w") as f:
        subprocess.run([sys.executable, str(here / "scripts" / "make-rows.py"), str(rows)], stdout=f, check=True)

results = {}
for jobs in (1, 2):
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.monotonic()
    with open(os.devnull, "w") as sink:
        subprocess.run([str(galley), "heights", "--template", "message", "--width", "320,375,414", "--scale", "2",
                        "--jobs", str(jobs), str(data)], stdout=sink, check=True)
    elapsed = time.monotonic() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # KiB, the largest child so far
    results[jobs] = elapsed
    print(f"jobs={jobs}: {rows:,} rows × 3 widths in {elapsed:.2f} s: {rows / elapsed:,.0f} rows/s, "
          f"{3 * rows / elapsed:,.0f} heights/s; peak RSS so far {peak / 1024:.0f} MiB")
print(f"scaling from one worker to two: {results[1] / results[2]:.2f}×")
