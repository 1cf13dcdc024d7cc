#!/usr/bin/env bash
# Peak memory of the lab judging a PresentMon log of ten million rows
# (about a gigabyte): it streams the log, so it must stay under 64 MB.
# Not part of `cargo test`: it writes the log to a temporary directory and
# takes a minute or two.
#
#   crates/evenstep-lab/scripts/streaming_rss.sh [rows] [limit_kb] [--pid-per-row]
#
# With --pid-per-row every row of the game has a process id of its own, and
# the lab is run without --process: it must refuse the log, naming a bounded
# list of processes, in the same bounded memory.
set -euo pipefail
cd "$(dirname "$0")/.."
rows=${1:-10000000}
limit_kb=${2:-65536}
mode=${3:-}
cargo build -q --release --example big_log --bin evenstep-lab
target=$(cargo metadata --format-version 1 --no-deps | sed 's/.*"target_directory":"\([^"]*\)".*/\1/')
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$target/release/examples/big_log" "$rows" $mode > "$dir/log.csv"
echo "log: $rows rows, $(du -h "$dir/log.csv" | cut -f1)"
if [[ "$mode" == --pid-per-row ]]; then
  # A refusal: exit status 2, and a message of bounded length.
  status=0
  /usr/bin/time -v "$target/release/evenstep-lab" --csv "$dir/log.csv" \
    > "$dir/out.txt" 2> "$dir/time.txt" || status=$?
  if (( status != 2 )); then cat "$dir/time.txt"; echo "FAIL: exit status $status, expected 2" >&2; exit 1; fi
  message_bytes=$(grep '^evenstep-lab:' "$dir/time.txt" | wc -c)
  grep '^evenstep-lab:' "$dir/time.txt" | cut -c1-400
  echo "refusal: $message_bytes bytes"
else
  /usr/bin/time -v "$target/release/evenstep-lab" --csv "$dir/log.csv" --process game.exe \
    > "$dir/out.txt" 2> "$dir/time.txt" || { cat "$dir/time.txt"; exit 1; }
  cat "$dir/out.txt"
fi
# grep first: a refusal of the old kind was one line of hundreds of megabytes.
peak_kb=$(grep -a 'Maximum resident set size' "$dir/time.txt" | awk -F': ' '{print $2}')
wall=$(grep -a 'Elapsed (wall clock)' "$dir/time.txt" | awk -F': ' '{print $2}')
echo "peak RSS: $peak_kb kB (limit $limit_kb kB), wall clock $wall"
if [[ "$mode" == --pid-per-row ]] && (( message_bytes > 4096 )); then
  echo "FAIL: a refusal of more than 4096 bytes" >&2
  exit 1
fi
if (( peak_kb > limit_kb )); then
  echo "FAIL: the lab held more than $limit_kb kB" >&2
  exit 1
fi
echo "ok"
