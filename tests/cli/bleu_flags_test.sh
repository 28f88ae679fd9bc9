#!/usr/bin/env bash
# `s2s bleu` flags as sacreBLEU 2.6.0's command line has them: --lowercase makes BLEU
# case-insensitive only, chrF keeps case unless --chrf-lowercase. Checked against the cased and
# lower-cased cases of ../shared/bleu/cases.jsonl (scored by sacreBLEU itself; their chrF is
# sacreBLEU's default, cased). Without them (../shared is absent) it exits 77, which ctest
# reports as skipped (SKIP_RETURN_CODE in CMakeLists.txt).
# Usage: bleu_flags_test.sh S2S_BINARY SHARED_DIR WORK_DIR   (the environment's S2S_SHARED_DIR,
# if set, replaces SHARED_DIR, as for the unit tests: tests/support/shared_dir.h)
set -euo pipefail
s2s=$1 shared=${S2S_SHARED_DIR:-$2} work=$3
cases=$shared/bleu/cases.jsonl
[ -f "$cases" ] || {
  echo "SKIP: $cases not found (../shared is absent): the bleu flags are not checked"; exit 77; }
rm -rf "$work" && mkdir -p "$work"
python3 - "$s2s" "$cases" "$work" <<'PY'
import json, subprocess, sys
s2s, cases, work = sys.argv[1:]
checked = 0
for line in open(cases, encoding="utf-8"):
    c = json.loads(line)
    if not c["lowercase"] or c["tokenize"] != "13a":
        continue
    hyp, ref = f"{work}/hyp.txt", f"{work}/ref.txt"
    open(hyp, "w", encoding="utf-8").write("\n".join(c["hyps"]) + "\n")
    open(ref, "w", encoding="utf-8").write("\n".join(c["refs"]) + "\n")
    out = json.loads(subprocess.run([s2s, "bleu", "--hyp", hyp, "--ref", ref, "--lowercase", "--chrf", "--json"],
                                    check=True, capture_output=True, text=True).stdout)
    assert abs(out["score"] - c["bleu"]) < 1e-6, (c["name"], out["score"], c["bleu"])
    assert abs(out["chrf"]["score"] - c["chrf"]) < 1e-6, (c["name"], "chrF must stay cased", out["chrf"]["score"], c["chrf"])
    assert "case:lc" in out["signature"] and "case:mixed" in out["chrf"]["signature"], out
    low = json.loads(subprocess.run([s2s, "bleu", "--hyp", hyp, "--ref", ref, "--chrf", "--chrf-lowercase", "--json"],
                                    check=True, capture_output=True, text=True).stdout)
    assert "case:lc" in low["chrf"]["signature"] and "case:mixed" in low["signature"], low
    checked += 1
assert checked > 0, "no lower-cased 13a case in the file"
print(f"{checked} lower-cased cases: BLEU case-insensitive, chrF cased as in sacreBLEU")
PY
