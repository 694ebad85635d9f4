//! Deployment files of the project (deploy/ and driver.py): from the IP that
//! run_hls.tcl exports to a board and a host program that runs it.
//!
//! - Zynq boards (kv260, zcu104, zedboard): `deploy/bitstream.tcl`, a Vivado
//!   script that builds the block design (processing system, the kernel's IP
//!   with each m_axi bundle on a high-performance slave port, its s_axilite
//!   control on the general-purpose master, one PL clock at the design's
//!   frequency and its reset) and writes `deploy/<top>.bit` and `.hwh`, the
//!   pair a PYNQ overlay loads. `driver.py` runs it under PYNQ.
//! - Alveo cards (u55c): run_hls.tcl exports `deploy/<top>.xo`; `v++ --link`
//!   with `deploy/link.cfg` (every bundle on its own HBM bank) makes
//!   `deploy/<top>.xclbin`. `driver.py` runs it with XRT's Python binding.
//!
//! Both drivers share one interface (`Accelerator(...)(*inputs) -> outputs`,
//! `--bench N`) and the data-file layout of the testbench.
use super::testbench::{Codec, Kind};
use super::top::{Port, Top};
use crate::board::{Family, Target};
use std::fmt::Write as _;

/// What the deployment files need to know about the top function's ports.
pub struct Interface<'a> {
    pub top: &'a Top,
    pub ports: &'a [Port],
    /// The s_axilite bundle of the block-level control (`control`).
    pub control: &'a str,
}

impl Interface<'_> {
    /// The distinct m_axi bundles in argument order.
    pub fn bundles(&self) -> Vec<String> {
        let mut seen: Vec<String> = Vec::new();
        for b in self.ports.iter().filter_map(|p| p.bundle.clone()) {
            if !seen.contains(&b) {
                seen.push(b);
            }
        }
        seen
    }
}

/// The files (path in the project, text) for the board.
pub fn files(target: &Target, iface: &Interface) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    match target.board.family {
        Family::ZynqUltraScale { board_part } | Family::Zynq7000 { board_part } => {
            out.push(("deploy/bitstream.tcl".to_string(), bitstream_tcl(target, board_part, iface)));
        }
        Family::Alveo { .. } => out.push(("deploy/link.cfg".to_string(), link_cfg(iface))),
    }
    out.push(("driver.py".to_string(), driver_py(target, iface)?));
    Ok(out)
}

/// The processing system's names on one Zynq family: its IP, the
/// high-performance slave ports (with their clock pins and the CONFIG that
/// enables them), the general-purpose master for control, PL clock, reset
/// and interrupt.
struct Ps {
    ip: &'static str,
    automation: &'static str,
    hp: [(&'static str, &'static str, &'static str); 4],
    master: (&'static str, &'static str, &'static str),
    clock: &'static str,
    reset: &'static str,
    irq: (&'static str, &'static str),
    clock_config: Vec<(String, String)>,
}

fn ps(target: &Target) -> Ps {
    let mhz = format!("{}", target.clock_mhz);
    match target.board.family {
        Family::Zynq7000 { .. } => Ps {
            ip: "processing_system7",
            automation: "xilinx.com:bd_rule:processing_system7",
            hp: [
                ("S_AXI_HP0", "S_AXI_HP0_ACLK", "PCW_USE_S_AXI_HP0"),
                ("S_AXI_HP1", "S_AXI_HP1_ACLK", "PCW_USE_S_AXI_HP1"),
                ("S_AXI_HP2", "S_AXI_HP2_ACLK", "PCW_USE_S_AXI_HP2"),
                ("S_AXI_HP3", "S_AXI_HP3_ACLK", "PCW_USE_S_AXI_HP3"),
            ],
            master: ("M_AXI_GP0", "M_AXI_GP0_ACLK", "PCW_USE_M_AXI_GP0"),
            clock: "FCLK_CLK0",
            reset: "FCLK_RESET0_N",
            irq: ("IRQ_F2P", "PCW_USE_FABRIC_INTERRUPT PCW_IRQ_F2P_INTR"),
            clock_config: vec![("PCW_FPGA0_PERIPHERAL_FREQMHZ".into(), mhz), ("PCW_EN_CLK0_PORT".into(), "1".into())],
        },
        _ => Ps {
            ip: "zynq_ultra_ps_e",
            automation: "xilinx.com:bd_rule:zynq_ultra_ps_e",
            hp: [
                ("S_AXI_HP0_FPD", "saxihp0_fpga_aclk", "PSU__USE__S_AXI_GP2"),
                ("S_AXI_HP1_FPD", "saxihp1_fpga_aclk", "PSU__USE__S_AXI_GP3"),
                ("S_AXI_HP2_FPD", "saxihp2_fpga_aclk", "PSU__USE__S_AXI_GP4"),
                ("S_AXI_HP3_FPD", "saxihp3_fpga_aclk", "PSU__USE__S_AXI_GP5"),
            ],
            master: ("M_AXI_HPM0_FPD", "maxihpm0_fpd_aclk", "PSU__USE__M_AXI_GP0"),
            clock: "pl_clk0",
            reset: "pl_resetn0",
            irq: ("pl_ps_irq0", "PSU__USE__IRQ0"),
            clock_config: vec![
                ("PSU__FPGA_PL0_ENABLE".into(), "1".into()),
                ("PSU__CRL_APB__PL0_REF_CTRL__FREQMHZ".into(), mhz),
                // The other masters stay off: their clocks would need driving.
                ("PSU__USE__M_AXI_GP1".into(), "0".into()),
                ("PSU__USE__M_AXI_GP2".into(), "0".into()),
            ],
        },
    }
}

/// The HP port (0..4) of each bundle: round robin, so up to four bundles
/// get a port of their own and more share through the port's SmartConnect.
pub(crate) fn hp_of(bundles: &[String]) -> Vec<usize> {
    (0..bundles.len()).map(|i| i % 4).collect()
}

/// deploy/bitstream.tcl for a Zynq board.
pub fn bitstream_tcl(target: &Target, board_part: &str, iface: &Interface) -> String {
    let top = &iface.top.name;
    let b = &target.board;
    let ps = ps(target);
    let bundles = iface.bundles();
    let hp = hp_of(&bundles);
    let used: Vec<usize> = (0..4).filter(|h| hp.contains(h)).collect();
    let mut t = String::new();
    let _ = write!(
        t,
        r#"# Generated by ming-opt --hls: Vivado block design and bitstream for {top} on {name} ({part}) at {mhz} MHz.
# Run: make bitstream (which exports the IP with Vitis HLS first), or
#      vivado -mode batch -source deploy/bitstream.tcl
# Writes deploy/{top}.bit and deploy/{top}.hwh (the pair a PYNQ overlay loads)
# and deploy/{top}_hw.h (the kernel's register map, which driver.py reads).
set dir [file dirname [file dirname [file normalize [info script]]]]
set ip_repo $dir/{top}_prj/solution1/impl/ip
if {{![file exists $ip_repo/component.xml]}} {{
    puts stderr "bitstream.tcl: no exported IP in $ip_repo; run make ip (vitis_hls -f run_hls.tcl -tclargs csynth export) first"
    exit 1
}}

create_project -force {top}_bd $dir/vivado -part {part}
# The board's presets (DDR, MIO) when Vivado has its board files; else the bare part.
set board [lindex [get_board_parts -quiet -latest_file_version *{board_part}*] 0]
if {{$board ne ""}} {{
    set_property board_part $board [current_project]
}} else {{
    puts "bitstream.tcl: no board files for {board_part}; using the part's defaults for the processing system"
}}
set_property ip_repo_paths [list $ip_repo] [current_project]
update_ip_catalog
create_bd_design design_1

# The processing system: its presets, then the ports this design uses.
set ps [create_bd_cell -type ip -vlnv [lindex [get_ipdefs -all xilinx.com:ip:{ps_ip}:*] end] ps]
if {{$board ne ""}} {{
    apply_bd_automation -rule {automation} -config {{apply_board_preset "1"}} $ps
}}
set_property -dict [list \
"#,
        name = b.name,
        part = b.part,
        mhz = target.clock_mhz,
        ps_ip = ps.ip,
        automation = ps.automation,
    );
    let _ = writeln!(t, "    CONFIG.{} {{1}} \\", ps.master.2);
    for (k, v) in &ps.clock_config {
        let _ = writeln!(t, "    CONFIG.{k} {{{v}}} \\");
    }
    for h in 0..4 {
        let _ = writeln!(t, "    CONFIG.{} {{{}}} \\", ps.hp[h].2, if used.contains(&h) { 1 } else { 0 });
    }
    for key in ps.irq.1.split(' ') {
        let _ = writeln!(t, "    CONFIG.{key} {{1}} \\");
    }
    let _ = write!(
        t,
        r#"] $ps

# The kernel, its reset and its control path.
set ip [create_bd_cell -type ip -vlnv xilinx.com:hls:{top}:1.0 {top}_0]
set rst [create_bd_cell -type ip -vlnv [lindex [get_ipdefs -all xilinx.com:ip:proc_sys_reset:*] end] rst_pl]
set smartconnect [lindex [get_ipdefs -all xilinx.com:ip:smartconnect:*] end]
set ctrl [create_bd_cell -type ip -vlnv $smartconnect ctrl_sc]
set_property -dict [list CONFIG.NUM_SI {{1}} CONFIG.NUM_MI {{1}}] $ctrl
connect_bd_intf_net [get_bd_intf_pins ps/{master}] [get_bd_intf_pins ctrl_sc/S00_AXI]
connect_bd_intf_net [get_bd_intf_pins ctrl_sc/M00_AXI] [get_bd_intf_pins {top}_0/s_axi_{control}]
"#,
        master = ps.master.0,
        control = iface.control,
    );
    let _ = writeln!(t, "\n# Each m_axi bundle on a high-performance port of the processing system.");
    for &h in &used {
        let on: Vec<&String> = bundles.iter().zip(&hp).filter(|(_, p)| **p == h).map(|(b, _)| b).collect();
        let _ = writeln!(t, "set mem{h} [create_bd_cell -type ip -vlnv $smartconnect mem_sc{h}]");
        let _ = writeln!(t, "set_property -dict [list CONFIG.NUM_SI {{{}}} CONFIG.NUM_MI {{1}}] $mem{h}", on.len());
        for (k, bundle) in on.iter().enumerate() {
            let _ = writeln!(t, "connect_bd_intf_net [get_bd_intf_pins {top}_0/m_axi_{bundle}] [get_bd_intf_pins mem_sc{h}/S{k:02}_AXI]");
        }
        let _ = writeln!(t, "connect_bd_intf_net [get_bd_intf_pins mem_sc{h}/M00_AXI] [get_bd_intf_pins ps/{}]", ps.hp[h].0);
    }
    let _ = writeln!(t, "\n# One clock ({mhz} MHz from the PL clock 0) and its reset for everything.", mhz = target.clock_mhz);
    let mut clocked = vec![format!("ps/{}", ps.master.1), format!("{top}_0/ap_clk"), "rst_pl/slowest_sync_clk".into(), "ctrl_sc/aclk".into()];
    for &h in &used {
        clocked.push(format!("ps/{}", ps.hp[h].1));
        clocked.push(format!("mem_sc{h}/aclk"));
    }
    let _ = writeln!(t, "connect_bd_net [get_bd_pins ps/{}] {}", ps.clock, clocked.iter().map(|p| format!("[get_bd_pins {p}]")).collect::<Vec<_>>().join(" "));
    let _ = writeln!(t, "connect_bd_net [get_bd_pins ps/{}] [get_bd_pins rst_pl/ext_reset_in]", ps.reset);
    let mut reset = vec![format!("{top}_0/ap_rst_n"), "ctrl_sc/aresetn".into()];
    for &h in &used {
        reset.push(format!("mem_sc{h}/aresetn"));
    }
    let _ = writeln!(t, "connect_bd_net [get_bd_pins rst_pl/peripheral_aresetn] {}", reset.iter().map(|p| format!("[get_bd_pins {p}]")).collect::<Vec<_>>().join(" "));
    let _ = writeln!(t, "connect_bd_net [get_bd_pins {top}_0/interrupt] [get_bd_pins ps/{}]", ps.irq.0);
    let _ = write!(
        t,
        r#"
assign_bd_address
validate_bd_design
save_bd_design

set wrapper [make_wrapper -files [get_files design_1.bd] -top]
add_files -norecurse $wrapper
set_property top design_1_wrapper [current_fileset]
launch_runs impl_1 -to_step write_bitstream -jobs 2
wait_on_run impl_1
if {{[get_property PROGRESS [get_runs impl_1]] ne "100%"}} {{
    puts stderr "bitstream.tcl: implementation did not finish; see $dir/vivado"
    exit 1
}}

# The overlay: bitstream and hardware handoff under one name.
file mkdir $dir/deploy
file copy -force [get_property DIRECTORY [get_runs impl_1]]/design_1_wrapper.bit $dir/deploy/{top}.bit
file copy -force [lindex [glob $dir/vivado/*/sources_1/bd/design_1/hw_handoff/design_1.hwh] 0] $dir/deploy/{top}.hwh
set regs [glob -nocomplain $ip_repo/drivers/*/src/x*_hw.h]
if {{[llength $regs] > 0}} {{
    file copy -force [lindex $regs 0] $dir/deploy/{top}_hw.h
}}
puts "bitstream.tcl: wrote $dir/deploy/{top}.bit and {top}.hwh"
exit
"#
    );
    t
}

/// deploy/link.cfg for `v++ --link` on an Alveo card: one compute unit, each
/// bundle on its own HBM pseudo-channel.
pub fn link_cfg(iface: &Interface) -> String {
    let top = &iface.top.name;
    let mut t = format!(
        "# Generated by ming-opt --hls: v++ link options for {top} (make xclbin).\n[connectivity]\nnk={top}:1:{top}_1\n"
    );
    for (i, b) in iface.bundles().iter().enumerate() {
        let _ = writeln!(t, "sp={top}_1.m_axi_{b}:HBM[{i}]");
    }
    t
}

/// The numpy dtype that holds an element as the data files and the m_axi
/// port lay it out (integers in 1, 2, 4 or 8 bytes).
pub fn numpy_dtype(elem: &str) -> Result<String, String> {
    let c = Codec::of(elem)?;
    Ok(match c.kind {
        Kind::Bool => "bool".to_string(),
        Kind::F32 => "float32".to_string(),
        Kind::F64 => "float64".to_string(),
        Kind::Int(_) | Kind::Ap(_) => format!("int{}", 8 * c.bytes),
    })
}

/// report.json's `ports`: the top's arguments in order, each with its
/// direction, shape, MLIR element type, numpy dtype of its data file and
/// m_axi bundle, for the drivers and the Python API.
pub fn ports_json(top: &Top, ports: &[Port]) -> Result<super::json::Json, String> {
    use super::json::Json;
    let mut out = Vec::new();
    for (i, a) in top.args.iter().enumerate() {
        out.push(Json::object([
            ("name", Json::Str(format!("arg{i}"))),
            ("direction", Json::str(if i < top.num_inputs { "in" } else { "out" })),
            ("shape", Json::Array(a.shape.iter().map(|d| Json::opt_int(Some(*d))).collect())),
            ("elem", Json::str(&a.elem)),
            ("dtype", Json::Str(numpy_dtype(&a.elem)?)),
            ("bundle", Json::opt_str(ports.get(i).and_then(|p| p.bundle.as_deref()))),
        ]));
    }
    Ok(Json::Array(out))
}

/// driver.py: PYNQ on Zynq boards, XRT on Alveo cards.
pub fn driver_py(target: &Target, iface: &Interface) -> Result<String, String> {
    let top = &iface.top.name;
    let mut ports = String::new();
    for (i, a) in iface.top.args.iter().enumerate() {
        let dims: Vec<String> = a.shape.iter().map(u64::to_string).collect();
        let shape = if dims.len() == 1 { format!("({},)", dims[0]) } else { format!("({})", dims.join(", ")) };
        let role = if i < iface.top.num_inputs { "in" } else { "out" };
        let _ = writeln!(ports, "    (\"arg{i}\", \"{role}\", {shape}, \"{}\", \"{}\"),", numpy_dtype(&a.elem)?, a.describe());
    }
    let backend = match target.board.family {
        Family::Alveo { .. } => XRT_BACKEND,
        _ => PYNQ_BACKEND,
    };
    Ok(format!(
        "#!/usr/bin/env python3\n\"\"\"Host driver for {top} on {board} (generated by ming-opt --hls).\n{DRIVER_DOC}\"\"\"\n\
         import argparse\nimport os\nimport sys\nimport time\n\nimport numpy as np\n\n\
         HERE = os.path.dirname(os.path.abspath(__file__))\nTOP = \"{top}\"\nBOARD = \"{board}\"\n\
         # The top function's arguments in order: C name, direction, shape, numpy dtype, MLIR type.\nPORTS = [\n{ports}]\n\
         {COMMON}{backend}{MAIN}",
        board = target.board.name,
    ))
}

const DRIVER_DOC: &str = r#"
As a module (a notebook next to the project folder):

    from driver import Accelerator
    acc = Accelerator()                 # loads the bitstream / xclbin of deploy/
    (y,) = acc(x)                       # numpy in, numpy out, typed as the model's tensors

From a shell on the board:

    python3 driver.py                   # data/in<i>.bin (else deterministic inputs) -> data/out<j>.bin
    python3 driver.py --bench 100       # latency of 100 runs (mean, min, max)

Inputs are converted to the argument's dtype and shape (row-major, as the
model's tensors and the testbench's data files); outputs come back as new
numpy arrays.
"#;

const COMMON: &str = r#"

def inputs():
    return [p for p in PORTS if p[1] == "in"]


def outputs():
    return [p for p in PORTS if p[1] == "out"]


def as_input(x, port):
    """x as the argument's dtype and shape (a ValueError on a size mismatch)."""
    name, _, shape, dtype, mlir = port
    a = np.asarray(x)
    if a.size != int(np.prod(shape)):
        raise ValueError(f"{name} is {mlir}: {int(np.prod(shape))} elements, got {a.size}")
    return np.ascontiguousarray(a.astype(dtype, copy=False).reshape(shape))


def deterministic(port, seed):
    """The testbench's inputs when there is no data file: floats in [-1, 1),
    integers over the type's range (same generator, so the same numbers)."""
    _, _, shape, dtype, mlir = port
    n = int(np.prod(shape))
    state, out = seed, np.empty(n, dtype=np.float64 if dtype.startswith("float") else np.int64)
    width = 1 if mlir.endswith("xi1") else int(mlir.rsplit("xi", 1)[1]) if "xi" in mlir else 0
    for k in range(n):
        state = (state * 6364136223846793005 + 1442695040888963407) & (2**64 - 1)
        if width == 0:
            out[k] = (state >> 40) / 8388608.0 - 1.0
        else:
            v = state >> (64 - width)
            out[k] = v - (1 << width) if width < 64 and (v >> (width - 1)) & 1 else v
    return out.astype(dtype).reshape(shape)
"#;

const PYNQ_BACKEND: &str = r#"

# The kernel's AXI-lite control registers as Vitis HLS lays them out:
# ap_start, ap_done and ap_idle in word 0, then per argument its 64-bit
# buffer address (low word, high word, a reserved word). `make bitstream`
# copies the exported IP's own map to deploy/<top>_hw.h, which wins.
CTRL, AP_START, AP_DONE = 0x00, 0x1, 0x2


def register_offsets():
    offsets = {p[0]: 0x10 + 12 * i for i, p in enumerate(PORTS)}
    hw = os.path.join(HERE, "deploy", TOP + "_hw.h")
    if os.path.exists(hw):
        import re
        with open(hw) as f:
            for m in re.finditer(r"_ADDR_(\w+?)_DATA\s+0x([0-9a-fA-F]+)", f.read()):
                offsets[m.group(1).lower()] = int(m.group(2), 16)
    return offsets


class Accelerator:
    """The kernel in the PL: the overlay deploy/<top>.bit (+ .hwh), one
    contiguous buffer per argument, allocated once."""

    def __init__(self, bitfile=None, overlay=None):
        import pynq
        self.overlay = overlay if overlay is not None else pynq.Overlay(bitfile or os.path.join(HERE, "deploy", TOP + ".bit"))
        self.ip = getattr(self.overlay, TOP + "_0")
        self.buffers = [pynq.allocate(shape=p[2], dtype=p[3]) for p in PORTS]
        self.offsets = register_offsets()

    def __call__(self, *xs):
        ins = inputs()
        if len(xs) != len(ins):
            raise TypeError(f"{TOP} takes {len(ins)} input(s), got {len(xs)}")
        for x, port, buf in zip(xs, ins, self.buffers):
            buf[...] = as_input(x, port)
            buf.flush()
        for port, buf in zip(PORTS, self.buffers):
            address = buf.device_address
            self.ip.write(self.offsets[port[0]], address & 0xFFFFFFFF)
            self.ip.write(self.offsets[port[0]] + 4, address >> 32)
        self.ip.write(CTRL, AP_START)
        while not self.ip.read(CTRL) & AP_DONE:
            pass
        result = []
        for port, buf in zip(PORTS, self.buffers):
            if port[1] == "out":
                buf.invalidate()
                result.append(np.array(buf, copy=True))
        return tuple(result)
"#;

const XRT_BACKEND: &str = r#"


class Accelerator:
    """The kernel on an Alveo card: deploy/<top>.xclbin on device `index`,
    one buffer object per argument in the bank v++ connected it to."""

    def __init__(self, xclbin=None, index=0):
        import pyxrt
        self.pyxrt = pyxrt
        self.device = pyxrt.device(index)
        image = pyxrt.xclbin(xclbin or os.path.join(HERE, "deploy", TOP + ".xclbin"))
        uuid = self.device.load_xclbin(image)
        self.kernel = pyxrt.kernel(self.device, uuid, TOP)
        self.buffers = [
            pyxrt.bo(self.device, int(np.prod(p[2])) * np.dtype(p[3]).itemsize, pyxrt.bo.normal, self.kernel.group_id(i))
            for i, p in enumerate(PORTS)
        ]

    def __call__(self, *xs):
        ins = inputs()
        if len(xs) != len(ins):
            raise TypeError(f"{TOP} takes {len(ins)} input(s), got {len(xs)}")
        for x, port, bo in zip(xs, ins, self.buffers):
            bo.write(as_input(x, port).tobytes(), 0)
            bo.sync(self.pyxrt.xclBOSyncDirection.XCL_BO_SYNC_BO_TO_DEVICE)
        run = self.kernel(*self.buffers)
        run.wait()
        result = []
        for port, bo in zip(PORTS, self.buffers):
            if port[1] == "out":
                bo.sync(self.pyxrt.xclBOSyncDirection.XCL_BO_SYNC_BO_FROM_DEVICE)
                raw = bo.read(bo.size(), 0)
                result.append(np.frombuffer(bytes(raw), dtype=port[3]).reshape(port[2]).copy())
        return tuple(result)
"#;

const MAIN: &str = r#"

def main(argv=None):
    ap = argparse.ArgumentParser(description=f"Run {TOP} on {BOARD}.")
    ap.add_argument("--data", default=os.path.join(HERE, "data"), help="folder of in<i>.bin (read) and out<j>.bin (written)")
    ap.add_argument("--bench", type=int, metavar="N", help="time N runs and print the latency")
    args = ap.parse_args(argv)
    xs = []
    for i, port in enumerate(inputs()):
        path = os.path.join(args.data, f"in{i}.bin")
        if os.path.exists(path):
            xs.append(np.fromfile(path, dtype=np.dtype(port[3]).newbyteorder("<")))
        else:
            xs.append(deterministic(port, i + 1))
    acc = Accelerator()
    ys = acc(*xs)
    os.makedirs(args.data, exist_ok=True)
    for j, y in enumerate(ys):
        y.astype(np.dtype(y.dtype).newbyteorder("<")).tofile(os.path.join(args.data, f"out{j}.bin"))
        print(f"out{j}: {outputs()[j][4]} written to {os.path.join(args.data, f'out{j}.bin')}")
    if args.bench:
        times = []
        for _ in range(args.bench):
            t = time.perf_counter()
            acc(*xs)
            times.append(time.perf_counter() - t)
        ms = [1e3 * t for t in times]
        print(f"latency over {args.bench} runs: mean {sum(ms) / len(ms):.3f} ms, min {min(ms):.3f} ms, max {max(ms):.3f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
"#;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::by_name;
    use crate::project::top::ArrayArg;

    fn design() -> Top {
        Top {
            name: "k".into(),
            args: vec![ArrayArg { shape: vec![1, 3, 4], elem: "i8".into() }, ArrayArg { shape: vec![12], elem: "f32".into() }],
            num_inputs: 1,
        }
    }

    fn ports() -> Vec<Port> {
        (0..2).map(|i| Port { arg: i, bundle: Some(format!("gmem{i}")), control: Some("control".into()) }).collect()
    }

    #[test]
    fn zynq_ultrascale_block_design() {
        let top = design();
        let ports = ports();
        let iface = Interface { top: &top, ports: &ports, control: "control" };
        let t = Target::new(by_name("kv260").expect("board"), None, None, 250.0);
        let files = files(&t, &iface).expect("files");
        let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["deploy/bitstream.tcl", "driver.py"]);
        let tcl = &files[0].1;
        assert!(tcl.contains("create_project -force k_bd $dir/vivado -part xck26-sfvc784-2LV-c\n"));
        assert!(tcl.contains("CONFIG.PSU__CRL_APB__PL0_REF_CTRL__FREQMHZ {250}"));
        assert!(tcl.contains("CONFIG.PSU__USE__S_AXI_GP2 {1}") && tcl.contains("CONFIG.PSU__USE__S_AXI_GP3 {1}"));
        assert!(tcl.contains("CONFIG.PSU__USE__S_AXI_GP4 {0}"));
        assert!(tcl.contains("[get_bd_intf_pins k_0/m_axi_gmem1] [get_bd_intf_pins mem_sc1/S00_AXI]"));
        assert!(tcl.contains("[get_bd_intf_pins ctrl_sc/M00_AXI] [get_bd_intf_pins k_0/s_axi_control]"));
        let py = &files[1].1;
        assert!(py.contains("    (\"arg0\", \"in\", (1, 3, 4), \"int8\", \"1x3x4xi8\"),\n"));
        assert!(py.contains("    (\"arg1\", \"out\", (12,), \"float32\", \"12xf32\"),\n"));
        assert!(py.contains("import pynq"));
    }

    #[test]
    fn alveo_kernel() {
        let top = design();
        let ports = ports();
        let iface = Interface { top: &top, ports: &ports, control: "control" };
        let t = Target::new(by_name("u55c").expect("board"), None, None, 300.0);
        let files = files(&t, &iface).expect("files");
        assert_eq!(files[0].0, "deploy/link.cfg");
        assert!(files[0].1.contains("nk=k:1:k_1\nsp=k_1.m_axi_gmem0:HBM[0]\nsp=k_1.m_axi_gmem1:HBM[1]\n"));
        assert!(files[1].1.contains("import pyxrt"));
    }

    #[test]
    fn dtypes_follow_the_data_files() {
        assert_eq!(numpy_dtype("i12").as_deref(), Ok("int16"));
        assert_eq!(numpy_dtype("i1").as_deref(), Ok("bool"));
        assert_eq!(numpy_dtype("f64").as_deref(), Ok("float64"));
    }
}
