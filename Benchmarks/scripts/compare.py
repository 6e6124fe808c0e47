#!/usr/bin/env python3
"""Runs the benchmark suite and prints the comparison table (Galley, Pango, ratio) that the
README shows, with the date, the machine and the command that produced it.

    python3 scripts/compare.py            # run the suite, then print the table
    python3 scripts/compare.py run.md     # print the table from a saved markdown run
                                          # (each run is saved as .build/last-run.md)

Ratios are taken within one run: these machines are shared, and only same-run ratios are fair.
"""
import datetime, os, platform, re, subprocess, sys
from pathlib import Path

here = Path(__file__).resolve().parent.parent
command = ["swift", "package", "--allow-writing-to-package-directory", "benchmark", "--format", "markdown", "--no-progress"]
if len(sys.argv) > 1:
    text = Path(sys.argv[1]).read_text()
else:
    run = subprocess.run(command, cwd=here, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({run.returncode}):\n{run.stderr[-4000:]}")
    text = run.stdout
    # Kept, so that the table can be printed again from this run: `compare.py .build/last-run.md`.
    (here / ".build" / "last-run.md").write_text(text)

# benchmark name -> {metric: p50}
results, current = {}, None
for line in text.splitlines():
    heading = re.match(r"^### (.+)$", line)
    if heading:
        current = heading.group(1).strip()
        results[current] = {}
        continue
    row = re.match(r"^\| ([^|]+?)\s+\|\s+([\d,]+)\s+\|\s+([\d,]+)\s+\|\s+([\d,]+)\s+\|", line)
    if current and row:
        results[current][row.group(1).strip()] = float(row.group(4).replace(",", ""))

def p50(name, metric="Time (wall clock) (ns) *"):
    return results.get(name, {}).get(metric)

rows = [
    ("Text, cold (caches emptied before each call)", "Text cold/Galley", "Text cold/Pango", "≥ 4×"),
    ("Text, warm (paragraph cache)", "Text warm/Galley", "Text warm/Pango", "≥ 40×"),
    ("Text, warm (segment cache only)", "Text warm segments/Galley", "Text warm/Pango", ""),
    ("Re-layout at a new width", "Relayout/Galley", "Relayout/Pango", "≥ 200×"),
    ("Paragraph as a two-line preview, cold", "Text preview cold/Galley", "Text preview cold/Pango", ""),
]
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.processor())
print(f"Measured {datetime.date.today()} on {os.cpu_count()} × {cpu}, `cd Benchmarks && {' '.join(command)}` "
      f"(then `python3 scripts/compare.py`). Times are medians per call (1,000 calls per sample).\n")
print("| benchmark | Galley | Pango | ratio | target | Galley allocations per call |")
print("| --- | ---: | ---: | ---: | ---: | ---: |")
for label, galley, pango, target in rows:
    g, p = p50(galley), p50(pango)
    if g is None or p is None:
        continue
    mallocs = p50(galley, "Malloc (total) *")
    print(f"| {label} | {g / 1000:.2f} µs | {p / 1000:.2f} µs | {p / g:.1f}× | {target} | {mallocs:.0f} |")
print()
print("| rows: measure + arrange, 375 pt, scale 2 | cold | warm | allocations (warm) |")
print("| --- | ---: | ---: | ---: |")
for kind in ("message", "subtitle", "image"):
    cold, warm = p50(f"Rows cold/{kind}"), p50(f"Rows warm/{kind}")
    if cold and warm:
        print(f"| {kind} | {cold / 1000:.1f} µs | {warm / 1000:.1f} µs | {p50(f'Rows warm/{kind}', 'Malloc (total) *'):.0f} |")
print()
print("| offset index, a million rows | median | allocations |")
print("| --- | ---: | ---: |")
build = p50("Table/build 1M rows", "Time (wall clock) (ms) *")
if build is not None:
    print(f"| build | {build:.0f} ms | {p50('Table/build 1M rows', 'Malloc (total) *'):.0f} |")
for name in ("insert", "delete", "move", "set height", "offset of row", "row at offset"):
    time = p50(f"Table/{name}")
    if time is not None:
        print(f"| {name} | {time:.0f} ns | {p50(f'Table/{name}', 'Malloc (total) *'):.0f} |")
