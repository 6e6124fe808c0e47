#!/usr/bin/env python3
"""What HarfBuzz alone costs on the benchmark sentences, beside Galley cold and Pango: the floor
under the cold-text target. Instructions per sentence under callgrind (repeatable on a shared
machine), for the sentences in Latin, Cyrillic and Greek, which Noto Sans shapes in one face:

- Pango measuring each sentence (`Profile pango`), and the part of it in HarfBuzz's shaping;
- Galley measuring each sentence with its caches emptied first (`Profile cold`), and that part;
- HarfBuzz alone (`scripts/shaping-floor.c`): each sentence in one `hb_shape` call, and each of
  its distinct words alone as Galley shapes them.

    python3 scripts/shaping-floor.py        # about two minutes; needs valgrind, gcc, pkg-config
"""
import json, re, shutil, subprocess, sys
from pathlib import Path

here = Path(__file__).resolve().parent.parent
build = here / ".build"
scripts = ("Latn", "Cyrl", "Grek")
font = here.parent / "Fonts" / "NotoSans-Regular.ttf"

for tool in ("valgrind", "callgrind_annotate", "gcc", "pkg-config", "objcopy"):
    if shutil.which(tool) is None:
        sys.exit(f"shaping-floor.py needs {tool}")
build.mkdir(exist_ok=True)
sentences = [s for s in json.loads((here / "Fixtures" / "samples.json").read_text())["sentences"] if s["script"] in scripts]
table = build / "floor-sentences.tsv"
table.write_text("".join(f"{s['lang'] or ''}\t{s['script']}\t{s['text']}\n" for s in sentences))

# The floor program, and the Profile driver stripped (valgrind 3.19 cannot read DWARF 5).
floor = build / "shaping-floor"
flags = subprocess.run(["pkg-config", "--cflags", "--libs", "harfbuzz"], capture_output=True, text=True, check=True).stdout.split()
subprocess.run(["gcc", "-O2", "-o", str(floor), str(here / "scripts" / "shaping-floor.c"), *flags], check=True)
subprocess.run(["swift", "build", "-c", "release", "--product", "Profile"], cwd=here, check=True, capture_output=True)
profile = build / "profile-stripped"
shutil.copy(build / "release" / "Profile", profile)
subprocess.run(["objcopy", "--strip-debug", str(profile)], check=True)

def callgrind(command, stdin=None):
    """(total instructions, instructions inside hb_shape) of one run."""
    out = build / "shaping-floor.callgrind"
    with open(stdin or "/dev/null") as source:
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *command],
                       stdin=source, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    report = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", str(out)],
                            capture_output=True, text=True, check=True).stdout
    total = int(re.search(r"^\s*([\d,]+) \(100\.0%\)\s+PROGRAM TOTALS", report, re.M).group(1).replace(",", ""))
    shaping = max([int(m.group(1).replace(",", "")) for m in re.finditer(r"^\s*([\d,]+) \([^)]*\)\s+\S*:hb_shape(?:_full)? \[", report, re.M)] or [0])
    return total, shaping

def per_sentence(make, small, large, calls):
    """Instructions per sentence: a run of `large` less one of `small`, over the calls between."""
    (total_a, shaping_a), (total_b, shaping_b) = callgrind(*make(small)), callgrind(*make(large))
    return (total_b - total_a) / calls, (shaping_b - shaping_a) / calls

n = len(sentences)
selection = ",".join(scripts)
rows = [
    ("Pango (`Profile pango`)", per_sentence(lambda k: ([str(profile), "pango", str(k), selection],), n, 3 * n, 2 * n)),
    ("Galley, caches emptied (`Profile cold`)", per_sentence(lambda k: ([str(profile), "cold", str(k), selection],), n, 3 * n, 2 * n)),
    ("HarfBuzz alone, each sentence in one call", per_sentence(lambda k: ([str(floor), str(font), "whole", str(k)], table), 1, 3, 2 * n)),
    ("HarfBuzz alone, each distinct word alone", per_sentence(lambda k: ([str(floor), str(font), "words", str(k)], table), 1, 3, 2 * n)),
]
pango = rows[0][1][0]
print(f"{n} benchmark sentences in {', '.join(scripts)}; instructions per sentence (callgrind)\n")
print("| | total | in HarfBuzz's shaping |")
print("| --- | ---: | ---: |")
for label, (total, shaping) in rows:
    print(f"| {label} | {total / 1000:,.1f}K | {shaping / 1000:,.1f}K |")
print(f"\nA 4× cold target leaves {pango / 4 / 1000:,.1f}K instructions a sentence (Pango's total ÷ 4); "
      f"HarfBuzz alone needs {min(rows[2][1][1], rows[3][1][1]) / 1000:,.1f}K at least.")
