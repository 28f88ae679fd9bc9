#!/usr/bin/env bash
# Bad input is never silent and never a raw library message: every case is one line naming
# the file, line, key or flag, exit 2, and nothing is written before the inputs are checked.
source "$(dirname "$0")/lib.sh"
make_corpus
run=$work/run
cfg=$work/tiny.json

# Config files: duplicate keys, numbers beyond double, a directory, an impossible model size.
printf '{\n  "seed": 1,\n  "training": {\n    "epochs": 2,\n    "epochs": 3\n  }\n}\n' > "$work/dup.json"
expect 2 "dup.json: duplicate key 'training.epochs' at lines 4 and 5" "$s2s" train -c "$work/dup.json"
printf '{\n  "training": {"learning_rate": 1e999}\n}\n' > "$work/huge.json"
expect 2 "huge.json:2: training.learning_rate: number out of range \(1e999\)" "$s2s" train -c "$work/huge.json"
expect 2 "$work: is a directory, not a config file" "$s2s" train -c "$work"
# A setting that is not UTF-8 is refused, naming the key, before the run directory exists.
expect 2 "^error: --set name: the value is not valid UTF-8 \\(byte 4\\)" \
  "$s2s" train -c "$work/tiny.json" --set run_dir="$work/utf8_run" --set name=$'bad\xffname'
[ ! -e "$work/utf8_run" ] || fail "a run directory was written for a config that is not UTF-8"
expect 2 "model.emb_size = 16, model.hidden_size = 100000000 .* give .* parameters: .* more than the .* of memory available" \
  "$s2s" train -c "$cfg" --set model.hidden_size=100000000
[ ! -e "$run" ] || fail "a refused config wrote the run directory"

# Corpora: a third TSV column, a NUL byte; both named by file and line.
printf 'Go.\tVa !\nHi.\tSalut !\tCC-BY\n' > "$work/three.tsv"
printf 'Go.\tVa !\n' > "$work/ok.tsv"
expect 2 "three.tsv:2: expected 2 tab-separated columns, found 3" \
  "$s2s" train -c "$cfg" --set data.format=tsv --set data.train="$work/three.tsv" \
  --set data.valid="$work/ok.tsv" --set data.test= --set data.test_alignments=
cp "$work/data/valid.en" "$work/nul.en" && cp "$work/data/valid.fr" "$work/nul.fr"
printf 'a\0b\n' >> "$work/nul.en" && echo x >> "$work/nul.fr"
expect 2 "nul.en:61: NUL byte" "$s2s" train -c "$cfg" --set data.valid="$work/nul"

# The test split and the alignment files are checked at start, not after training.
printf '0-0\n0-0 99-99\n' > "$work/bad.align"
expect 2 "bad.align: 2 alignment lines for 40 sentences" \
  "$s2s" train -c "$cfg" --set data.test_alignments="$work/bad.align"
head -n 60 "$repo/data/en-fr/valid.align" | sed '3s/.*/0-0 77-77/' > "$work/valid.align"
expect 2 "valid.align:3: .*" "$s2s" train -c "$cfg" --set data.valid_alignments="$work/valid.align"
[ ! -e "$run" ] || fail "a bad input wrote the run directory"

# BLEU of two empty files.
: > "$work/empty1"; : > "$work/empty2"
expect 2 "hold no lines: nothing to score" "$s2s" bleu --hyp "$work/empty1" --ref "$work/empty2"

# A prepared corpus that was truncated, corrupted or replaced is refused naming the file, and so
# is one whose text changed since; nothing is trained, and nothing is prepared again unasked.
prep=(--set data.prepared=true --set data.prepared_dir="$work/prepared")
"$s2s" prepare -c "$cfg" "${prep[@]}" > "$work/prepare.out" 2>&1 ||
  { cat "$work/prepare.out"; fail "prepare"; }
pdir=$(sed -n 's/^prepared corpus: //p' "$work/prepare.out")
[ -f "$pdir/src.bin" ] || fail "prepare printed no corpus directory: $(cat "$work/prepare.out")"
cp -r "$pdir" "$work/prepared_copy"
truncate -s -2 "$pdir/src.bin"
expect 2 "src.bin: [0-9]+ bytes where the header says [0-9]+ \(truncated or replaced\); prepare it again \(s2s prepare -c CONFIG --overwrite\)" \
  "$s2s" train -c "$cfg" "${prep[@]}"
rm -r "$pdir" && cp -r "$work/prepared_copy" "$pdir"
byte=$(od -An -tu1 -j3 -N1 "$pdir/tgt.bin" | tr -d ' ')  # flipped: 255 - byte
printf "\\x$(printf %02x $((255 - byte)))" | dd of="$pdir/tgt.bin" bs=1 seek=3 conv=notrunc status=none
expect 2 "tgt.bin: content hash [0-9a-f]+ where the header says [0-9a-f]+ \(the file is corrupt\)" \
  "$s2s" train -c "$cfg" "${prep[@]}"
echo '{"format": "something else"}' > "$pdir/header.json"
expect 2 "header.json: not a prepared corpus of this program" "$s2s" train -c "$cfg" "${prep[@]}"
rm -r "$pdir" && cp -r "$work/prepared_copy" "$pdir"
cp "$work/data/train.en" "$work/train.en.kept" && echo "one more" >> "$work/data/train.en"
echo "encore une" >> "$work/data/train.fr"
expect 2 "prepared from $work/data/train.en as it was before .* which has changed since" \
  "$s2s" train -c "$cfg" "${prep[@]}"
cmp -s "$pdir/src.bin" "$work/prepared_copy/src.bin" || fail "a refused corpus was prepared again"
mv "$work/train.en.kept" "$work/data/train.en" && head -n 300 "$repo/data/en-fr/train.fr" > "$work/data/train.fr"
expect 2 "data.prepared cannot be true with training.guided_alignment.weight > 0" \
  "$s2s" train -c "$cfg" "${prep[@]}" --set training.guided_alignment.weight=1 \
  --set data.train_alignments="$work/data/test.align"
[ ! -e "$run" ] || fail "a refused prepared corpus wrote the run directory"

# Command-line values read as rules, not as CLI11 ranges; unknown names list the valid ones.
train
expect 2 "^error: --beam must be an integer in \[1, 100\], got '0' \(see s2s evaluate --help\)" \
  "$s2s" evaluate --run "$run" --beam 0
expect 2 "^error: --beam must be an integer in \[1, 100\], got 'five'" "$s2s" evaluate --run "$run" --beam five
expect 2 "\(see s2s evaluate --help\)" "$s2s" evaluate
expect 2 "unknown study command 'foo' \(valid: scaling, init, attention\)" "$s2s" study foo
expect 2 "--csv: folder not found: $work/nowhere" "$s2s" study scaling --csv "$work/nowhere/x.csv"
expect 2 "$work/data: not a run directory \(no config.json\)" "$s2s" evaluate --run "$work/data"

# Checkpoints that do not fit name the fields (and the vocabulary file); evaluation-only keys
# never block loading; a bit flip in the weights is caught by the checksum.
cp -r "$run" "$work/misfit"
sed -i 's/"hidden_size": 16/"hidden_size": 32/' "$work/misfit/config.json"
expect 2 "best.pt: checkpoint does not fit the model \(checkpoint vs config: hidden_size 16 vs 32\)" \
  "$s2s" evaluate --run "$work/misfit"
cp -r "$run" "$work/vocab"
sed -i '$d' "$work/vocab/tgt_vocab.txt"
expect 2 "tgt_vocab_size [0-9]+ vs [0-9]+.*vocabularies: .*tgt_vocab.txt" "$s2s" evaluate --run "$work/vocab"
cp -r "$run" "$work/eval_only"
sed -i 's/"hard_eval": "argmax"/"hard_eval": "sample"/; s/"beam_size": 1/"beam_size": 3/' "$work/eval_only/config.json"
"$s2s" evaluate --run "$work/eval_only" > /dev/null 2>&1 || fail "an evaluation-only key blocked loading"
cp -r "$run" "$work/flipped"
python3 - "$work/flipped/checkpoints/best.pt" <<'PY'
import struct, sys, zipfile
path = sys.argv[1]
data = bytearray(open(path, 'rb').read())
with zipfile.ZipFile(path) as z:
    # The largest tensor's bytes: flip one bit in the middle, as a failing disk might.
    info = max((i for i in z.infolist() if '/data/' in i.filename), key=lambda i: i.file_size)
name_len, extra_len = struct.unpack('<HH', data[info.header_offset + 26:info.header_offset + 30])
start = info.header_offset + 30 + name_len + extra_len
data[start + info.file_size // 2] ^= 0x40
open(path, 'wb').write(bytes(data))
PY
expect 2 "best.pt: checkpoint is corrupted \(its weights do not match their checksum\)" \
  "$s2s" evaluate --run "$work/flipped"

# A NaN written into the optimizer's state (the last data entry of the largest size: the
# optimizer's moments follow the weights in the archive) is caught by its checksum on resume.
cp -r "$run" "$work/optimizer"
python3 - "$work/optimizer/checkpoints/last.pt" <<'PY'
import struct, sys, zipfile
path = sys.argv[1]
data = bytearray(open(path, 'rb').read())
with zipfile.ZipFile(path) as z:
    entries = [i for i in z.infolist() if '/data/' in i.filename]
    size = max(i.file_size for i in entries)
    info = max((i for i in entries if i.file_size == size),
               key=lambda i: int(i.filename.rsplit('/', 1)[1]))
name_len, extra_len = struct.unpack('<HH', data[info.header_offset + 26:info.header_offset + 30])
start = info.header_offset + 30 + name_len + extra_len + (info.file_size // 8) * 4
data[start:start + 4] = struct.pack('<f', float('nan'))
open(path, 'wb').write(bytes(data))
PY
expect 2 "last.pt: checkpoint is corrupted \(its optimizer state does not match its checksum" \
  "$s2s" train -c "$work/tiny.json" --set run_dir="$work/optimizer" --resume \
  --set training.max_steps=9

# An edited word in a vocabulary file is refused, with the file, by every verb that loads.
cp -r "$run" "$work/edited"
sed -i '10s/.*/zzzedited/' "$work/edited/tgt_vocab.txt"
expect 2 "edited/tgt_vocab.txt: the vocabulary is not the one .*best.pt was trained with" \
  "$s2s" evaluate --run "$work/edited"
expect 2 "edited/tgt_vocab.txt: the vocabulary is not the one .*last.pt was trained with" \
  "$s2s" train -c "$work/tiny.json" --set run_dir="$work/edited" --resume \
  --set training.max_steps=9
# A master nobody serves (a rank 1 alone, on the loopback address only) is named with its
# address and port, as a usage error.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
expect 2 "^error: rank 1 could not meet the others at 127.0.0.1:$port within 2 s \(training.dist_timeout_s\)" \
  env WORLD_SIZE=2 RANK=1 MASTER_ADDR=127.0.0.1 MASTER_PORT="$port" \
  "$s2s" train -c "$work/tiny.json" --set run_dir="$work/lonely" --set training.dist_timeout_s=2
echo "bad input robustness tests passed"
