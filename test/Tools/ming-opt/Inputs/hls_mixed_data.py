"""Data files for hls-mixed.test: python3 hls_mixed_data.py DATA_DIR MODE.

MODE pass: inputs and references the kernel meets (floats within the
testbench's tolerance, ap_int<12> wrapping); MODE fail: one float reference
off by 1e-4 relative; MODE check: the deterministic inputs' outputs are in
range (|x/2| < 0.5, i12 values)."""
import struct
import sys

data, mode = sys.argv[1], sys.argv[2]
xs = [(i - 6) / 7.0 for i in range(12)]
ns = [2047, -2048, 0, -1]
if mode in ("pass", "fail"):
    with open(f"{data}/in0.bin", "wb") as f:
        f.write(struct.pack("<12f", *xs))
    with open(f"{data}/in1.bin", "wb") as f:
        f.write(struct.pack("<4h", *ns))
    # Within |out - ref| <= 1e-5 * |ref| + 1e-6, but not bit-exact.
    ref = [struct.unpack("<f", struct.pack("<f", x))[0] * 0.5 * (1 + 4e-6) for x in xs]
    if mode == "fail":
        ref[5] *= 1 + 1e-4
    with open(f"{data}/ref0.bin", "wb") as f:
        f.write(struct.pack("<12f", *ref))
    with open(f"{data}/ref1.bin", "wb") as f:
        f.write(struct.pack("<4h", -2048, -2047, 1, 0))
elif mode == "check":
    with open(f"{data}/out0.bin", "rb") as f:
        ys = struct.unpack("<12f", f.read())
    with open(f"{data}/out1.bin", "rb") as f:
        ms = struct.unpack("<4h", f.read())
    assert all(-0.5 <= y < 0.5 for y in ys), ys
    assert len(set(ys)) == 12, ys
    assert all(-2048 <= m <= 2047 for m in ms), ms
    print("check: ok")
