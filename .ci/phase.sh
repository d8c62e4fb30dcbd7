# Phase lines for .ci/run and .ci/package (sourced by both; needs WORK set).
# `phase NAME COMMAND…` runs COMMAND in a subshell of its own and prints
#   ci: phase NAME: W s wall, C s CPU, load A → B
# C: user + system time of the processes COMMAND ran (cutime + cstime of that subshell's
# /proc/PID/stat, what bash's `times` prints on its second line): its own processes only, even when
# another phase runs beside it; A, B: the 1-minute load average at its start and end. Each line is
# also recorded, with the phase's start and end, in $WORK/phases.tsv for `phase_summary`.
CLK_TCK=${CLK_TCK:-$(getconf CLK_TCK)}
cpu_s() { awk -v hz="$CLK_TCK" '{ sub(/^.*\) /, ""); printf "%.0f", ($14 + $15) / hz }' "/proc/$1/stat"; }
load1() { cut -d' ' -f1 /proc/loadavg; }

# returns COMMAND's exit status; COMMAND runs with errexit off (a script it starts sets its own)
phase() {
  local name=$1
  shift
  (
    me=$BASHPID # this subshell (inside $(…) BASHPID is that substitution's own)
    t0=$EPOCHSECONDS
    l0=$(load1)
    set +e
    "$@"
    rc=$?
    t1=$EPOCHSECONDS
    line="ci: phase $name: $((t1 - t0)) s wall, $(cpu_s "$me") s CPU, load $l0 → $(load1)"
    echo "$line"
    printf '%s\t%s\t%s\t%s\n' "$name" "$t0" "$t1" "$line" >>"$WORK/phases.tsv"
    exit "$rc"
  )
}

# every phase's line again, in the order they started, each naming the phases that ran beside it
# and for how many seconds of its wall time
phase_summary() {
  sort -t$'\t' -k2,2n -s "$WORK/phases.tsv" | awk -F'\t' '{ n[NR] = $1; s[NR] = $2; e[NR] = $3; l[NR] = $4 }
    END {
      for (i = 1; i <= NR; i++) {
        b = ""
        for (j = 1; j <= NR; j++) {
          if (j == i) continue
          o = (e[i] < e[j] ? e[i] : e[j]) - (s[i] > s[j] ? s[i] : s[j])
          if (o > 0) b = b (b ? ", " : "") n[j] " " o " s"
        }
        print l[i] (b ? " — side by side with " b : "")
      }
    }'
}
