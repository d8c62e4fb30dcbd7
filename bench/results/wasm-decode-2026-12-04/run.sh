#!/bin/sh
# The cold-pass A/B: ROUNDS rounds, the arms alternating first, one fresh process at a time.
# sh run.sh BUILD INDEX OUTDIR [ROUNDS=4]   (BUILD: a checkout with dist/ built)
set -e
BUILD=$1 INDEX=$2 OUT=$3 ROUNDS=${4:-4}
HERE=$(cd "$(dirname "$0")" && pwd)
JS=$(mktemp -d)
# The JavaScript arm: the same build with decodeOptions.wasm off by default (workers too).
cp -r "$BUILD/dist" "$JS/" && cp "$BUILD/package.json" "$JS/" && ln -s "$(cd "$BUILD" && pwd -P)/node_modules" "$JS/node_modules"
sed -i 's/export const decodeOptions = { wasm: true };/export const decodeOptions = { wasm: false };/' "$JS/dist/retrieval/sparse/decoded-postings.js"
grep -q 'decodeOptions = { wasm: false }' "$JS/dist/retrieval/sparse/decoded-postings.js"
mkdir -p "$OUT"
r=0
while [ $r -lt "$ROUNDS" ]; do
  if [ $((r % 2)) -eq 0 ]; then arms="js wasm"; else arms="wasm js"; fi
  for arm in $arms; do
    if [ $arm = js ]; then b=$JS; else b=$BUILD; fi
    uptime > "$OUT/round$r-$arm.uptime"
    node "$HERE/cold.mjs" "$b" "$INDEX" "$arm" > "$OUT/round$r-$arm.json"
  done
  r=$((r + 1))
done
rm -rf "$JS"
