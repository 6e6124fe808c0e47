#!/usr/bin/env bash
# Runs Examples/spark/heights_job.py in Spark's local mode on two cores over the bundled examples
# repeated to 100,000 rows in 8 shards, and checks that the part files, concatenated, are byte
# for byte one `galley heights` run over the same input. Installs what is missing first: a Java
# runtime (Debian's default-jre-headless) and pyspark (PyPI).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-dependencies.sh
if ! command -v java >/dev/null; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq default-jre-headless >/dev/null
fi
python3 -c "import pyspark" 2>/dev/null || python3 -m pip install -q "pyspark>=3.5,<4"
swift build -c release --product galley
export GALLEY="$PWD/$(swift build -c release --show-bin-path | sed "s|^$PWD/||")/galley"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# 100,000 items: the examples' rows over and over, each copy with ids of its own, in 8 shards.
python3 - "$work" <<'PY'
import json, sys
rows = [json.loads(line) for line in open("Examples/items.jsonl", encoding="utf-8")]
with open(f"{sys.argv[1]}/all.jsonl", "w", encoding="utf-8") as whole:
    shards = [open(f"{sys.argv[1]}/shard-{n}.jsonl", "w", encoding="utf-8") for n in range(8)]
    for index in range(100_000):
        row = dict(rows[index % len(rows)], id=f"{index}")
        line = json.dumps(row, ensure_ascii=False) + "\n"
        whole.write(line)
        shards[index * 8 // 100_000].write(line)
    for shard in shards:
        shard.close()
PY
mkdir "$work/shards" && mv "$work"/shard-*.jsonl "$work/shards/"
options=(--templates "$PWD/Examples/templates.json" --width 320,768 --scale 2 --jobs 1)
"$GALLEY" heights --quiet "${options[@]}" "$work/all.jsonl" > "$work/expected.jsonl"
PYSPARK_PYTHON=python3 python3 - "$work" "${options[@]}" <<'PY'
import os, sys, runpy
os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
from pyspark.sql import SparkSession
SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false").getOrCreate().sparkContext.setLogLevel("ERROR")
work = sys.argv[1]
sys.argv = ["heights_job.py", f"{work}/shards", f"{work}/out", *sys.argv[2:]]
runpy.run_path("Examples/spark/heights_job.py", run_name="__main__")
PY
cat "$work"/out/part-* > "$work/spark.jsonl"
if cmp -s "$work/spark.jsonl" "$work/expected.jsonl"; then
  echo "Spark (local[2], $(ls "$work"/out/part-* | wc -l) partitions): $(wc -l < "$work/spark.jsonl") lines, identical to one galley heights run"
else
  echo "Spark's output differs from one galley heights run" >&2
  exit 1
fi
