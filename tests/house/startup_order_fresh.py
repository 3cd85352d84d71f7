#!/usr/bin/env python3
"""The startup order list still names the executable's functions (a house test).

cmake/startup-order.txt lists the sections of the functions small runs execute, which the
link places together (cmake/startup_order.cmake). Renamed or removed functions leave the
list stale without failing anything: the run is only slower to start. This fails when more
than a tenth of the listed functions are no longer symbols of the executable, and says how
to write the list again.

Usage: startup_order_fresh.py ORDER_FILE EXECUTABLE
"""

import subprocess
import sys

PREFIXES = (".text.startup.", ".text.")
MIN_PRESENT = 0.9


def symbol(section):
    for prefix in PREFIXES:
        if section.startswith(prefix):
            return section[len(prefix):]
    return section


def main():
    order_file, executable = sys.argv[1], sys.argv[2]
    listed = [symbol(line.strip()) for line in open(order_file) if line.strip()]
    nm = subprocess.run(["nm", "--defined-only", executable], capture_output=True, text=True,
                        check=True)
    defined = {fields[-1] for fields in (line.split() for line in nm.stdout.splitlines())
               if fields}
    present = sum(name in defined for name in listed)
    print(f"{present} of {len(listed)} listed functions are in {executable}")
    if not listed or present < MIN_PRESENT * len(listed):
        missing = [name for name in listed if name not in defined][:5]
        print(f"stale: e.g. {missing}; write the list again: tools/make-startup-order.py")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
