#!/usr/bin/env bash
# Divergence is caught: a training loss that is not finite or explodes stops training with one
# line naming the step, the value and the checkpoint with the last good weights, which exists;
# a diverged model is never saved as last.pt or best.pt.
source "$(dirname "$0")/lib.sh"
make_corpus
run=$work/run

expect 1 "^error: training diverged at step [0-9]+: the training loss is .*; the last good weights are in $run/checkpoints/last.pt \(step 0\)" \
  "$s2s" train -c "$work/tiny.json" --set training.learning_rate=1e6 --set training.clip_grad_norm=0
[ -f "$run/checkpoints/last.pt" ] || fail "the named checkpoint does not exist"
[ ! -e "$run/checkpoints/best.pt" ] || fail "a diverged model was saved as best.pt"
# The last good weights are usable.
"$s2s" evaluate --run "$run" --checkpoint last > /dev/null 2>&1 || fail "last.pt does not evaluate"
echo "divergence robustness tests passed"
