#!/bin/sh
# The fit's data: fit-rows.mjs on the build before this change (BUILD), both arms, three indexes.
#   sh fit-rows.sh BUILD > fit-rows.jsonl
B=$1
for t in 0 2; do
  node fit-rows.mjs "$B" /tmp/perf-idx/zipf-200000/index 200 $t zipf
  node fit-rows.mjs "$B" /tmp/perf-idx/bench-200000/index 200 $t bench
  node fit-rows.mjs "$B" /tmp/oracle-idx/scale-zipf-856835/index 200 $t zipf
  node fit-rows.mjs "$B" /tmp/oracle-idx/scale-bench-856835/index 200 $t bench
done
