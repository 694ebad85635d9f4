//! The FPGA boards `--board` knows (BENCHMARKS.md, "Boards"): the part that
//! Vitis HLS synthesises for and the resource limits the DSE works within.

/// One board preset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Board {
    pub name: &'static str,
    /// The device part given to `set_part`.
    pub part: &'static str,
    pub dsp: u32,
    pub bram18k: u32,
    pub uram: u32,
    /// Data bits per cycle of one port into the processing system's memory:
    /// the HP ports of a Zynq UltraScale+ (128) or a Zynq-7000 (64); on an
    /// Alveo card the 512-bit m_axi width Vitis recommends for its kernels.
    pub axi_bits: u32,
    pub lut: u32,
    pub ff: u32,
    pub family: Family,
}

/// How a design reaches the board (project/deploy.rs): the processing
/// system of a Zynq block design, or an Alveo card's Vitis platform.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// Zynq UltraScale+ MPSoC (zynq_ultra_ps_e); `board_part` is what
    /// Vivado's board files call it, used when they are installed.
    ZynqUltraScale { board_part: &'static str },
    /// Zynq-7000 (processing_system7).
    Zynq7000 { board_part: &'static str },
    /// An Alveo card: a Vitis kernel (.xo) linked onto the platform.
    Alveo { platform: &'static str },
}

/// Every preset; the first one is the default.
pub const BOARDS: &[Board] = &[
    Board { name: "kv260", part: "xck26-sfvc784-2LV-c", dsp: 1248, bram18k: 288, uram: 64, axi_bits: 128, lut: 117_120, ff: 234_240, family: Family::ZynqUltraScale { board_part: "kv260_som" } },
    Board { name: "zcu104", part: "xczu7ev-ffvc1156-2-e", dsp: 1728, bram18k: 624, uram: 96, axi_bits: 128, lut: 230_400, ff: 460_800, family: Family::ZynqUltraScale { board_part: "zcu104" } },
    Board { name: "zedboard", part: "xc7z020clg484-1", dsp: 220, bram18k: 280, uram: 0, axi_bits: 64, lut: 53_200, ff: 106_400, family: Family::Zynq7000 { board_part: "zedboard" } },
    Board { name: "u55c", part: "xcu55c-fsvh2892-2L-e", dsp: 9024, bram18k: 4032, uram: 960, axi_bits: 512, lut: 1_303_680, ff: 2_607_360, family: Family::Alveo { platform: "xilinx_u55c_gen3x16_xdma_3_202210_1" } },
];

/// The names, in table order (for clap's list of possible values).
pub const NAMES: &[&str] = &["kv260", "zcu104", "zedboard", "u55c"];

pub const DEFAULT: &str = "kv260";

/// The preset called `name`, if any.
pub fn by_name(name: &str) -> Option<Board> {
    BOARDS.iter().copied().find(|b| b.name == name)
}

/// The limits the design must fit: the board's, unless `--dsp`/`--bram`
/// override them (a smaller budget than the chip, e.g. to share it).
#[derive(Debug, Clone, PartialEq)]
pub struct Target {
    pub board: Board,
    pub dsp: u32,
    pub bram18k: u32,
    /// UltraRAMs the buffers may take (the board's unless --uram says).
    pub uram: u32,
    pub clock_mhz: f64,
    /// The cost model's target description (--target-spec, JSON in the form
    /// `--print-target-spec` writes); None: the built-in one.
    pub cost_model: Option<std::path::PathBuf>,
}

impl Target {
    pub fn new(board: Board, dsp: Option<u32>, bram18k: Option<u32>, clock_mhz: f64) -> Self {
        Target {
            board,
            dsp: dsp.unwrap_or(board.dsp),
            bram18k: bram18k.unwrap_or(board.bram18k),
            uram: board.uram,
            clock_mhz,
            cost_model: None,
        }
    }

    /// The cost model's description as the C++ side takes it ("" = built in).
    pub fn cost_model_path(&self) -> String {
        self.cost_model.as_ref().map(|p| p.to_string_lossy().into_owned()).unwrap_or_default()
    }

    /// What the cost model is told of this target.
    pub fn cost_target(&self) -> crate::dse::CostModel {
        crate::dse::CostModel { file: self.cost_model_path(), axi_bits: self.board.axi_bits }
    }

    /// The clock period in ns, as `create_clock -period` takes it: at most
    /// three decimals, no trailing zeros (200 MHz -> "5", 300 MHz -> "3.333").
    pub fn period_ns(&self) -> String {
        let text = format!("{:.3}", 1000.0 / self.clock_mhz);
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_table_and_the_default_exists() {
        let names: Vec<&str> = BOARDS.iter().map(|b| b.name).collect();
        assert_eq!(names, NAMES);
        assert_eq!(BOARDS[0].name, DEFAULT);
        assert_eq!(by_name("zedboard").map(|b| b.part), Some("xc7z020clg484-1"));
        assert_eq!(by_name("kv260").map(|b| (b.dsp, b.bram18k)), Some((1248, 288)));
        assert!(by_name("KV260").is_none());
    }

    #[test]
    fn overrides_and_clock_period() {
        let kv = by_name("kv260").expect("kv260");
        let t = Target::new(kv, Some(250), None, 200.0);
        assert_eq!((t.dsp, t.bram18k), (250, 288));
        assert_eq!(t.period_ns(), "5");
        assert_eq!(Target::new(kv, None, None, 300.0).period_ns(), "3.333");
        assert_eq!(Target::new(kv, None, None, 250.0).period_ns(), "4");
        assert_eq!(Target::new(kv, None, None, 150.0).period_ns(), "6.667");
    }
}
