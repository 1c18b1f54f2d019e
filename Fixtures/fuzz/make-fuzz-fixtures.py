#!/usr/bin/env python3
# Writes the hostile inputs of FuzzFindingTests by hand, byte by byte (our writers cannot make
# them): python3 Fixtures/fuzz/make-fuzz-fixtures.py (from the package root). The files are
# committed; each test names the finding it keeps fixed.
import os
import struct

folder = os.path.dirname(os.path.abspath(__file__))


def bplist(objects, root, ref_size=1):
    """A binary property list of `objects` (each the bytes of one object, with references of
    `ref_size` bytes)."""
    body = bytearray(b"bplist00")
    offsets = []
    for data in objects:
        offsets.append(len(body))
        body += data
    table = len(body)
    size = 1 if table < 256 else 2
    for offset in offsets:
        body += offset.to_bytes(size, "big")
    body += bytes(6) + bytes([size, ref_size]) + struct.pack(">QQQ", len(objects), root, table)
    return bytes(body)


def date_dictionary(seconds):
    # 0: {"d": date}; 1: "d"; 2: the date.
    return bplist([bytes([0xD1, 1, 2]), b"\x51d", b"\x33" + struct.pack(">d", seconds)], 0)


for name, seconds in [("date-1e300.plist", 1e300), ("date-nan.plist", float("nan")), ("date-minus-infinity.plist", float("-inf"))]:
    with open(os.path.join(folder, name), "wb") as file:
        file.write(date_dictionary(seconds))

# Shared objects: a chain of 400 one-element arrays around "x", shared by 10 levels of
# two-element arrays: 1,024 copies of the chain, 410,625 values within the reader's expansion
# limit, whose indentation makes 82 MB of XML and 164 MB of JSON text. References are 2 bytes.
objects = [b"\x51x"]
for level in range(1, 401):
    objects.append(bytes([0xA1]) + (level - 1).to_bytes(2, "big"))
for level in range(401, 411):
    objects.append(bytes([0xA2]) + (level - 1).to_bytes(2, "big") * 2)
with open(os.path.join(folder, "shared-expansion.plist"), "wb") as file:
    file.write(bplist(objects, len(objects) - 1, ref_size=2))

with open(os.path.join(folder, "repeated-key.json"), "w") as file:
    file.write('{"class":"Child","label":"first","id":1,"label":"second"}\n')
