# lit configuration for ming: test/ mirrors the source tree.
#   lit-22 test/                      runs everything (scripts/test.sh does that)
#   lit-22 -D ming_opt='mlir-opt-22 --load-dialect-plugin=X --load-pass-plugin=X'
#          -D plugin=X test/Dialect   runs dialect/pass tests against a plugin build only
import os
import shutil

import lit.formats

config.name = "ming"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test", ".sh"]
root = os.path.dirname(os.path.abspath(__file__))
config.test_source_root = root  # lit runs on test/ or a part of it
config.test_exec_root = os.path.join(root, "target", "lit")
config.excludes = ["Inputs", "make_keras.py", "lit.cfg.py", "target", ".venv", "examples", "bench", "scripts"]

llvm_bin = "/usr/lib/llvm-22/bin"
profile = lit_config.params.get("profile", "release")
target = os.path.join(root, "target", profile)
config.environment["PATH"] = os.pathsep.join([target, llvm_bin, config.environment.get("PATH", os.environ["PATH"])])
config.environment["RUST_BACKTRACE"] = "0"

plugin = lit_config.params.get("plugin", os.path.join(target, "cmake", "lib", "libMingPasses.so"))
config.substitutions.append(("%ming_plugin", plugin))
config.substitutions.append(("%root", root))
mlir_opt = shutil.which("mlir-opt-22") or os.path.join(llvm_bin, "mlir-opt")
config.substitutions.append(("%mlir_opt", mlir_opt))

override = lit_config.params.get("ming_opt")
if override:
    config.substitutions.append((r"(?<![\w/.%-])ming-opt\b", override))
    config.available_features.add("plugin-only")
else:
    config.available_features.add("ming-opt")
if shutil.which("dot"):
    config.available_features.add("dot")
# The deployment scripts (test/Deploy) run in tclsh against stub Vivado/Vitis commands.
if shutil.which("tclsh"):
    config.available_features.add("tclsh")
# Progress lines appear on stderr once a --hls run lasts a second (rust/progress.rs); tests
# check stderr exactly, so they are off here unless a test turns them on.
config.environment["MING_PROGRESS"] = "0"

# Python for scripts/ (e2e.py, mlir_reference.py, check_memory.py): the project venv
# (numpy), else python3.
venv_python = os.path.join(root, ".venv", "bin", "python")
python = venv_python if os.access(venv_python, os.X_OK) else (shutil.which("python3") or "python3")
config.substitutions.append(("%python", python))
import subprocess


def venv_has(*modules):
    """Whether the venv's Python finds every module (without importing them: fast)."""
    probe = "import importlib.util as u, sys; sys.exit(not all(u.find_spec(m) for m in sys.argv[1:]))"
    try:
        return subprocess.run([python, "-c", probe, *modules], capture_output=True, timeout=60).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


# PyTorch is not in scripts/requirements.txt (large): tests of the PyTorch path
# say `REQUIRES: torch` and are UNSUPPORTED where the venv has no torch.
if venv_has("torch"):
    config.available_features.add("torch")
# TFLite input needs TensorFlow and tf2onnx in the venv (scripts/requirements.txt):
# tests of it say `REQUIRES: tflite`.
if venv_has("tensorflow", "tf2onnx"):
    config.available_features.add("tflite")
# Models nobody here wrote (MLPerf Tiny, torchvision exports) live beside the
# checkout in shared/models; tests of them say `REQUIRES: shared-models` and are
# skipped where the folder is absent.
models = os.path.join(os.path.dirname(root), "shared", "models")
if os.path.isdir(os.path.join(models, "mlperf-tiny")):
    config.available_features.add("shared-models")
config.substitutions.append(("%models", models))
# Slow tests (e.g. the 224x224 end-to-end run) only with `lit-22 -D slow=1 test/`.
if lit_config.params.get("slow", "0") not in ("", "0", "false", "no"):
    config.available_features.add("slow")

# Xilinx's open-source C-simulation headers (ap_int.h, ap_fixed.h, hls_stream.h) for the
# vendor-header tests (test/Target/Vendor): fetched once into target/xilinx-headers by
# scripts/xilinx_headers.py (from PyPI's hls4ml wheel, never committed). Where they cannot be
# had (no network, no pip) those tests are UNSUPPORTED.
try:
    fetched = subprocess.run([python, os.path.join(root, "scripts", "xilinx_headers.py")],
                             capture_output=True, text=True, timeout=180)
    if fetched.returncode == 0 and os.path.isdir(fetched.stdout.strip()):
        config.available_features.add("xilinx-headers")
        config.substitutions.append(("%xilinx_headers", fetched.stdout.strip()))
    else:
        lit_config.note("no Xilinx headers, vendor-header tests unsupported: " + fetched.stderr.strip())
except (OSError, subprocess.TimeoutExpired) as e:
    lit_config.note(f"no Xilinx headers, vendor-header tests unsupported: {e}")
