#!/usr/bin/env bash
# Instructions per frame for each adapter and trace, counted by callgrind:
# reproducible on a noisy machine, where the divan timings are not.
# Each cell: (instructions of a run with 21 repeats − a run with 1 repeat)
# divided by the frames in the extra repeats, so set-up and exit cancel out.
# Traces c and d count the one 200 ms frame alone: the same difference taken
# without it (the 60 steady frames before it) is subtracted.
set -euo pipefail
cd "$(dirname "$0")"
# The executable's path from cargo itself, wherever CARGO_TARGET_DIR puts it.
bin=$(cargo build -q --release --ignore-rust-version --example instructions --message-format=json-render-diagnostics |
  sed -n 's/.*"executable":"\([^"]*\)".*/\1/p')
[[ -x $bin ]] || { echo "instructions.sh: cargo built no instructions executable" >&2; exit 1; }
count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$@" 2>&1 | awk '/refs:/ {gsub(",", "", $4); print $4}'; }
frames() { echo 1024; }
printf '| trace | %s |\n' "evenstep | renew-frame | game-loop | bevy Fixed | bevy Virtual+Fixed | harness"
printf '|---|---|---|---|---|---|---|\n'
for trace in a b c d e; do
  row="| $trace |"
  for adapter in evenstep renew game_loop bevy bevy_virtual harness; do
    if [[ $trace == e && $adapter != evenstep && $adapter != renew && $adapter != harness ]]; then
      row="$row — |"; continue
    fi
    if [[ $trace == c || $trace == d ]]; then
      one=$(count "$adapter" "${trace}1" 1)
      many=$(count "$adapter" "${trace}1" 21)
      warm_one=$(count "$adapter" "${trace}0" 1)
      warm_many=$(count "$adapter" "${trace}0" 21)
      per=$(( (many - one - warm_many + warm_one) / 20 ))
    else
      one=$(count "$adapter" "$trace" 1)
      many=$(count "$adapter" "$trace" 21)
      per=$(( (many - one) / (20 * $(frames "$trace")) ))
    fi
    row="$row $per |"
  done
  echo "$row"
done
echo
echo "Pacing on trace f (a jittery 60 Hz display), instructions per frame:"
printf '| evenstep off | centred | locked | snapped |\n|---|---|---|---|\n'
row="|"
for adapter in evenstep evenstep_centred evenstep_locked evenstep_snapped; do
  one=$(count "$adapter" f 1)
  many=$(count "$adapter" f 21)
  row="$row $(( (many - one) / (20 * 1024) )) |"
done
echo "$row"
echo
echo "Display feedback on trace g (trace f, each frame reported shown two frames later), instructions per frame:"
printf '| evenstep off | locked | locked, fed | off, fed | harness |\n|---|---|---|---|---|\n'
row="|"
for adapter in evenstep evenstep_locked evenstep_locked_fed evenstep_off_fed harness; do
  one=$(count "$adapter" g 1)
  many=$(count "$adapter" g 21)
  row="$row $(( (many - one) / (20 * 1024) )) |"
done
echo "$row"
