#!/bin/sh
# The A/Bs of docs/notes/2026-12-01-worst-case.md: old = eeb188b0 (OLD worktree), new = NEW worktree.
set -e
OLD=$1; NEW=$2; D=$(dirname "$0"); AB=$D/../../ab/ab.mjs
Z=/tmp/oracle-idx/scale-zipf-856835/index; B=/tmp/oracle-idx/scale-bench-856835/index
node $AB $OLD $NEW $Z 20 3 $D/ab-zipf-worst.json 0,default zipf worst 2> $D/ab-zipf-worst.log
node $AB $OLD $NEW $Z 200 3 $D/ab-zipf-agent.json 0,default zipf agent 2> $D/ab-zipf-agent.log
node $AB $OLD $NEW $B 20 2 $D/ab-bench-worst.json 0,default bench worst 2> $D/ab-bench-worst.log
node $AB $OLD $NEW $B 200 2 $D/ab-bench-agent.json 0,default bench agent 2> $D/ab-bench-agent.log
