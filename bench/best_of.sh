#!/usr/bin/env bash
# Runs `cargo bench` N times and prints, for every benchmark, the best and the
# median of the N runs' medians (in ns), best first. The machine the README's
# numbers come from is shared: in some stretches the same binary runs up to
# twice as slow, so one run says little, and the best of several is what the
# code costs when nothing else is running.
#
# usage (from the directory whose benchmarks to run):
#   ../bench/best_of.sh 10 --ignore-rust-version       # here, in bench/
#   bench/best_of.sh 10 -p evenstep --bench driver      # at the root
set -euo pipefail
runs=${1:?usage: best_of.sh RUNS [cargo bench arguments...]}
shift
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for _ in $(seq "$runs"); do
  # divan prints a tree: group rows, then one row per benchmark whose third
  # column is the median. A row under a group that is not the last starts
  # with the tree's bar, which shifts its columns by one.
  cargo bench -q "$@" 2>/dev/null | awk -F'│' '
    NF >= 4 {
      o = ($1 ~ /^ *$/) ? 1 : 0
      head = $(1 + o); sub(/^[ ├╰│─]+/, "", head); split(head, w, " ")
      if (w[1] ~ /^[0-9]/) next  # a throughput row under its benchmark
      if ($(3 + o) ~ /[0-9]/) {
        split($(3 + o), m, " "); v = m[1]
        if (m[2] == "µs") v *= 1e3; else if (m[2] == "ms") v *= 1e6; else if (m[2] == "s") v *= 1e9
        print group "/" w[1] "\t" v
      } else group = w[1]
    }' >> "$out"
done
sort -t$'\t' -k1,1 -k2,2g "$out" | awk -F'\t' '
  function flush() { if (name != "") printf "%-58s best %12.2f  median %12.2f  (%d runs)\n", name, v[1], (n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2), n }
  $1 != name { flush(); name = $1; n = 0 }
  { v[++n] = $2 }
  END { flush() }'
