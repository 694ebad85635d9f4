//! report.json and report.md (schema: ARCHITECTURE.md, "report.json").
//! Until the DSE exists only what is known is filled in: the top, the board
//! and its limits, the nodes and channels of the graph. Every estimate is
//! null and `dse.status` is "not run"; no number is made up.
use super::graph::Graph;
use super::json::Json;
use crate::board::Target;
use std::fmt::Write as _;

fn node_name(g: &Graph, index: Option<usize>) -> Json {
    Json::opt_str(index.and_then(|i| g.nodes.get(i)).map(|n| n.name.as_str()))
}

pub fn json(top: &str, target: &Target, g: &Graph) -> Json {
    let b = &target.board;
    let board = Json::object([
        ("name", Json::str(b.name)),
        ("part", Json::str(b.part)),
        ("dsp", Json::Int(target.dsp.into())),
        ("bram18k", Json::Int(target.bram18k.into())),
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
            Json::object([
                ("name", Json::str(&n.name)),
                ("kind", Json::opt_str(n.kind.as_deref())),
                ("cycles", Json::Null),
                ("dsp", Json::Null),
                ("bram18k", Json::Null),
                ("ii", Json::Null),
                ("unroll", Json::Null),
                ("lanes_in", Json::opt_int(n.lanes_in)),
                ("lanes_out", Json::opt_int(n.lanes_out)),
            ])
        })
        .collect();
    let channels = g
        .channels
        .iter()
        .map(|c| {
            Json::object([
                ("name", Json::str(&c.name)),
                ("from", node_name(g, c.from)),
                ("to", node_name(g, c.to)),
                ("depth", Json::opt_int(c.depth)),
                ("lanes", Json::opt_int(Some(c.lanes))),
                ("elem", Json::str(&c.elem)),
                ("peak", Json::Null),
            ])
        })
        .collect();
    Json::object([
        ("top", Json::str(top)),
        ("board", board),
        ("total", Json::object([("cycles", Json::Null), ("dsp", Json::Null), ("bram18k", Json::Null), ("simulated_cycles", Json::Null)])),
        ("baseline", Json::object([("cycles", Json::Null), ("dsp", Json::Null), ("bram18k", Json::Null)])),
        ("nodes", Json::Array(nodes)),
        ("channels", Json::Array(channels)),
        ("dse", Json::object([("solver", Json::Null), ("status", Json::str("not run")), ("seconds", Json::Null), ("objective", Json::Null)])),
    ])
}

fn or_dash<T: ToString>(v: Option<T>) -> String {
    v.map(|v| v.to_string()).unwrap_or_else(|| "-".into())
}

/// The same as tables; "-" where report.json has null.
pub fn markdown(top: &str, target: &Target, g: &Graph) -> String {
    let b = &target.board;
    let mut out = String::new();
    let _ = writeln!(out, "# {top}\n");
    let _ = writeln!(
        out,
        "Board **{}** ({}), limits {} DSP and {} BRAM18K, clock {} MHz.\n",
        b.name, b.part, target.dsp, target.bram18k, target.clock_mhz
    );
    out.push_str("Design-space exploration: not run. Cycle, DSP and BRAM estimates are not available yet.\n\n");
    out.push_str("## Nodes\n\n| name | kind | lanes in | lanes out | cycles | DSP | BRAM18K | II |\n|---|---|---|---|---|---|---|---|\n");
    for n in &g.nodes {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | - | - | - | - |",
            n.name,
            or_dash(n.kind.as_deref()),
            or_dash(n.lanes_in),
            or_dash(n.lanes_out)
        );
    }
    out.push_str("\n## Channels\n\n| name | from | to | elem | depth | lanes | peak |\n|---|---|---|---|---|---|---|\n");
    let name = |i: Option<usize>| or_dash(i.and_then(|i| g.nodes.get(i)).map(|n| n.name.as_str()));
    for c in &g.channels {
        let _ = writeln!(out, "| {} | {} | {} | {} | {} | {} | - |", c.name, name(c.from), name(c.to), c.elem, or_dash(c.depth), c.lanes);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::graph::{Channel, Node};
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
        let text = json("t", &target, &g).pretty();
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
        let md = markdown("t", &target, &g);
        assert!(md.contains("| a | load | - | 2 | - | - | - | - |"), "{md}");
        assert!(md.contains("| c0 | a | b | i8 | 4 | 2 | - |"), "{md}");
    }
}
