#!/usr/bin/env python3
"""The PyTorch peer's learning curve in one training: peer_pytorch.py (the benchmark kit's
reference model, imported from --kit) trained exactly as its main() trains, with greedy test
translations written at each step count of --steps. Decoding draws no random numbers and
touches neither the batch order nor the weights, so the file for N steps is what
`peer_pytorch.py --steps N --epochs 1000 --hyp-out FILE` writes, at the cost of one training.

  /usr/bin/python3 bench/peer_curve.py --kit ../shared/bench --steps 1000,2000,3000 \
      --out DIR [--fused-output] [--threads 2] [--seed 1] [--resume]

Writes DIR/peer_N.hyp and prints one JSON object per step count: the mean training loss so far
and the teacher-forced test loss per target token (what `s2s evaluate` reports as "loss"). Every 100 steps
(--save-every) it saves DIR/peer_state.pt (weights, Adam state, both random generators, the
place in the epoch), so that --resume continues a stopped training where it was saved, drawing
the same batches and dropout masks as an uninterrupted one. A measuring tool only.
"""
import argparse
import json
import os
import random
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kit", default="../shared/bench")
    ap.add_argument("--steps", default="1000,2000,3000")
    ap.add_argument("--out", required=True)
    ap.add_argument("--fused-output", action="store_true")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--resume", action="store_true", help="continue from DIR/peer_state.pt")
    ap.add_argument("--save-every", type=int, default=100, help="steps between saved states")
    args = ap.parse_args()
    sys.path.insert(0, args.kit)
    import peer_pytorch as peer  # noqa: E402  (the kit's model, batches and vocabulary)
    from peer_decode import greedy_lines  # noqa: E402  (the peer's decoding loop, beside this file)

    data = f"{args.kit}/multi30k-tok"
    counts = [int(s) for s in args.steps.split(",")]
    emb, hid, dropout, batch, lr, clip, min_freq, max_len = 128, 256, 0.5, 64, 1e-3, 1.0, 2, 50
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = random.Random(args.seed)
    src_train, tgt_train = peer.read_lines(f"{data}/train.de"), peer.read_lines(f"{data}/train.en")
    src_itos, src_stoi = peer.build_vocab(src_train, min_freq)
    tgt_itos, tgt_stoi = peer.build_vocab(tgt_train, min_freq)
    pairs = [(peer.encode(s, src_stoi, max_len), peer.encode(t, tgt_stoi, max_len))
             for s, t in zip(src_train, tgt_train)]
    model = peer.Seq2Seq(len(src_itos), len(tgt_itos), emb, hid, dropout)
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    test = [peer.encode(s, src_stoi, max_len) for s in peer.read_lines(f"{data}/test2016.de")]
    test_tgt = [peer.encode(t, tgt_stoi, max_len) for t in peer.read_lines(f"{data}/test2016.en")]

    def translate(path):
        model.eval()
        hyps = greedy_lines(peer, model, test, tgt_itos, batch)
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(hyps) + "\n")
        model.train()

    @torch.no_grad()
    def test_loss():
        # Teacher-forced cross-entropy per target token (</s> included, pads not) over the test
        # set, in eval mode: the quantity `s2s evaluate` reports as "loss". It draws no random
        # numbers either, so it leaves the training as it was.
        model.eval()
        total, tokens = 0.0, 0
        for i in range(0, len(test), batch):
            src = peer.pad_batch(test[i : i + batch])
            tgt = peer.pad_batch([[peer.BOS] + t for t in test_tgt[i : i + batch]])
            logits = model(src, tgt[:, :-1], args.fused_output)
            gold = tgt[:, 1:]
            total += float(F.cross_entropy(logits.float().reshape(-1, logits.size(-1)),
                                           gold.reshape(-1), ignore_index=peer.PAD, reduction="sum"))
            tokens += int((gold != peer.PAD).sum())
        model.train()
        return total / tokens

    state_path = f"{args.out}/peer_state.pt"
    what = {"steps": args.steps, "fused_output": args.fused_output, "seed": args.seed}
    steps, loss_sum, elapsed, skip = 0, 0.0, 0.0, 0
    if args.resume and os.path.exists(state_path):
        state = torch.load(state_path)
        if state["what"] != what:
            sys.exit(f"peer_curve: {state_path} was saved by another training ({state['what']})")
        model.load_state_dict(state["model"])
        opt.load_state_dict(state["opt"])
        torch.set_rng_state(state["torch_rng"])
        rng.setstate(state["epoch_rng"])  # the epoch's shuffle is drawn again, then skipped
        steps, loss_sum, elapsed, skip = (state[k] for k in ("steps", "loss_sum", "elapsed", "skip"))
        print(f"[peer] resumed at step {steps}", file=sys.stderr, flush=True)

    def save(epoch_rng, done_in_epoch):
        tmp = state_path + ".tmp"
        torch.save({"what": what, "model": model.state_dict(), "opt": opt.state_dict(),
                    "torch_rng": torch.get_rng_state(), "epoch_rng": epoch_rng,
                    "skip": done_in_epoch, "steps": steps, "loss_sum": loss_sum,
                    "elapsed": time.perf_counter() - t0}, tmp)
        os.replace(tmp, state_path)  # a stop while saving leaves the previous state whole

    t0 = time.perf_counter() - elapsed
    model.train()
    while steps < counts[-1]:  # epochs until the last step count, as --epochs 1000 does
        epoch_rng = rng.getstate()
        for k, (src, tgt) in enumerate(peer.batches(pairs, batch, True, rng)):
            if k < skip:
                continue
            logits = model(src, tgt[:, :-1], args.fused_output)
            gold = tgt[:, 1:]
            loss = F.cross_entropy(logits.float().reshape(-1, logits.size(-1)), gold.reshape(-1),
                                   ignore_index=peer.PAD)
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), clip)
            opt.step()
            steps += 1
            loss_sum += float(loss)
            if steps in counts:
                translate(f"{args.out}/peer_{steps}.hyp")
                print(json.dumps({"steps": steps, "mean_loss": round(loss_sum / steps, 4),
                                  "test_loss": round(test_loss(), 4),
                                  "seconds": round(time.perf_counter() - t0, 1)}), flush=True)
            if steps % args.save_every == 0:  # progress on stderr; stdout: only the JSON lines
                save(epoch_rng, k + 1)
                print(f"[peer] step {steps}, {time.perf_counter() - t0:.0f} s", file=sys.stderr,
                      flush=True)
            if steps >= counts[-1]:
                break
        skip = 0

if __name__ == "__main__":
    sys.exit(main())
