#!/usr/bin/env bash
# Peak memory of the lab judging a PresentMon log of ten million rows
# (about a gigabyte): it streams the log, so it must stay under 64 MB.
# Not part of `cargo test`: it writes the log to a temporary directory and
# takes a minute or two.
#
#   crates/evenstep-lab/scripts/streaming_rss.sh [rows] [limit_kb]
set -euo pipefail
cd "$(dirname "$0")/.."
rows=${1:-10000000}
limit_kb=${2:-65536}
cargo build -q --release --example big_log --bin evenstep-lab
target=$(cargo metadata --format-version 1 --no-deps | sed 's/.*"target_directory":"\([^"]*\)".*/\1/')
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$target/release/examples/big_log" "$rows" > "$dir/log.csv"
echo "log: $rows rows, $(du -h "$dir/log.csv" | cut -f1)"
/usr/bin/time -v "$target/release/evenstep-lab" --csv "$dir/log.csv" --process game.exe \
  > "$dir/out.txt" 2> "$dir/time.txt" || { cat "$dir/time.txt"; exit 1; }
cat "$dir/out.txt"
peak_kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$dir/time.txt")
wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$dir/time.txt")
echo "peak RSS: $peak_kb kB (limit $limit_kb kB), wall clock $wall"
if (( peak_kb > limit_kb )); then
  echo "FAIL: the lab held more than $limit_kb kB" >&2
  exit 1
fi
echo "ok"
