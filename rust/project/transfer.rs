//! The memory transfer of a design: the cycles its m_axi ports need to move
//! the model's inputs and outputs at the board's port width, and whether
//! that transfer, rather than compute, sets the design's pace.
//!
//! Each m_axi bundle sits on one port of the processing system (round robin
//! over the four HP ports of a Zynq, as deploy/bitstream.tcl connects them;
//! a memory channel of its own on an Alveo card); bundles sharing a port
//! share its width. The bound is the busiest port's beats. The design's pace
//! is its slowest process (a streaming design takes a new input that often);
//! when that process is a load or a store, transfer bounds the design.
use super::deploy::{hp_of, Interface};
use super::json::Json;
use super::report::Figures;
use crate::board::{Family, Target};
use crate::ir::graph::Graph;
use std::fmt::Write as _;

/// One memory argument.
#[derive(Debug, Clone, PartialEq)]
pub struct PortTransfer {
    /// `arg<i>`, as report.json's `ports`.
    pub name: String,
    pub input: bool,
    pub bytes: u64,
    /// Beats of `axi_bits` the data needs.
    pub beats: u64,
    /// The memory port of the processing system (HP<k>, or the channel).
    pub port: usize,
    /// The load or store process moving it, and its cycles (the cost model's).
    pub node: Option<(String, i64)>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Transfer {
    pub axi_bits: u32,
    pub ports: Vec<PortTransfer>,
    /// The busiest memory port's beats, and that port.
    pub bound_cycles: u64,
    pub bound_port: Option<usize>,
    /// The slowest process and its cycles: the design's pace.
    pub slowest: Option<(String, i64)>,
    /// Whether that process is a load or a store.
    pub transfer_bound: bool,
}

/// Bytes one element takes in memory: the layout of the data files the
/// testbench reads (`ap_int<N>` rounded up to 1, 2, 4 or 8 bytes). A type the
/// testbench refuses never reaches here (the project is not written).
fn element_bytes(elem: &str) -> u64 {
    super::testbench::Codec::of(elem).map(|c| u64::from(c.bytes)).unwrap_or(4)
}

pub fn analyse(target: &Target, iface: &Interface, g: &Graph, f: &Figures) -> Transfer {
    let axi_bits = target.board.axi_bits.max(8);
    let bundles = iface.bundles();
    let ports_of_bundles = match target.board.family {
        Family::Alveo { .. } => (0..bundles.len()).collect(),
        _ => hp_of(&bundles),
    };
    let estimate = |name: &str| f.estimate.as_ref()?.nodes.iter().find(|n| n.name == name).map(|n| n.cycles);
    let mut ports = Vec::new();
    for (i, a) in iface.top.args.iter().enumerate() {
        let Some(bundle) = iface.ports.get(i).and_then(|p| p.bundle.as_ref()) else { continue };
        let port = bundles.iter().position(|b| b == bundle).map(|k| ports_of_bundles[k]).unwrap_or(0);
        let bytes = a.count() * element_bytes(&a.elem);
        let node = g
            .ports
            .iter()
            .find(|p| p.memory == i)
            .and_then(|p| g.nodes.get(p.node))
            .and_then(|n| Some((n.name.clone(), estimate(&n.name)?)));
        ports.push(PortTransfer {
            name: format!("arg{i}"),
            input: i < iface.top.num_inputs,
            bytes,
            beats: (bytes * 8).div_ceil(u64::from(axi_bits)),
            port,
            node,
        });
    }
    let mut per_port: Vec<(usize, u64)> = Vec::new();
    for p in &ports {
        match per_port.iter_mut().find(|(k, _)| *k == p.port) {
            Some((_, beats)) => *beats += p.beats,
            None => per_port.push((p.port, p.beats)),
        }
    }
    let busiest = per_port.iter().max_by_key(|(_, beats)| *beats).copied();
    let slowest = f
        .estimate
        .as_ref()
        .and_then(|e| e.nodes.iter().max_by_key(|n| n.cycles))
        .map(|n| (n.name.clone(), n.cycles));
    let transfer_bound = slowest.as_ref().is_some_and(|(name, _)| {
        g.nodes.iter().any(|n| &n.name == name && matches!(n.kind.as_deref(), Some("load") | Some("store")))
    });
    Transfer {
        axi_bits,
        ports,
        bound_cycles: busiest.map(|(_, b)| b).unwrap_or(0),
        bound_port: busiest.map(|(k, _)| k),
        slowest,
        transfer_bound,
    }
}

impl Transfer {
    pub fn json(&self) -> Json {
        let ports = self
            .ports
            .iter()
            .map(|p| {
                Json::object([
                    ("name", Json::str(&p.name)),
                    ("direction", Json::str(if p.input { "in" } else { "out" })),
                    ("bytes", Json::opt_int(Some(p.bytes))),
                    ("beats", Json::opt_int(Some(p.beats))),
                    ("memory_port", Json::opt_int(Some(p.port as u64))),
                    ("node", Json::opt_str(p.node.as_ref().map(|(n, _)| n.as_str()))),
                    ("node_cycles", p.node.as_ref().map(|(_, c)| Json::Int(*c)).unwrap_or(Json::Null)),
                ])
            })
            .collect();
        Json::object([
            ("axi_bits", Json::Int(self.axi_bits.into())),
            ("bound_cycles", Json::opt_int(Some(self.bound_cycles))),
            ("bound_memory_port", Json::opt_int(self.bound_port.map(|k| k as u64))),
            ("slowest_node", Json::opt_str(self.slowest.as_ref().map(|(n, _)| n.as_str()))),
            ("slowest_cycles", self.slowest.as_ref().map(|(_, c)| Json::Int(*c)).unwrap_or(Json::Null)),
            ("transfer_bound", Json::Bool(self.transfer_bound)),
            ("ports", Json::Array(ports)),
        ])
    }

    pub fn markdown(&self, clock_mhz: f64) -> String {
        let mut out = String::from("\n## Memory transfer\n\n");
        let _ = writeln!(
            out,
            "Ports of {} bits per cycle. Moving the data takes at least {} cycles ({:.2} us at {} MHz) on the busiest memory port.\n",
            self.axi_bits,
            self.bound_cycles,
            self.bound_cycles as f64 / clock_mhz,
            clock_mhz
        );
        out.push_str("| port | direction | bytes | beats | memory port | node | node cycles |\n|---|---|---|---|---|---|---|\n");
        for p in &self.ports {
            let (node, cycles) = match &p.node {
                Some((n, c)) => (n.clone(), c.to_string()),
                None => ("-".into(), "-".into()),
            };
            let _ = writeln!(out, "| {} | {} | {} | {} | {} | {node} | {cycles} |", p.name, if p.input { "in" } else { "out" }, p.bytes, p.beats, p.port);
        }
        match &self.slowest {
            Some((name, cycles)) if self.transfer_bound => {
                let _ = writeln!(out, "\nTransfer bounds the design: its slowest process is `{name}` ({cycles} cycles), a memory transfer.");
            }
            Some((name, cycles)) => {
                let _ = writeln!(out, "\nTransfer does not bound the design: its slowest process is `{name}` ({cycles} cycles).");
            }
            None => {}
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, BOARDS};
    use crate::dse::{Estimate, NodeEstimate};
    use crate::ir::graph::{MemoryPort, Node};
    use crate::project::top::{ArrayArg, Port, Top};

    fn node(name: &str, kind: &str) -> Node {
        Node { name: name.into(), kind: Some(kind.into()), lanes_in: None, lanes_out: None }
    }

    fn estimate(name: &str, cycles: i64) -> NodeEstimate {
        NodeEstimate { name: name.into(), cycles, ..Default::default() }
    }

    fn analysed(board: Board, conv_cycles: i64) -> Transfer {
        let top = Top {
            name: "k".into(),
            args: vec![ArrayArg { shape: vec![1, 32, 32, 3], elem: "i8".into() }, ArrayArg { shape: vec![1, 10], elem: "f32".into() }],
            num_inputs: 1,
        };
        let ports: Vec<Port> = (0..2).map(|arg| Port { arg, bundle: Some(format!("gmem{arg}")), control: None }).collect();
        let g = Graph {
            nodes: vec![node("load0", "load"), node("conv1", "sliding_window"), node("store2", "store")],
            ports: vec![MemoryPort { memory: 0, node: 0 }, MemoryPort { memory: 1, node: 2 }],
            ..Default::default()
        };
        let f = Figures {
            estimate: Some(Estimate {
                nodes: vec![estimate("load0", 3073), estimate("conv1", conv_cycles), estimate("store2", 11)],
                ..Default::default()
            }),
            ..Default::default()
        };
        let target = Target::new(board, None, None, 200.0);
        analyse(&target, &Interface { top: &top, ports: &ports, control: "control" }, &g, &f)
    }

    #[test]
    fn beats_at_the_board_width() {
        let kv260 = BOARDS[0];
        let t = analysed(kv260, 20_000);
        // 3,072 int8 bytes over 128 bits: 192 beats; 10 floats: 40 bytes, 3 beats.
        assert_eq!(t.ports[0].beats, 192);
        assert_eq!(t.ports[1].bytes, 40);
        assert_eq!(t.ports[1].beats, 3);
        assert_eq!((t.bound_cycles, t.bound_port), (192, Some(0)));
        assert!(!t.transfer_bound);
        assert_eq!(t.ports[0].node, Some(("load0".into(), 3073)));
        let zedboard = BOARDS.iter().find(|b| b.name == "zedboard").copied().unwrap();
        assert_eq!(analysed(zedboard, 20_000).bound_cycles, 384);
    }

    #[test]
    fn a_slow_load_bounds_the_design() {
        let t = analysed(BOARDS[0], 1_000);
        assert!(t.transfer_bound);
        assert_eq!(t.slowest, Some(("load0".into(), 3073)));
        let md = t.markdown(200.0);
        assert!(md.contains("Transfer bounds the design: its slowest process is `load0` (3073 cycles)"), "{md}");
        assert!(md.contains("at least 192 cycles (0.96 us at 200 MHz)"), "{md}");
    }

    #[test]
    fn element_bytes_round_up() {
        assert_eq!(element_bytes("i8"), 1);
        assert_eq!(element_bytes("i1"), 1);
        assert_eq!(element_bytes("i12"), 2);
        assert_eq!(element_bytes("i24"), 4);
        assert_eq!(element_bytes("f32"), 4);
    }
}
