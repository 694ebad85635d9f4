//! report.json and report.md (schema: ARCHITECTURE.md, "report.json").
//! The estimates come from the cost model through the DSE (rust/dse): under
//! the configuration the ILP chose, or with the IR's own directives when the
//! DSE did not run (`--no-dse`; `dse.status` is then "not run"). A design
//! that never was a dfg graph (emitHLS input) has no estimate: every figure
//! is null. No number is made up.
use crate::ir::graph::Graph;
use super::json::Json;
use crate::board::Target;
use crate::dse::{Estimate, NodeEstimate};
use crate::sim::Summary;
use std::fmt::Write as _;

/// How the DSE ran, when it did.
#[derive(Debug, Clone, PartialEq)]
pub struct Solve {
    /// "optimal" or "time limit".
    pub status: String,
    /// "dataflow" or "sum".
    pub objective: String,
    /// The whole DSE (enumeration, ILP, writing the choice back).
    pub seconds: f64,
    /// HiGHS alone.
    pub ilp_seconds: f64,
    pub candidates: usize,
    /// A large graph's DSE (dse::Settings::large_graph_lp_iterations): the
    /// simulation's FIFO minimisation has a budget too.
    pub large: bool,
}

/// What the report knows beyond the graph.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Figures {
    pub estimate: Option<Estimate>,
    pub solve: Option<Solve>,
    /// The cycle-level simulation of the design as written (rust/sim).
    pub simulation: Option<Summary>,
}

impl Figures {
    fn node(&self, name: &str) -> Option<&NodeEstimate> {
        self.estimate.as_ref()?.nodes.iter().find(|n| n.name == name)
    }
}

fn node_name(g: &Graph, index: Option<usize>) -> Json {
    Json::opt_str(index.and_then(|i| g.nodes.get(i)).map(|n| n.name.as_str()))
}

fn int(v: Option<i64>) -> Json {
    v.map(Json::Int).unwrap_or(Json::Null)
}

fn uint(v: u64) -> Json {
    Json::opt_int(Some(v))
}

/// The `simulation` section: status, per-process stalls, the deadlock, the
/// FIFO minimisation against the DSE's depths.
fn simulation_json(s: Option<&Summary>) -> Json {
    let Some(s) = s else {
        return Json::object([("status", Json::str("not run"))]);
    };
    let processes = s
        .processes
        .iter()
        .map(|p| {
            Json::object([
                ("name", Json::str(&p.name)),
                ("finish", uint(p.finish)),
                ("first_output", Json::opt_int(p.first_output)),
                ("busy", uint(p.busy)),
                ("starved", uint(p.starved)),
                ("blocked", uint(p.blocked)),
            ])
        })
        .collect();
    let deadlock = match &s.deadlock {
        None => Json::Null,
        Some(d) => Json::object([
            ("cycle", uint(d.cycle)),
            (
                "waiting",
                Json::Array(
                    d.waiting
                        .iter()
                        .map(|w| {
                            Json::object([
                                ("process", Json::str(&w.process)),
                                ("channel", Json::str(&w.channel)),
                                ("waits_for", Json::str(w.waits_for)),
                                ("fill", uint(w.fill)),
                                ("depth", Json::opt_int(w.depth)),
                            ])
                        })
                        .collect(),
                ),
            ),
            ("cycle_of", Json::Array(d.cycle_of.iter().map(|n| Json::str(n)).collect())),
        ]),
    };
    let minimization = match &s.minimize {
        None => Json::Null,
        Some(m) => Json::object([
            ("unbounded_cycles", uint(m.unbounded_cycles)),
            ("bound", uint(m.bound)),
            ("simulations", uint(m.simulations as u64)),
            ("bits_before", uint(m.bits_before)),
            ("bits_after", uint(m.bits_after)),
            ("saved_bits", Json::Int(m.bits_before as i64 - m.bits_after as i64)),
            ("bram18k_before", uint(m.bram18k_before)),
            ("bram18k_after", uint(m.bram18k_after)),
            ("saved_bram18k", Json::Int(m.bram18k_before as i64 - m.bram18k_after as i64)),
            ("unsearched_channels", uint(m.unsearched as u64)),
        ]),
    };
    Json::object([
        ("status", Json::str(s.status())),
        ("cycles", uint(s.cycles)),
        ("dse_depth_cycles", uint(s.dse_depth_cycles)),
        ("seconds", Json::Float(s.seconds)),
        ("processes", Json::Array(processes)),
        ("deadlock", deadlock),
        ("fifo_minimization", minimization),
    ])
}

pub fn json(top: &str, target: &Target, g: &Graph, f: &Figures) -> Json {
    let b = &target.board;
    let board = Json::object([
        ("name", Json::str(b.name)),
        ("part", Json::str(b.part)),
        ("dsp", Json::Int(target.dsp.into())),
        ("bram18k", Json::Int(target.bram18k.into())),
        ("uram_limit", Json::Int(target.uram.into())),
        ("clock_mhz", Json::Float(target.clock_mhz)),
        // The chip's own figures, next to the (possibly overridden) limits above.
        ("board_dsp", Json::Int(b.dsp.into())),
        ("board_bram18k", Json::Int(b.bram18k.into())),
        ("uram", Json::Int(b.uram.into())),
        ("lut", Json::Int(b.lut.into())),
        ("ff", Json::Int(b.ff.into())),
    ]);
    let nodes = g
        .nodes
        .iter()
        .map(|n| {
            let e = f.node(&n.name);
            let unroll = e.map(|e| Json::Object(e.unroll.iter().map(|(l, u)| (l.clone(), Json::Int(*u))).collect()));
            Json::object([
                ("name", Json::str(&n.name)),
                ("kind", Json::opt_str(n.kind.as_deref())),
                ("cycles", int(e.map(|e| e.cycles))),
                ("first_output", int(e.map(|e| e.first_output))),
                ("first_output_at", int(e.map(|e| e.first_out_at))),
                ("finish_at", int(e.map(|e| e.finish_at))),
                ("dsp", int(e.map(|e| e.dsp))),
                ("bram18k", int(e.map(|e| e.bram18k))),
                ("uram", int(e.map(|e| e.uram))),
                ("ii", int(e.map(|e| e.ii).filter(|&ii| ii > 0))),
                ("unroll", unroll.unwrap_or(Json::Null)),
                ("lanes_in", Json::opt_int(n.lanes_in)),
                ("lanes_out", Json::opt_int(n.lanes_out)),
            ])
        })
        .collect();
    let channels = g
        .channels
        .iter()
        .map(|c| {
            let sim = f.simulation.as_ref().and_then(|s| s.channel(&c.name));
            Json::object([
                ("name", Json::str(&c.name)),
                ("from", node_name(g, c.from)),
                ("to", node_name(g, c.to)),
                ("depth", Json::opt_int(c.depth)),
                ("lanes", Json::opt_int(Some(c.lanes))),
                ("elem", Json::str(&c.elem)),
                ("peak", Json::opt_int(sim.map(|s| s.peak))),
                // The DSE's depth, before FIFO minimisation.
                ("dse_depth", Json::opt_int(sim.and_then(|s| s.dse_depth).or(c.depth))),
            ])
        })
        .collect();
    let e = f.estimate.as_ref();
    let speedup = e.filter(|e| e.dataflow > 0).map(|e| e.baseline.cycles as f64 / e.dataflow as f64);
    let total = Json::object([
        ("cycles", int(e.map(|e| e.dataflow))),
        ("dsp", int(e.map(|e| e.dsp))),
        ("bram18k", int(e.map(|e| e.bram18k))),
        ("uram", int(e.map(|e| e.uram))),
        ("simulated_cycles", Json::opt_int(f.simulation.as_ref().map(|s| s.cycles))),
        // The paper's Eq. (1) objective and the FIFOs' share of bram18k.
        ("sum_cycles", int(e.map(|e| e.sum))),
        ("fifo_bram18k", int(e.map(|e| e.fifo_bram18k))),
    ]);
    let baseline = Json::object([
        ("cycles", int(e.map(|e| e.baseline.cycles))),
        ("dsp", int(e.map(|e| e.baseline.dsp))),
        ("bram18k", int(e.map(|e| e.baseline.bram18k))),
        ("speedup", speedup.map(Json::Float).unwrap_or(Json::Null)),
    ]);
    let dse = match &f.solve {
        Some(s) => Json::object([
            ("solver", Json::str("highs")),
            ("status", Json::str(&s.status)),
            ("seconds", Json::Float(s.seconds)),
            ("objective", Json::str(&s.objective)),
            ("ilp_seconds", Json::Float(s.ilp_seconds)),
            ("candidates", Json::Int(s.candidates as i64)),
        ]),
        None => Json::object([("solver", Json::Null), ("status", Json::str("not run")), ("seconds", Json::Null), ("objective", Json::Null)]),
    };
    Json::object([
        ("top", Json::str(top)),
        ("board", board),
        ("total", total),
        ("baseline", baseline),
        ("nodes", Json::Array(nodes)),
        ("channels", Json::Array(channels)),
        ("dse", dse),
        ("simulation", simulation_json(f.simulation.as_ref())),
    ])
}

fn or_dash<T: ToString>(v: Option<T>) -> String {
    v.map(|v| v.to_string()).unwrap_or_else(|| "-".into())
}

/// The same as tables; "-" where report.json has null.
pub fn markdown(top: &str, target: &Target, g: &Graph, f: &Figures) -> String {
    let b = &target.board;
    let mut out = String::new();
    let _ = writeln!(out, "# {top}\n");
    let _ = writeln!(
        out,
        "Board **{}** ({}), limits {} DSP, {} BRAM18K and {} URAM, clock {} MHz.\n",
        b.name, b.part, target.dsp, target.bram18k, target.uram, target.clock_mhz
    );
    match &f.solve {
        Some(s) => {
            let _ = writeln!(
                out,
                "Design-space exploration: HiGHS, {} ({} objective, {} candidates, {:.3} s, ILP {:.3} s).\n",
                s.status, s.objective, s.candidates, s.seconds, s.ilp_seconds
            );
        }
        None if f.estimate.is_some() => out.push_str("Design-space exploration: not run; estimates of the directives in the input.\n\n"),
        None => out.push_str("Design-space exploration: not run. Cycle, DSP and BRAM estimates are not available.\n\n"),
    }
    if let Some(e) = &f.estimate {
        out.push_str("| design | cycles | DSP | BRAM18K | URAM |\n|---|---|---|---|---|\n");
        let _ = writeln!(out, "| ming (dataflow) | {} | {} | {} | {} |", e.dataflow, e.dsp, e.bram18k, e.uram);
        let _ = writeln!(out, "| Vanilla baseline | {} | {} | {} | 0 |", e.baseline.cycles, e.baseline.dsp, e.baseline.bram18k);
        if e.dataflow > 0 {
            let _ = writeln!(out, "\nSpeedup over the baseline: {:.1}x. FIFOs: {} BRAM18K.", e.baseline.cycles as f64 / e.dataflow as f64, e.fifo_bram18k);
        }
        out.push('\n');
    }
    out.push_str("## Nodes\n\n| name | kind | lanes in | lanes out | cycles | DSP | BRAM18K | URAM | II | unroll |\n|---|---|---|---|---|---|---|---|---|---|\n");
    for n in &g.nodes {
        let e = f.node(&n.name);
        let unroll = e
            .map(|e| e.unroll.iter().map(|(l, u)| format!("{l}={u}")).collect::<Vec<_>>().join(" "))
            .filter(|s| !s.is_empty());
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            n.name,
            or_dash(n.kind.as_deref()),
            or_dash(n.lanes_in),
            or_dash(n.lanes_out),
            or_dash(e.map(|e| e.cycles)),
            or_dash(e.map(|e| e.dsp)),
            or_dash(e.map(|e| e.bram18k)),
            or_dash(e.map(|e| e.uram)),
            or_dash(e.map(|e| e.ii).filter(|&ii| ii > 0)),
            or_dash(unroll),
        );
    }
    out.push_str("\n## Channels\n\n| name | from | to | elem | depth | lanes | peak |\n|---|---|---|---|---|---|---|\n");
    let name = |i: Option<usize>| or_dash(i.and_then(|i| g.nodes.get(i)).map(|n| n.name.as_str()));
    for c in &g.channels {
        let sim = f.simulation.as_ref().and_then(|s| s.channel(&c.name));
        // A minimised depth shows the DSE's next to it.
        let depth = match sim.and_then(|s| s.dse_depth) {
            Some(d) if Some(d) != c.depth => format!("{} (DSE {d})", or_dash(c.depth)),
            _ => or_dash(c.depth),
        };
        let _ = writeln!(out, "| {} | {} | {} | {} | {} | {} | {} |", c.name, name(c.from), name(c.to), c.elem, depth, c.lanes, or_dash(sim.map(|s| s.peak)));
    }
    if let Some(s) = &f.simulation {
        simulation_markdown(&mut out, s, f);
    }
    out
}

/// The simulation next to the model: cycles of the whole design and per process.
fn simulation_markdown(out: &mut String, s: &Summary, f: &Figures) {
    let model = f.estimate.as_ref().map(|e| e.dataflow);
    let _ = writeln!(out, "\n## Simulation\n");
    let _ = writeln!(
        out,
        "Cycle-level simulation ({:.3} s): **{}**, {} cycles simulated, {} by the model.",
        s.seconds,
        s.status(),
        s.cycles,
        or_dash(model)
    );
    if let Some(m) = &s.minimize {
        let _ = writeln!(
            out,
            "\nFIFO minimisation: {} cycles with the DSE's depths, {} with unbounded FIFOs, {} with the least depths within {}% \
             ({} simulations); FIFO storage {} -> {} bits, {} -> {} BRAM18K.",
            s.dse_depth_cycles,
            m.unbounded_cycles,
            s.cycles,
            crate::sim::minimize::SLACK_PERCENT,
            m.simulations,
            m.bits_before,
            m.bits_after,
            m.bram18k_before,
            m.bram18k_after
        );
        if m.unsearched > 0 {
            let _ = writeln!(
                out,
                "The minimisation stopped at the large graph's budget of simulations: {} channels keep their starting depths \
                 (the DSE's, or the unbounded run's peak where smaller).",
                m.unsearched
            );
        }
    }
    // The model's graph times (every process starts at 0) beside the
    // simulated ones: where the two part, one of them is wrong.
    out.push_str(
        "\n| process | model cycles | first output (model / simulated) | finish (model / simulated) | busy | input-starved | output-blocked |\n|---|---|---|---|---|---|---|\n",
    );
    for p in &s.processes {
        let node = f.node(&p.name);
        let _ = writeln!(
            out,
            "| {} | {} | {} / {} | {} / {} | {} | {} | {} |",
            p.name,
            or_dash(node.map(|n| n.cycles)),
            or_dash(node.map(|n| n.first_out_at)),
            or_dash(p.first_output),
            or_dash(node.map(|n| n.finish_at)),
            p.finish,
            p.busy,
            p.starved,
            p.blocked
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::ir::graph::{Channel, Node};
    use super::*;
    use crate::board::{by_name, Target};

    #[test]
    fn known_facts_only() {
        let g = Graph {
            name: "t".into(),
            nodes: vec![
                Node { name: "a".into(), kind: Some("load".into()), lanes_in: None, lanes_out: Some(2) },
                Node { name: "b".into(), kind: None, lanes_in: Some(2), lanes_out: None },
            ],
            channels: vec![Channel { name: "c0".into(), from: Some(0), to: Some(1), elem: "i8".into(), depth: Some(4), lanes: 2 }],
            ..Graph::default()
        };
        let target = Target::new(by_name("zedboard").expect("board"), Some(50), None, 100.0);
        let text = json("t", &target, &g, &Figures::default()).pretty();
        for want in [
            "\"top\": \"t\"",
            "\"name\": \"zedboard\"",
            "\"dsp\": 50",
            "\"bram18k\": 280",
            "\"clock_mhz\": 100.0",
            "\"board_dsp\": 220",
            "\"cycles\": null",
            "\"from\": \"a\"",
            "\"to\": \"b\"",
            "\"depth\": 4",
            "\"lanes_out\": 2",
            "\"status\": \"not run\"",
        ] {
            assert!(text.contains(want), "{want} in {text}");
        }
        let md = markdown("t", &target, &g, &Figures::default());
        assert!(md.contains("| a | load | - | 2 | - | - | - | - | - |"), "{md}");
        assert!(md.contains("| c0 | a | b | i8 | 4 | 2 | - |"), "{md}");
    }

    #[test]
    fn estimates_and_the_solve() {
        let g = Graph {
            name: "t".into(),
            nodes: vec![
                Node { name: "conv".into(), kind: Some("sliding_window".into()), lanes_in: Some(1), lanes_out: Some(1) },
                Node { name: "conv_1".into(), kind: None, lanes_in: Some(1), lanes_out: None },
            ],
            ..Graph::default()
        };
        let node = |name: &str, cycles| NodeEstimate {
            name: name.into(),
            cycles,
            first_output: 5,
            first_out_at: 5,
            finish_at: cycles,
            dsp: 27,
            bram18k: 1,
            uram: 0,
            ii: 1,
            unroll: vec![("L2".into(), 4)],
        };
        let f = Figures {
            estimate: Some(Estimate {
                dataflow: 1000,
                sum: 1900,
                dsp: 54,
                bram18k: 3,
                fifo_bram18k: 1,
                uram: 0,
                nodes: vec![node("conv", 990), node("conv_1", 910)],
                baseline: crate::dse::Baseline { cycles: 50000, dsp: 2, bram18k: 9 },
            }),
            simulation: None,
            solve: Some(Solve { status: "optimal".into(), objective: "dataflow".into(), seconds: 0.5, ilp_seconds: 0.25, candidates: 7, large: false }),
        };
        let target = Target::new(by_name("kv260").expect("board"), None, None, 200.0);
        let text = json("t", &target, &g, &f).pretty();
        for want in [
            "\"cycles\": 1000",
            "\"cycles\": 50000",
            "\"speedup\": 50.0",
            "\"cycles\": 910",
            "\"L2\": 4",
            "\"solver\": \"highs\"",
            "\"status\": \"optimal\"",
            "\"objective\": \"dataflow\"",
            "\"seconds\": 0.5",
        ] {
            assert!(text.contains(want), "{want} in {text}");
        }
        let md = markdown("t", &target, &g, &f);
        assert!(md.contains("| conv | sliding_window | 1 | 1 | 990 | 27 | 1 | 0 | 1 | L2=4 |"), "{md}");
        assert!(md.contains("| Vanilla baseline | 50000 | 2 | 9 | 0 |"), "{md}");
        assert!(md.contains("HiGHS, optimal"), "{md}");
    }
}
