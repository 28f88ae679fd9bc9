#!/usr/bin/env python3
"""Runs a Python script as __main__, then writes the process's peak resident memory in KiB
(resource.getrusage's ru_maxrss on Linux) to a file. For machines without /usr/bin/time;
the script itself is left untouched.

Usage: peer_rss.py RSS_FILE SCRIPT [ARGS...]
"""
import resource
import runpy
import sys


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__.strip().splitlines()[-1])
    rss_file, script = sys.argv[1], sys.argv[2]
    sys.argv = [script] + sys.argv[3:]
    code = 0
    try:
        runpy.run_path(script, run_name="__main__")
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    finally:
        with open(rss_file, "w", encoding="utf-8") as f:
            f.write(f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}\n")
    return code


if __name__ == "__main__":
    sys.exit(main())
