#!/usr/bin/env python3
"""Checks scripts/mlir_reference.py (linalg lowered by upstream MLIR and run with
mlir-runner) against plain numpy implementations, so that the e2e tests can trust
it. Every case prints one line `case: OK ...` or `case: MISMATCH ...`; the exit
status is 0 only when all match (exactly for integers, 1e-5 relative for f32)."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "scripts"))
import mlir_reference as R  # noqa: E402

rng = np.random.default_rng(1234)


def hexconst(a, t):
    return f'dense<"0x{np.ascontiguousarray(a).tobytes().hex().upper()}"> : {t}'


def ttype(shape, elem):
    return "tensor<" + "".join(f"{d}x" for d in shape) + elem + ">"


def i8(shape):
    return rng.integers(-128, 128, size=shape, dtype=np.int64).astype(np.int8)


def f32(shape):
    return rng.uniform(-1, 1, size=shape).astype(np.float32)


# ---------------------------------------------------------------- numpy models
def np_pad(x, p, value=0):
    return np.pad(x, ((0, 0), (0, 0), (p, p), (p, p)), constant_values=value)


def np_conv_nchw(x, w, stride=1, dil=1, acc=np.int64):
    n, c, h, wd = x.shape
    f, c2, kh, kw = w.shape
    assert c == c2
    oh = (h - dil * (kh - 1) - 1) // stride + 1
    ow = (wd - dil * (kw - 1) - 1) // stride + 1
    out = np.zeros((n, f, oh, ow), dtype=acc)
    xa, wa = x.astype(acc), w.astype(acc)
    for i in range(kh):
        for j in range(kw):
            patch = xa[:, :, i * dil: i * dil + stride * (oh - 1) + 1: stride,
                       j * dil: j * dil + stride * (ow - 1) + 1: stride]
            out += np.einsum("nchw,fc->nfhw", patch, wa[:, :, i, j])
    return out


def np_requant(acc, bias, mult, shift, lo, hi):
    v = (acc + bias.reshape(1, -1, 1, 1).astype(np.int64)) * mult
    return np.clip(v >> shift, lo, hi).astype(np.int8)


def np_pool(x, k, s, op):
    n, c, h, w = x.shape
    oh, ow = (h - k) // s + 1, (w - k) // s + 1
    wins = [x[:, :, i: i + s * (oh - 1) + 1: s, j: j + s * (ow - 1) + 1: s]
            for i in range(k) for j in range(k)]
    return op(np.stack(wins), axis=0)


# ---------------------------------------------------------------- cases
def case_conv_pad_requant_i8():
    """tensor.pad + conv_2d_nchw_fchw (i8 x i8 -> i32) + bias/requant/ReLU generic."""
    x, w = i8((1, 3, 12, 10)), i8((4, 3, 3, 3))
    b = rng.integers(-1000, 1000, size=4).astype(np.int32)
    src = f"""
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#bias = affine_map<(d0, d1, d2, d3) -> (d1)>
func.func @k(%x: tensor<1x3x12x10xi8>) -> tensor<1x4x12x10xi8> {{
  %w = arith.constant {hexconst(w, 'tensor<4x3x3x3xi8>')}
  %b = arith.constant {hexconst(b, 'tensor<4xi32>')}
  %z8 = arith.constant 0 : i8
  %z = arith.constant 0 : i32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {{
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %z8 : i8
  }} : tensor<1x3x12x10xi8> to tensor<1x3x14x12xi8>
  %e = tensor.empty() : tensor<1x4x12x10xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<1x4x12x10xi32>) -> tensor<1x4x12x10xi32>
  %c = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}}
      ins(%p, %w : tensor<1x3x14x12xi8>, tensor<4x3x3x3xi8>) outs(%f : tensor<1x4x12x10xi32>) -> tensor<1x4x12x10xi32>
  %e8 = tensor.empty() : tensor<1x4x12x10xi8>
  %y = linalg.generic {{indexing_maps = [#id, #bias, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}}
      ins(%c, %b : tensor<1x4x12x10xi32>, tensor<4xi32>) outs(%e8 : tensor<1x4x12x10xi8>) {{
  ^bb0(%a: i32, %bb: i32, %o: i8):
    %m = arith.constant 77 : i32
    %s = arith.constant 10 : i32
    %lo = arith.constant 0 : i32
    %hi = arith.constant 127 : i32
    %0 = arith.addi %a, %bb : i32
    %1 = arith.muli %0, %m : i32
    %2 = arith.shrsi %1, %s : i32
    %3 = arith.maxsi %2, %lo : i32
    %4 = arith.minsi %3, %hi : i32
    %5 = arith.trunci %4 : i32 to i8
    linalg.yield %5 : i8
  }} -> tensor<1x4x12x10xi8>
  return %y : tensor<1x4x12x10xi8>
}}"""
    want = np_requant(np_conv_nchw(np_pad(x, 1), w), b, 77, 10, 0, 127)
    return src, [x], [want]


def case_conv_f32_stride2_dil2():
    """f32 conv with padding 2, stride 2 and dilation 2; weights as an argument."""
    x, w = f32((1, 2, 11, 9)), f32((3, 2, 3, 3))
    src = """
func.func @k(%x: tensor<1x2x11x9xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<1x3x6x5xf32> {
  %z = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 2, 2] high[0, 0, 2, 2] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %z : f32
  } : tensor<1x2x11x9xf32> to tensor<1x2x15x13xf32>
  %e = tensor.empty() : tensor<1x3x6x5xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x3x6x5xf32>) -> tensor<1x3x6x5xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<2> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%p, %w : tensor<1x2x15x13xf32>, tensor<3x2x3x3xf32>) outs(%f : tensor<1x3x6x5xf32>) -> tensor<1x3x6x5xf32>
  return %c : tensor<1x3x6x5xf32>
}"""
    want = np_conv_nchw(np_pad(x, 2), w, stride=2, dil=2, acc=np.float64).astype(np.float32)
    return src, [x, w], [want]


def case_matmul_i8():
    """linalg.matmul i8 x i8 -> i32, weights as a dense_resource blob."""
    a, b = i8((17, 24)), i8((24, 9))
    blob = "0x04000000" + b.tobytes().hex().upper()  # 4-byte alignment header
    src = f"""
func.func @k(%a: tensor<17x24xi8>) -> tensor<17x9xi32> {{
  %b = arith.constant dense_resource<w_blob> : tensor<24x9xi8>
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<17x9xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<17x9xi32>) -> tensor<17x9xi32>
  %c = linalg.matmul ins(%a, %b : tensor<17x24xi8>, tensor<24x9xi8>) outs(%f : tensor<17x9xi32>) -> tensor<17x9xi32>
  return %c : tensor<17x9xi32>
}}
{{-#
  dialect_resources: {{
    builtin: {{
      w_blob: "{blob}"
    }}
  }}
#-}}"""
    want = (a.astype(np.int64) @ b.astype(np.int64)).astype(np.int32)
    return src, [a], [want]


def case_matmul_f32():
    a, b = f32((13, 32)), f32((32, 7))
    src = """
func.func @k(%a: tensor<13x32xf32>, %b: tensor<32x7xf32>) -> tensor<13x7xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<13x7xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<13x7xf32>) -> tensor<13x7xf32>
  %c = linalg.matmul ins(%a, %b : tensor<13x32xf32>, tensor<32x7xf32>) outs(%f : tensor<13x7xf32>) -> tensor<13x7xf32>
  return %c : tensor<13x7xf32>
}"""
    want = (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32)
    return src, [a, b], [want]


def case_pool_max_i8():
    """pooling_nchw_max 2x2 stride 2 on i8, init -128."""
    x = i8((1, 3, 10, 8))
    src = """
func.func @k(%x: tensor<1x3x10x8xi8>) -> tensor<1x3x5x4xi8> {
  %lo = arith.constant -128 : i8
  %win = tensor.empty() : tensor<2x2xi8>
  %e = tensor.empty() : tensor<1x3x5x4xi8>
  %f = linalg.fill ins(%lo : i8) outs(%e : tensor<1x3x5x4xi8>) -> tensor<1x3x5x4xi8>
  %y = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %win : tensor<1x3x10x8xi8>, tensor<2x2xi8>) outs(%f : tensor<1x3x5x4xi8>) -> tensor<1x3x5x4xi8>
  return %y : tensor<1x3x5x4xi8>
}"""
    return src, [x], [np_pool(x, 2, 2, np.max)]


def case_pool_sum_f32_two_results():
    """pooling_nchw_sum 3x3 stride 1 on f32, plus a second result (the input
    doubled) to check multi-result printing."""
    x = f32((1, 2, 7, 6))
    src = """
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @k(%x: tensor<1x2x7x6xf32>) -> (tensor<1x2x5x4xf32>, tensor<1x2x7x6xf32>) {
  %z = arith.constant 0.0 : f32
  %win = tensor.empty() : tensor<3x3xf32>
  %e = tensor.empty() : tensor<1x2x5x4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x2x5x4xf32>) -> tensor<1x2x5x4xf32>
  %y = linalg.pooling_nchw_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %win : tensor<1x2x7x6xf32>, tensor<3x3xf32>) outs(%f : tensor<1x2x5x4xf32>) -> tensor<1x2x5x4xf32>
  %e2 = tensor.empty() : tensor<1x2x7x6xf32>
  %d = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x2x7x6xf32>) outs(%e2 : tensor<1x2x7x6xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<1x2x7x6xf32>
  return %y, %d : tensor<1x2x5x4xf32>, tensor<1x2x7x6xf32>
}"""
    want = np_pool(x.astype(np.float64), 3, 1, np.sum).astype(np.float32)
    return src, [x], [want, x + x]


def case_depthwise_i8():
    """depthwise_conv_2d_nchw_chw, i8 -> i32, no padding."""
    x, w = i8((1, 4, 9, 7)), i8((4, 3, 3))
    src = f"""
func.func @k(%x: tensor<1x4x9x7xi8>) -> tensor<1x4x7x5xi32> {{
  %w = arith.constant {hexconst(w, 'tensor<4x3x3xi8>')}
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x4x7x5xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<1x4x7x5xi32>) -> tensor<1x4x7x5xi32>
  %y = linalg.depthwise_conv_2d_nchw_chw {{dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}}
      ins(%x, %w : tensor<1x4x9x7xi8>, tensor<4x3x3xi8>) outs(%f : tensor<1x4x7x5xi32>) -> tensor<1x4x7x5xi32>
  return %y : tensor<1x4x7x5xi32>
}}"""
    xa, wa = x.astype(np.int64), w.astype(np.int64)
    want = np.zeros((1, 4, 7, 5), np.int64)
    for i in range(3):
        for j in range(3):
            want += xa[:, :, i:i + 7, j:j + 5] * wa[None, :, i, j, None, None]
    return src, [x], [want.astype(np.int32)]


def compare(got, want):
    if got.shape != want.shape or got.dtype != want.dtype:
        return f"shape/dtype {got.shape} {got.dtype} vs {want.shape} {want.dtype}", 1
    if want.dtype.kind == "f":
        err = np.abs(got.astype(np.float64) - want.astype(np.float64))
        bad = int(np.count_nonzero(err > 1e-5 * np.abs(want) + 1e-6))
        return f"max|err|={err.max():.3g}", bad
    err = np.abs(got.astype(np.int64) - want.astype(np.int64))
    return f"max|err|={int(err.max())}", int(np.count_nonzero(err))


def main():
    work = sys.argv[1] if len(sys.argv) > 1 else "/tmp/ming-reference-vs-numpy"
    os.makedirs(work, exist_ok=True)
    failed = 0
    for name, fn in sorted((n, f) for n, f in globals().items() if n.startswith("case_")):
        name = name[len("case_"):]
        src, ins, wants = fn()
        path = os.path.join(work, name + ".mlir")
        with open(path, "w") as f:
            f.write(src)
        try:
            got = R.reference(R.parse_kernel(path), ins)
        except R.ReferenceError as e:
            print(f"{name}: ERROR {e}")
            failed += 1
            continue
        parts, bad = [], 0
        for j, (g, w) in enumerate(zip(got, wants)):
            msg, b = compare(g, w)
            nz = int(np.count_nonzero(w))
            elem = {"int8": "i8", "int32": "i32", "float32": "f32"}[str(w.dtype)]
            parts.append(f"out{j} {ttype(w.shape, elem)} {msg} nonzero={nz}/{w.size}")
            bad += b
        status = "OK" if bad == 0 and len(got) == len(wants) else f"MISMATCH ({bad} elements)"
        failed += status != "OK"
        print(f"{name}: {status} " + "; ".join(parts))
    print("all match" if failed == 0 else f"{failed} case(s) failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
