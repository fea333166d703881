#!/bin/bash
# Do two builds of recog-bench read everything the same, byte for byte?
# usage: tools/train/bench/compare_builds.sh BEFORE_RECOG_BENCH AFTER_RECOG_BENCH
# Runs both over the stored sets in tools/train/out (made by evaluate.py and
# number_reading.py): the numbers' readings (bench, dev, held-out, out of
# order), the rasterized images and predictions of the digit sets, and the raw
# logits of those images and of held-out MNIST; then compares every file.
set -e
OUT=$(cd "$(dirname "$0")/../out" && pwd)
WORK=$(mktemp -d)
for side in before after; do
    B=$1; [ $side = after ] && B=$2
    mkdir -p "$WORK/$side"
    for s in bench dev heldout dev_late heldout_late; do
        "$B" --numbers "$OUT/numbers_$s.jsonl" "$WORK/$side/numbers_$s.readings" 0
    done
    for s in synth_test dense nondigits_test numbers_bench_digits; do
        "$B" "$OUT/$s.jsonl" "$WORK/$side/$s.f32" "$WORK/$side/$s.pred" 1 > /dev/null
        "$B" --logits "$WORK/$side/$s.f32" "$WORK/$side/$s.logits" -
    done
    for s in mnist_heldout mnist_strokes; do
        "$B" --logits "$OUT/$s.f32" "$WORK/$side/$s.logits" -
    done
done
differ=0
for f in $(cd "$WORK/before" && ls); do
    if cmp -s "$WORK/before/$f" "$WORK/after/$f"; then echo "same       $f"; else echo "DIFFERENT  $f"; differ=1; fi
done
rm -rf "$WORK"
exit $differ
