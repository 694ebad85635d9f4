//! The dataflow graph as graph.dot and report.json show it: process
//! instances, the memories of the top's arguments and the channels between
//! them. Read from the dfg.graph when the flow went through dfg (it knows
//! kinds and lanes), else recovered from the emitHLS top function (streams
//! and calls) for hand-written emitHLS input.
use super::types::enum_word;
use super::{callee, int_attr, key, names, op_name, str_attr, top_level_ops};
use melior::ir::{
    attribute::StringAttribute,
    block::BlockLike,
    operation::{OperationLike, WalkOrder, WalkResult},
    Module, OperationRef, RegionLike, ValueLike,
};
use std::collections::HashMap;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// The process (callee) name; `_<k>` added when it is instantiated again.
    pub name: String,
    /// `sliding_window`, `load`, ...; None when the input does not say.
    pub kind: Option<String>,
    pub lanes_in: Option<u64>,
    pub lanes_out: Option<u64>,
}

/// A top argument in external memory: `in<i>` / `out<j>` as the data files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Memory {
    pub name: String,
    /// The MLIR type as printed (`memref<2x8xi8>`, `!emitHLS.array<2x8xi8>`).
    pub ty: String,
    /// Input (read by the design) or output; None when unknown.
    pub input: Option<bool>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Channel {
    pub name: String,
    /// Node indices of producer and consumer (None: not connected to a process).
    pub from: Option<usize>,
    pub to: Option<usize>,
    pub elem: String,
    pub depth: Option<u64>,
    pub lanes: u64,
}

/// A node's access to a memory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemoryPort {
    pub memory: usize,
    pub node: usize,
}

/// What an operand of a `dfg.instantiate` is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operand {
    Channel(usize),
    Memory(usize),
    Other,
}

/// A node's `dfg.instantiate`: the process and its operands in order (the
/// process's arguments), for the simulator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    pub process: String,
    pub operands: Vec<Operand>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Graph {
    pub name: String,
    pub nodes: Vec<Node>,
    pub memories: Vec<Memory>,
    pub channels: Vec<Channel>,
    pub ports: Vec<MemoryPort>,
    /// Per node, when read from a dfg.graph (else empty).
    pub bindings: Vec<Binding>,
    /// Per channel, its position among the dfg.graph's channel ops (to write
    /// depths back); empty when not read from a dfg.graph.
    pub channel_ops: Vec<usize>,
}

fn symbol(op: &OperationRef) -> Option<String> {
    str_attr(op, "sym_name")
}

/// `in<i>` for the first `num_inputs` arguments, `out<j>` after them;
/// `mem<i>` when the input does not say how many are inputs.
pub fn memory_name(index: usize, num_inputs: Option<usize>) -> (String, Option<bool>) {
    match num_inputs {
        Some(n) if index < n => (format!("in{index}"), Some(true)),
        Some(n) => (format!("out{}", index - n), Some(false)),
        None => (format!("mem{index}"), None),
    }
}

/// The lanes of a `!dfg.in<T, lanes = N>` / `!dfg.out<...>` port type (1 when not printed).
pub fn port_lanes(type_text: &str) -> u64 {
    type_text
        .split_once("lanes = ")
        .and_then(|(_, rest)| rest.trim_end_matches('>').trim().parse().ok())
        .unwrap_or(1)
}

/// Unique node names: a process instantiated again becomes `name_1`, `name_2`, ...
fn unique_name(seen: &mut HashMap<String, usize>, base: &str) -> String {
    let count = seen.entry(base.to_string()).or_insert(0);
    *count += 1;
    if *count == 1 {
        base.to_string()
    } else {
        format!("{base}_{}", *count - 1)
    }
}

/// The top-level ops named `name`, by symbol.
fn symbols_of<'a, 'c>(ops: &'a [OperationRef<'c, 'a>], name: &str) -> HashMap<String, &'a OperationRef<'c, 'a>> {
    ops.iter().filter(|op| op_name(op) == name).filter_map(|op| symbol(op).map(|s| (s, op))).collect()
}

/// The graph's memory arguments (inputs, then outputs) into `g.memories`;
/// returns the memory index of each argument value.
fn read_memories(body: &melior::ir::BlockRef, num_inputs: Option<usize>, g: &mut Graph) -> Result<HashMap<usize, usize>, String> {
    let mut memory_of = HashMap::new();
    for i in 0..body.argument_count() {
        let a = body.argument(i).map_err(|e| e.to_string())?;
        let (name, input) = memory_name(i, num_inputs);
        memory_of.insert(key(a.into()), i);
        g.memories.push(Memory { name, ty: a.r#type().to_string(), input });
    }
    Ok(memory_of)
}

/// The graph of the module's dfg.graph (the one marked `ming.top` when there are several).
pub fn from_dfg(module: &Module) -> Result<Graph, String> {
    let ops = top_level_ops(module);
    let graphs: Vec<&OperationRef> = ops.iter().filter(|op| op_name(op) == "dfg.graph").collect();
    let graph_op = match graphs.as_slice() {
        [] => return Err("the module holds no dfg.graph".into()),
        [one] => *one,
        many => *many
            .iter()
            .find(|g| g.has_attribute(names::TOP))
            .ok_or("the module holds several dfg.graph ops and none is marked ming.top")?,
    };
    let processes = symbols_of(&ops, "dfg.process");
    let mut g = Graph { name: symbol(graph_op).unwrap_or_default(), ..Graph::default() };
    let body = graph_op.region(0).ok().and_then(|r| r.first_block()).ok_or("the dfg.graph has no body")?;
    let num_inputs = int_attr(graph_op, names::NUM_INPUTS).and_then(|n| usize::try_from(n).ok());
    let memory_of = read_memories(&body, num_inputs, &mut g)?;
    // Channel ends first: the graph is a graph region, uses may come before definitions.
    let mut write_end = HashMap::new();
    let mut read_end = HashMap::new();
    let mut next = body.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if op_name(&op) != "dfg.channel" {
            continue;
        }
        let index = g.channels.len();
        // Unnamed channels are named once their ends are known (below).
        let name = str_attr(&op, names::NAME).unwrap_or_default();
        let elem = op.attribute("elementType").map(|a| a.to_string()).unwrap_or_default();
        let depth = int_attr(&op, "depth").and_then(|d| u64::try_from(d).ok());
        let lanes = int_attr(&op, "lanes").and_then(|d| u64::try_from(d).ok()).unwrap_or(1);
        let (w, r) = (op.result(0).map_err(|e| e.to_string())?, op.result(1).map_err(|e| e.to_string())?);
        write_end.insert(key(w.into()), index);
        read_end.insert(key(r.into()), index);
        g.channel_ops.push(index);
        g.channels.push(Channel { name, from: None, to: None, elem, depth, lanes });
    }
    let mut seen = HashMap::new();
    let mut callees = Vec::new();
    // Channels in the order their producers write them.
    let mut produced = Vec::new();
    let mut next = body.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if op_name(&op) != "dfg.instantiate" {
            continue;
        }
        let process = callee(&op);
        let node = g.nodes.len();
        let (mut lanes_in, mut lanes_out) = (None, None);
        let mut operands = Vec::new();
        for v in op.operands() {
            let k = key(v);
            let t = v.r#type().to_string();
            if let Some(&c) = write_end.get(&k) {
                g.channels[c].from = Some(node);
                produced.push(c);
                lanes_out = lanes_out.max(Some(port_lanes(&t)));
                operands.push(Operand::Channel(c));
            } else if let Some(&c) = read_end.get(&k) {
                g.channels[c].to = Some(node);
                lanes_in = lanes_in.max(Some(port_lanes(&t)));
                operands.push(Operand::Channel(c));
            } else if let Some(&m) = memory_of.get(&k) {
                g.ports.push(MemoryPort { memory: m, node });
                operands.push(Operand::Memory(m));
            } else {
                operands.push(Operand::Other);
            }
        }
        g.bindings.push(Binding { process: process.clone(), operands });
        let kind = processes
            .get(&process)
            .and_then(|p| p.attribute("kind").ok())
            .and_then(|a| enum_word(&a.to_string()).map(str::to_string));
        g.nodes.push(Node { name: unique_name(&mut seen, &process), kind, lanes_in, lanes_out });
        callees.push(process);
    }
    name_channels(&mut g, &callees, &produced);
    // A graph region has no order; the report reads best from producer to consumer.
    g.sort_topologically();
    Ok(g)
}

impl Graph {
    /// Reorders the nodes so producers come before their consumers (Kahn's
    /// algorithm, ties and cycles in the original order), remaps indices and
    /// orders channels by producer.
    pub fn sort_topologically(&mut self) {
        let n = self.nodes.len();
        let mut indegree = vec![0usize; n];
        for c in &self.channels {
            if let (Some(_), Some(to)) = (c.from, c.to) {
                indegree[to] += 1;
            }
        }
        let mut order = Vec::with_capacity(n);
        let mut placed = vec![false; n];
        while order.len() < n {
            // The first ready node, or on a cycle the first one left.
            let next = (0..n).find(|&i| !placed[i] && indegree[i] == 0).or_else(|| (0..n).find(|&i| !placed[i]));
            let Some(i) = next else { break };
            placed[i] = true;
            order.push(i);
            for c in &self.channels {
                if let (Some(from), Some(to)) = (c.from, c.to) {
                    if from == i && indegree[to] > 0 {
                        indegree[to] -= 1;
                    }
                }
            }
        }
        let mut new_index = vec![0; n];
        for (new, &old) in order.iter().enumerate() {
            new_index[old] = new;
        }
        let mut nodes: Vec<Option<Node>> = std::mem::take(&mut self.nodes).into_iter().map(Some).collect();
        self.nodes = order.iter().filter_map(|&old| nodes[old].take()).collect();
        if self.bindings.len() == n {
            let mut bindings: Vec<Option<Binding>> = std::mem::take(&mut self.bindings).into_iter().map(Some).collect();
            self.bindings = order.iter().filter_map(|&old| bindings[old].take()).collect();
        }
        for c in &mut self.channels {
            c.from = c.from.map(|i| new_index[i]);
            c.to = c.to.map(|i| new_index[i]);
        }
        for p in &mut self.ports {
            p.node = new_index[p.node];
        }
        self.ports.sort_by_key(|p| (p.node, p.memory));
        // Channels by producer, then consumer (a missing end last); the
        // parallel vectors follow.
        let mut by_end: Vec<usize> = (0..self.channels.len()).collect();
        by_end.sort_by_key(|&i| (self.channels[i].from.unwrap_or(n), self.channels[i].to.unwrap_or(n)));
        let mut new_channel = vec![0; by_end.len()];
        for (new, &old) in by_end.iter().enumerate() {
            new_channel[old] = new;
        }
        self.channels = by_end.iter().map(|&old| self.channels[old].clone()).collect();
        if self.channel_ops.len() == by_end.len() {
            self.channel_ops = by_end.iter().map(|&old| self.channel_ops[old]).collect();
        }
        for b in &mut self.bindings {
            for o in &mut b.operands {
                if let Operand::Channel(c) = o {
                    *c = new_channel[*c];
                }
            }
        }
    }
}

/// Names the channels without `ming.name` as convert-dfg-to-emithls names
/// their streams, so report, graph and the C simulation's deadlock messages
/// agree: `<producer>_to_<consumer>` by process name, `_1`, `_2`, ... for
/// repeats, taken in producer order; `c<k>` for a channel without both ends.
fn name_channels(g: &mut Graph, callees: &[String], produced: &[usize]) {
    let mut taken: std::collections::HashSet<String> = g.channels.iter().map(|c| c.name.clone()).filter(|n| !n.is_empty()).collect();
    for &c in produced {
        let channel = &g.channels[c];
        let (Some(from), Some(to)) = (channel.from, channel.to) else { continue };
        if !channel.name.is_empty() {
            continue;
        }
        let base = format!("{}_to_{}", callees[from], callees[to]);
        let mut name = base.clone();
        let mut n = 1;
        while !taken.insert(name.clone()) {
            name = format!("{base}_{n}");
            n += 1;
        }
        g.channels[c].name = name;
    }
    for (k, c) in g.channels.iter_mut().enumerate() {
        if c.name.is_empty() {
            c.name = format!("c{k}");
        }
    }
}

/// How a function uses a stream argument, found in its body.
#[derive(Default, Clone, Copy)]
struct StreamUse {
    reads: bool,
    writes: bool,
}

/// For each argument of `func`: whether stream_read / stream_write take it.
fn stream_uses(func: &OperationRef) -> Vec<StreamUse> {
    let Some(body) = func.region(0).ok().and_then(|r| r.first_block()) else { return Vec::new() };
    let args: Vec<usize> = (0..body.argument_count()).filter_map(|i| body.argument(i).ok()).map(|a| key(a.into())).collect();
    let mut uses = vec![StreamUse::default(); args.len()];
    func.walk(WalkOrder::PreOrder, |op| {
        let name = op_name(&op);
        let reads = name == "emitHLS.stream_read";
        if reads || name == "emitHLS.stream_write" {
            if let Ok(s) = op.operand(0) {
                if let Some(i) = args.iter().position(|&a| a == key(s)) {
                    if reads {
                        uses[i].reads = true;
                    } else {
                        uses[i].writes = true;
                    }
                }
            }
        }
        WalkResult::Advance
    });
    uses
}

/// The graph of an emitHLS top function: each call a node (kind from the
/// callee's `ming.kind`, when present), each local stream a one-lane channel
/// (named by its `ming.name`, else `s<k>`) whose ends are the callees that
/// write and read it.
pub fn from_emithls(module: &Module, top: &OperationRef, num_inputs: usize) -> Result<Graph, String> {
    let ops = top_level_ops(module);
    let funcs = symbols_of(&ops, "emitHLS.func");
    let mut g = Graph { name: symbol(top).unwrap_or_default(), ..Graph::default() };
    let body = top.region(0).ok().and_then(|r| r.first_block()).ok_or("the top function has no body")?;
    let memory_of = read_memories(&body, Some(num_inputs), &mut g)?;
    let mut stream_of = HashMap::new();
    let mut seen = HashMap::new();
    let mut next = body.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        match op_name(&op).as_str() {
            "emitHLS.stream" => {
                let index = g.channels.len();
                let name = str_attr(&op, names::NAME).unwrap_or_else(|| format!("s{index}"));
                let r = op.result(0).map_err(|e| e.to_string())?;
                let t = r.r#type().to_string();
                let elem = t.trim_start_matches("!emitHLS.stream<").trim_end_matches('>').to_string();
                stream_of.insert(key(r.into()), index);
                g.channels.push(Channel { name, from: None, to: None, elem, depth: None, lanes: 1 });
            }
            "emitHLS.pragma.stream" => {
                let s = op.operand(0).map_err(|e| e.to_string())?;
                if let Some(&c) = stream_of.get(&key(s)) {
                    g.channels[c].depth = int_attr(&op, "depth").and_then(|d| u64::try_from(d).ok());
                }
            }
            "emitHLS.call" => {
                let name = callee(&op);
                let func = funcs.get(&name);
                let uses = func.map(|f| stream_uses(f)).unwrap_or_default();
                let kind = func.and_then(|f| f.attribute(names::KIND).ok()).map(|a| match StringAttribute::try_from(a) {
                    Ok(s) => s.value().to_string(),
                    Err(_) => enum_word(&a.to_string()).map(str::to_string).unwrap_or_else(|| a.to_string()),
                });
                let node = g.nodes.len();
                for (i, v) in op.operands().enumerate() {
                    let k = key(v);
                    if let Some(&c) = stream_of.get(&k) {
                        let u = uses.get(i).copied().unwrap_or_default();
                        if u.writes {
                            g.channels[c].from = Some(node);
                        }
                        if u.reads {
                            g.channels[c].to = Some(node);
                        }
                    } else if let Some(&m) = memory_of.get(&k) {
                        g.ports.push(MemoryPort { memory: m, node });
                    }
                }
                g.nodes.push(Node { name: unique_name(&mut seen, &name), kind, lanes_in: None, lanes_out: None });
            }
            _ => {}
        }
    }
    Ok(g)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_lanes() {
        assert_eq!(memory_name(0, Some(1)), ("in0".to_string(), Some(true)));
        assert_eq!(memory_name(2, Some(1)), ("out1".to_string(), Some(false)));
        assert_eq!(memory_name(3, None), ("mem3".to_string(), None));
        assert_eq!(port_lanes("!dfg.in<i8, lanes = 4>"), 4);
        assert_eq!(port_lanes("!dfg.out<f32>"), 1);
        let mut seen = HashMap::new();
        let names: Vec<String> = ["relu", "conv", "relu", "relu"].iter().map(|n| unique_name(&mut seen, n)).collect();
        assert_eq!(names, ["relu", "conv", "relu_1", "relu_2"]);
    }

    #[test]
    fn channel_names_follow_the_emithls_streams() {
        let node = |n: &str| Node { name: n.into(), kind: None, lanes_in: None, lanes_out: None };
        let chan = |name: &str, from, to| Channel { name: name.into(), from, to, elem: "f32".into(), depth: None, lanes: 1 };
        let mut g = Graph {
            nodes: vec![node("fork"), node("add")],
            channels: vec![chan("", Some(0), Some(1)), chan("", Some(0), Some(1)), chan("fork_to_add_1", Some(1), Some(0)), chan("", Some(1), None)],
            ..Graph::default()
        };
        name_channels(&mut g, &["fork".into(), "add".into()], &[1, 0, 2, 3]);
        let names: Vec<&str> = g.channels.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["fork_to_add_2", "fork_to_add", "fork_to_add_1", "c3"]);
    }

    #[test]
    fn dfg_graph_is_read() {
        let context = crate::mlir::context();
        let source = r#"
            dfg.process @load(%m: memref<4xi8>, %o: !dfg.out<i8, lanes = 2>) attributes {kind = #dfg.kind<load>} {}
            dfg.process @relu(%i: !dfg.in<i8, lanes = 2>, %o: !dfg.out<i8>) attributes {kind = #dfg.kind<pure_parallel>} {}
            dfg.process @store(%i: !dfg.in<i8>, %m: memref<4xi8>) {}
            dfg.graph @top(%x: memref<4xi8>, %y: memref<4xi8>) attributes {ming.num_inputs = 1 : i64} {
              dfg.instantiate @store(%r1, %y) : !dfg.in<i8>, memref<4xi8>
              %w0, %r0 = dfg.channel<i8, lanes = 2, depth = 3>
              %w1, %r1 = dfg.channel<i8, lanes = 1, depth = 5> {ming.name = "act"}
              dfg.instantiate @load(%x, %w0) : memref<4xi8>, !dfg.out<i8, lanes = 2>
              dfg.instantiate @relu(%r0, %w1) : !dfg.in<i8, lanes = 2>, !dfg.out<i8>
            }"#;
        let module = Module::parse(&context, source).expect("parses");
        let g = from_dfg(&module).expect("graph");
        assert_eq!(g.name, "top");
        // Producer -> consumer order, whatever the order in the graph region.
        let names: Vec<&str> = g.nodes.iter().map(|n| n.name.as_str()).collect();
        assert_eq!(names, ["load", "relu", "store"]);
        assert_eq!(g.nodes[2].kind, None);
        assert_eq!(g.nodes[0].kind.as_deref(), Some("load"));
        assert_eq!((g.nodes[1].lanes_in, g.nodes[1].lanes_out), (Some(2), Some(1)));
        assert_eq!(g.channels[0], Channel { name: "load_to_relu".into(), from: Some(0), to: Some(1), elem: "i8".into(), depth: Some(3), lanes: 2 });
        assert_eq!((g.channels[1].name.as_str(), g.channels[1].from, g.channels[1].to), ("act", Some(1), Some(2)));
        assert_eq!(g.memories[1], Memory { name: "out0".into(), ty: "memref<4xi8>".into(), input: Some(false) });
        assert_eq!(g.ports, vec![MemoryPort { memory: 0, node: 0 }, MemoryPort { memory: 1, node: 2 }]);
        // The instantiations follow the sorted nodes and channels.
        assert_eq!(g.bindings[0], Binding { process: "load".into(), operands: vec![Operand::Memory(0), Operand::Channel(0)] });
        assert_eq!(g.bindings[2], Binding { process: "store".into(), operands: vec![Operand::Channel(1), Operand::Memory(1)] });
        assert_eq!(g.channel_ops, vec![0, 1]);
    }
}
