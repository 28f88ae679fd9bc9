#!/usr/bin/env python3
"""Greedy decoding by the PyTorch peer with trained weights: the peer's equivalent of
`s2s bench --weights`. Loads the weights bench/peer_curve.py saved (DIR/peer_state.pt) into the
kit's model (peer_pytorch.py, imported from --kit, vocabularies built from the kit's training
files as the peer builds them) and times the decoding loop of the peer's main() on --test.

  /usr/bin/python3 bench/peer_decode.py --kit ../shared/bench --state DIR/peer_state.pt \
      [--test multi30k-tok/val] [--bf16] [--threads 2] [--hyp-out FILE]

Prints one JSON object, as the peer's decode phase, with target tokens (the words of the
hypotheses, </s> not counted, as `s2s bench` counts them) and tokens per second added. A
measuring tool only.
"""
import argparse
import json
import sys
import time

import torch


def greedy_lines(peer, model, sources, tgt_itos, batch=64, bf16=False):
    """The peer's own decoding loop (peer_pytorch.main): the hypotheses of encoded `sources`."""
    hyps = []
    for i in range(0, len(sources), batch):
        src = peer.pad_batch(sources[i : i + batch])
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
            out = model.greedy(src, max_len=2 * src.size(1) + 10)
        for row in out.tolist():
            words = []
            for idx in row:
                if idx == peer.EOS:
                    break
                words.append(tgt_itos[idx])
            hyps.append(" ".join(words))
    return hyps


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kit", default="../shared/bench")
    ap.add_argument("--state", required=True, help="peer_state.pt from bench/peer_curve.py")
    ap.add_argument("--test", default="multi30k-tok/val", help="source file stem under --kit")
    ap.add_argument("--bf16", action="store_true", help="decode under torch.autocast(bfloat16)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--hyp-out")
    args = ap.parse_args()
    sys.path.insert(0, args.kit)
    import peer_pytorch as peer  # noqa: E402  (the kit's model and vocabulary)

    emb, hid, dropout, batch, min_freq, max_len = 128, 256, 0.5, 64, 2, 50  # peer_curve.py's
    torch.set_num_threads(args.threads)
    data = f"{args.kit}/multi30k-tok"
    src_itos, src_stoi = peer.build_vocab(peer.read_lines(f"{data}/train.de"), min_freq)
    tgt_itos, _ = peer.build_vocab(peer.read_lines(f"{data}/train.en"), min_freq)
    model = peer.Seq2Seq(len(src_itos), len(tgt_itos), emb, hid, dropout)
    state = torch.load(args.state)
    model.load_state_dict(state["model"])
    model.eval()

    enc = [peer.encode(s, src_stoi, max_len) for s in peer.read_lines(f"{args.kit}/{args.test}.de")]
    t0 = time.perf_counter()
    hyps = greedy_lines(peer, model, enc, tgt_itos, batch, args.bf16)
    dt = time.perf_counter() - t0
    tokens = sum(len(h.split()) for h in hyps)
    print(json.dumps({"phase": "decode", "bf16": args.bf16, "steps_trained": state["steps"],
                      "params": sum(p.numel() for p in model.parameters()),
                      "sentences": len(hyps), "seconds": round(dt, 3),
                      "sentences_per_s": round(len(hyps) / dt, 1), "tgt_tokens": tokens,
                      "tgt_tokens_per_s": round(tokens / dt, 1)}))
    if args.hyp_out:
        with open(args.hyp_out, "w", encoding="utf-8") as f:
            f.write("\n".join(hyps) + "\n")


if __name__ == "__main__":
    sys.exit(main())
