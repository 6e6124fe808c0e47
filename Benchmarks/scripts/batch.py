#!/usr/bin/env python3
"""The batch benchmark: `galley heights` over a large JSON Lines file of message rows at three
widths, end to end (reading, JSON parsing, measuring, writing), with one worker and with two.
Reports rows per second, output lines per second, peak memory (the child's maximum RSS) and
CPU time. The one-worker run is held to one core (its reading and writing threads share it
with the worker), so that the scaling is from one core to two. CPU time tells the code's
scaling from the machine's: if two workers use no more CPU time than one, the work divides
without overhead, and wall-clock scaling short of 2× is the time the two cores were not both
ours (other load, or two busy cores running slower than one).

    python3 scripts/batch.py [ROWS]          # default 1,000,000 rows
"""
import os, subprocess, sys, time
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
    start = time.monotonic()
    with open(os.devnull, "w") as sink:
        cores = {min(os.sched_getaffinity(0))} if jobs == 1 else os.sched_getaffinity(0)
        child = subprocess.Popen([str(galley), "heights", "--template", "message", "--width", "320,375,414", "--scale", "2",
                                  "--jobs", str(jobs), str(data)], stdout=sink,
                                 preexec_fn=lambda: os.sched_setaffinity(0, cores))
        _, status, usage = os.wait4(child.pid, 0)
    elapsed = time.monotonic() - start
    if status != 0:
        sys.exit(f"galley heights --jobs {jobs} failed (wait status {status})")
    cpu = usage.ru_utime + usage.ru_stime
    results[jobs] = (elapsed, cpu)
    print(f"jobs={jobs} on {len(cores)} core{'s' if len(cores) > 1 else ''}: {rows:,} rows × 3 widths in {elapsed:.2f} s: {rows / elapsed:,.0f} rows/s, "
          f"{3 * rows / elapsed:,.0f} heights/s; CPU {cpu:.2f} s ({cpu / elapsed:.2f} cores busy); "
          f"peak RSS {usage.ru_maxrss / 1024:.0f} MiB")
(wall1, cpu1), (wall2, cpu2) = results[1], results[2]
print(f"scaling from one core to two: {wall1 / wall2:.2f}× wall clock; "
      f"CPU time with two workers {cpu2 / cpu1:.2f}× that with one")
