#!/usr/bin/env bash
# Re-measures the Tuning knobs (Platform/Tuning.swift) on two other file systems: tmpfs and
# an ext4 with a journal on a loop device (needs root). Prints "on|off user sys faults wall",
# and the update benchmark's rows with exchange-files and parallel-removal on and off.
# Usage: Scripts/bench/tuning.sh [BLOCKS-BINARY]   (default .build/release/blocks)
set -u
cd "$(dirname "$0")/../.."
B=${1:-.build/release/blocks}
# Everything goes to one log, printed at the end: `time` writes to it with -a -o, since a
# 2>> redirect placed after the command's >/dev/null would follow stdout there.
out=$(mktemp)
python3 Scripts/bench/make-catalog.py 1000 /tmp/cat1000 >/dev/null
python3 Scripts/bench/make-catalog.py 3000 /tmp/cat3000 >/dev/null
export SOURCE_DATE_EPOCH=1790000000
echo "== tmpfs, build of 1000 blocks: user s, sys s, minor faults, wall s" >> $out
mkdir -p /dev/shm/tune
for i in 1 2 3 4 5; do for mode in on off; do
  rm -rf /dev/shm/tune/out
  if [ $mode = on ]; then t=""; else t=off; fi
  /usr/bin/time -a -o $out -f "$mode %U %S %R %e" env BLOCKS_TUNING=$t $B build --catalog /tmp/cat1000 --out /dev/shm/tune/out >/dev/null 2>&1
done; done
rm -rf /dev/shm/tune
echo "== ext4 with a journal on a loop device, rebuild of 3000 blocks right after rm -rf: user s, sys s, minor faults, wall s" >> $out
truncate -s 3G /tmp/tune.img && mkfs.ext4 -q -F /tmp/tune.img && mkdir -p /mnt/tune && mount -o loop /tmp/tune.img /mnt/tune
dumpe2fs -h /tmp/tune.img 2>/dev/null | grep -i 'features' >> $out
for i in 1 2 3; do for mode in on off; do
  if [ $mode = on ]; then t=""; else t=off; fi
  env BLOCKS_TUNING=$t $B build --catalog /tmp/cat3000 --out /mnt/tune/out >/dev/null 2>&1
  rm -rf /mnt/tune/out
  /usr/bin/time -a -o $out -f "$mode %U %S %R %e" env BLOCKS_TUNING=$t $B build --catalog /tmp/cat3000 --out /mnt/tune/out >/dev/null 2>&1
  rm -rf /mnt/tune/out
done; done
# exchange-files and parallel-removal (issue 14) act in `update`: the update benchmark of 50
# modified blocks, run in the loop ext4 (TMPDIR) and on tmpfs, with the two knobs on and off.
for place in /mnt/tune /dev/shm; do for mode in on off; do
  if [ $mode = on ]; then t=""; else t=-exchange-files,-parallel-removal; fi
  mkdir -p $place/bench
  echo "== update of 50 blocks in $place, exchange-files and parallel-removal $mode" >> $out
  TMPDIR=$place/bench BLOCKS_TUNING=$t python3 Scripts/bench/run.py --only-update --quick 2>/dev/null | grep -i "update" >> $out
  rm -rf $place/bench
done; done
umount /mnt/tune; rm -f /tmp/tune.img
cat $out; rm -f $out
