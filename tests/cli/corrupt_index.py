#!/usr/bin/env python3
"""Writes a damaged copy of an index file for the hostile-input CLI tests.
Usage: corrupt_index.py IN OUT flip OFFSET | set OFFSET VALUE"""
import sys

data = bytearray(open(sys.argv[1], "rb").read())
if sys.argv[3] == "flip":
    data[int(sys.argv[4])] ^= 0x10
elif sys.argv[3] == "set":
    data[int(sys.argv[4])] = int(sys.argv[5])
open(sys.argv[2], "wb").write(data)
