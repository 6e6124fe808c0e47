#!/usr/bin/env bash
# Installs what is missing, then computes row heights for the bundled example data (Examples/data)
# with the example templates (Examples/templates.json), reading each file in its own format.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-dependencies.sh
swift build -c release --product galley
galley=.build/release/galley
echo "== An RSS feed: each post at 320 and 768 points, its HTML description reduced to text"
$galley heights --templates Examples/templates.json --template post --width 320,768 --scale 2 \
  --map date=pubDate,summary=description,categories=category --strip-html summary \
  Examples/data/three20-blog-feed.rss
echo "== A drill-down property list: every row of every level, flattened"
$galley heights --templates Examples/templates.json --template drilldown --width 320 --scale 2 \
  --map title=Title,hasChildren=childCount Examples/data/drilldown-Data.plist
echo "== Book lists as XML and CSV, in one run"
$galley heights --templates Examples/templates.json --template book --record book --width 320 --scale 2 \
  Examples/data/books-many.xml Examples/data/books.csv
echo "== The same books into a SQLite database, queried with sqlite3 (a second run finds them current)"
database="$(mktemp -d)/books.sqlite"
$galley heights --templates Examples/templates.json --template book --record book --width 320,414 --scale 3 \
  -o "$database" Examples/data/books-many.xml
$galley heights --templates Examples/templates.json --template book --record book --width 320,414 --scale 3 \
  -o "$database" Examples/data/books-many.xml
sqlite3 -header -column "$database" 'SELECT id, width, height, template FROM heights ORDER BY position, width'
rm -rf "$(dirname "$database")"
echo "== The feed drawn as a table shows it, at 320 and 375 points (as Docs/feed.png)"
drawing="$(mktemp -d)/feed.png"
$galley render --templates Examples/templates.json --template post --width 320,375 --scale 2 \
  --map date=pubDate,summary=description,categories=category --strip-html summary \
  -o "$drawing" Examples/data/three20-blog-feed.rss
echo "$drawing: $(wc -c < "$drawing") bytes, the same as Docs/feed.png: $(cmp -s "$drawing" Docs/feed.png && echo yes || echo no)"
rm -rf "$(dirname "$drawing")"
echo "== galley measure: texts in twelve scripts (Examples/measure.jsonl; one row is deliberately bad)"
$galley measure --scale 2 Examples/measure.jsonl || [ $? -eq 1 ]
