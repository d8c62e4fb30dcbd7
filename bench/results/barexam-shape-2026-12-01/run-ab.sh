#!/bin/sh
# The A/Bs of docs/notes/2026-12-01-barexam-shape.md: old = 58786018 (06bcfa69's parent; OLD worktree with
# its own dist/), new = NEW worktree (main 816d1dc8 + this harness's barexam shape). The scale bench's Bar
# Exam questions (100 timed, k 1,000, bm25 k1 0.9 b 0.4) on the bench corpus's kept indexes, read only.
set -e
# sh run-ab.sh OLD_WT NEW_WT [GATE_WT]
OLD=$1; NEW=$2; D=$(dirname "$0"); AB=$D/../../ab/ab.mjs
B=/tmp/oracle-idx/scale-bench-856835/index; B10=/tmp/s62/scale10m/scale-bench-10000000/index
node $AB $OLD $NEW $B 100 4 $D/ab-bench856k-barexam.json 0,default bench barexam 2> $D/ab-bench856k-barexam.log
# A second two-thread run at 856,835 (the first one's 1.03-1.05 per round, checked)
node $AB $OLD $NEW $B 100 4 $D/ab-bench856k-barexam-2.json default bench barexam 2> $D/ab-bench856k-barexam-2.log
node $AB $OLD $NEW $B10 100 3 $D/ab-bench10m-barexam.json default,0 bench barexam 2> $D/ab-bench10m-barexam.log
# The gate control: old = NEW worktree (prunes up to k 1,000), new = GATE worktree (NEW with
# PRUNE_MAX_K_BM25 = 100, gate-100.patch; its dist/ is NEW's with that one constant edited).
GATE=$3
if [ -n "$GATE" ]; then
  node $AB $NEW $GATE $B 100 4 $D/ab-bench856k-barexam-gate100.json default,0 bench barexam 2> $D/ab-bench856k-barexam-gate100.log
fi
# The warm-up check of the note (main's build, the 10M index): the scale bench's 2 warm-up questions against all.
# for w in scale all; do node $D/warmup.mjs $NEW $B10 100 $w; done > $D/warmup-10m.jsonl
# What blocked TAAT did per question, and the questions' df shares:
# node $D/stats.mjs $NEW $B 100 > $D/stats-856k-p1.jsonl; node $D/stats.mjs $OLD $B 100 > $D/stats-856k-p1-old.jsonl
# node $D/stats.mjs $NEW $B10 20 > $D/stats-10m-p1.jsonl; node $D/dfshare.mjs $NEW $B 100 > $D/dfshare-856k.json
