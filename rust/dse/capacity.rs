//! A refusal that needs no enumeration: every weight of a design lives on
//! chip (a ROM of the layer that reads it), so a model whose weights hold
//! more bits than all of the chip's memories that can start with contents
//! (BRAM, every LUT as distributed RAM, every flip-flop; an UltraScale+
//! UltraRAM has no initial contents) has no design, whatever the DSE would
//! choose. The sum takes milliseconds; enumerating a 100-layer
//! network's candidates to reach the same answer took minutes.
//!
//! The bound is physical, not the cost model's: it never refuses a model
//! that has a design, and a model that passes it may still not fit (the DSE
//! then says by how much).
use crate::board::{Board, Target, BOARDS};
use crate::ir::{key, op_name, top_level_ops};
use melior::ir::{
    attribute::{FlatSymbolRefAttribute, StringAttribute, TypeAttribute},
    operation::{OperationLike, OperationRef, WalkOrder, WalkResult},
    Module,
};
use std::collections::{HashMap, HashSet};

/// Bits of one BRAM18K (with its parity bits) and of one LUT as a 64x1
/// distributed RAM.
const BRAM18K_BITS: u64 = 18 * 1024;
const LUTRAM_BITS: u64 = 64;

/// The constant tensors the processes read (ROM globals).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Weights {
    pub roms: usize,
    pub values: u64,
    pub bits: u64,
    /// Values of a floating-point type and their bits (what int8
    /// quantisation would shrink).
    pub float_values: u64,
    pub float_bits: u64,
}

impl Weights {
    /// Whether floats are most of their bits (an int8 model keeps a few
    /// float tables): what int8 quantisation would shrink.
    pub fn mostly_float(&self) -> bool {
        self.float_bits * 2 > self.bits
    }

    /// Their bits with every float value quantised to 8 bits.
    pub fn int8_bits(&self) -> u64 {
        self.bits - self.float_bits + self.float_values.saturating_mul(8)
    }
}

/// What each memory of a chip that a ROM can use stores at most, in bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Capacity {
    pub bram: u64,
    pub lutram: u64,
    pub registers: u64,
}

impl Capacity {
    /// `bram18k` BRAM18K and the board's LUTs and flip-flops.
    fn with(board: &Board, bram18k: u32) -> Capacity {
        Capacity {
            bram: u64::from(bram18k) * BRAM18K_BITS,
            lutram: u64::from(board.lut) * LUTRAM_BITS,
            registers: u64::from(board.ff),
        }
    }

    /// What the target allows: its BRAM18K (--bram or the board's).
    pub fn of(target: &Target) -> Capacity {
        Capacity::with(&target.board, target.bram18k)
    }

    pub fn of_board(board: &Board) -> Capacity {
        Capacity::with(board, board.bram18k)
    }

    pub fn total(&self) -> u64 {
        self.bram + self.lutram + self.registers
    }
}

/// Elements, bits per element and whether they are floats, of a static
/// `memref<AxBxT>` (or rank-0 `memref<T>`) from its text; a layout after
/// the element type is ignored.
fn memref_size(text: &str) -> Option<(u64, u64, bool)> {
    let body = text.strip_prefix("memref<")?.strip_suffix('>')?;
    let body = body.split(',').next()?.trim();
    let (values, elem) = match crate::ir::types::parse_shape(body) {
        Some((shape, elem)) => (shape.iter().try_fold(1u64, |a, &d| a.checked_mul(d))?, elem),
        None => (1, body),
    };
    let bits = crate::ir::types::element_bits(elem)?;
    Some((values, bits, elem.starts_with('f') || elem == "bf16"))
}

/// Every symbol whose `memref.get_global` inside `op` some op uses (a global
/// fetched and never read costs nothing: the cost model folds it away).
fn read_globals(op: &OperationRef, into: &mut HashSet<String>) {
    let mut fetched: HashMap<usize, String> = HashMap::new();
    op.walk(WalkOrder::PreOrder, |inner| {
        if op_name(&inner) == "memref.get_global" {
            let name = inner.attribute("name").ok().and_then(|a| FlatSymbolRefAttribute::try_from(a).ok());
            if let (Some(name), Ok(result)) = (name, inner.result(0)) {
                fetched.insert(key(result.into()), name.value().to_string());
            }
        }
        for i in 0..inner.operand_count() {
            if let Some(name) = inner.operand(i).ok().and_then(|v| fetched.get(&key(v))) {
                into.insert(name.clone());
            }
        }
        WalkResult::Advance
    });
}

/// The constant globals of `module` that some op reads, with their sizes.
pub fn weights(module: &Module) -> Weights {
    let ops = top_level_ops(module);
    let mut read = HashSet::new();
    for op in ops.iter().filter(|op| op_name(op) != "memref.global") {
        read_globals(op, &mut read);
    }
    let mut w = Weights::default();
    for op in ops.iter().filter(|op| op_name(op) == "memref.global" && op.attribute("constant").is_ok()) {
        let Some(name) = op.attribute("sym_name").ok().and_then(|a| StringAttribute::try_from(a).ok()) else { continue };
        if !read.contains(name.value()) {
            continue;
        }
        let Some(ty) = op.attribute("type").ok().and_then(|a| TypeAttribute::try_from(a).ok()) else { continue };
        let Some((values, bits, float)) = memref_size(&ty.value().to_string()) else { continue };
        w.roms += 1;
        w.values = w.values.saturating_add(values);
        w.bits = w.bits.saturating_add(values.saturating_mul(bits));
        if float {
            w.float_values = w.float_values.saturating_add(values);
            w.float_bits = w.float_bits.saturating_add(values.saturating_mul(bits));
        }
    }
    w
}

fn mbit(bits: u64) -> String {
    format!("{:.1} Mbit", bits as f64 / 1e6)
}

/// For a float model whose smallest design does not fit: what int8
/// quantisation would change (its weights' size, a DSP per multiply), or
/// nothing when the weights are mostly integers already.
pub fn int8_hint(w: &Weights) -> Option<String> {
    if !w.mostly_float() {
        return None;
    }
    let int8 = w.int8_bits();
    Some(format!(
        "its float weights take {}, quantised to int8 {}, and an int8 multiply takes one DSP where an f32 one \
         takes three: an int8 model (onnxruntime's quantize_static, or TFLite's full-integer conversion) needs less",
        mbit(w.bits),
        mbit(int8)
    ))
}

/// Ok when the weights fit the target's memories; else the reason, with
/// the boards and the quantisation that would hold them.
pub fn check(w: &Weights, target: &Target) -> Result<(), String> {
    let cap = Capacity::of(target);
    if w.bits <= cap.total() {
        return Ok(());
    }
    let b = &target.board;
    let mut m = format!(
        "the model's weights do not fit on the chip: {} ROMs hold {} values in {}, and {} holds at most {} of ROM with \
         every memory full ({} BRAM18K {}, {} LUTs as distributed RAM {}, {} flip-flops {}; UltraRAM has no initial \
         contents); no design exists",
        w.roms,
        w.values,
        mbit(w.bits),
        b.name,
        mbit(cap.total()),
        target.bram18k,
        mbit(cap.bram),
        b.lut,
        mbit(cap.lutram),
        b.ff,
        mbit(cap.registers)
    );
    // Boards whose ROM would hold `bits`: the target's own only when --bram
    // held it below its memories.
    let holding = |bits: u64| -> Vec<&str> {
        BOARDS
            .iter()
            .filter(|o| (o.name != b.name || Capacity::of_board(o) != cap) && bits <= Capacity::of_board(o).total())
            .map(|o| o.name)
            .collect()
    };
    let fits = holding(w.bits);
    if !fits.is_empty() {
        m.push_str(&format!("; the weights could fit --board {}", fits.join(", --board ")));
    }
    if w.mostly_float() {
        let int8 = w.int8_bits();
        let tail = if int8 <= cap.total() {
            format!("within {}'s", b.name)
        } else {
            match holding(int8) {
                v if v.is_empty() => "more than any board holds".to_string(),
                v => format!("which --board {} could hold", v.join(", --board ")),
            }
        };
        m.push_str(&format!("; quantised to int8 they would take {} ({tail})", mbit(int8)));
    }
    Err(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::by_name;

    fn target(name: &str) -> Target {
        let b = by_name(name).expect("preset");
        Target::new(b, None, None, 200.0)
    }

    #[test]
    fn kv260_holds_13_mbit_of_rom_at_most() {
        let cap = Capacity::of(&target("kv260"));
        // 288 x 18 Kib + 117,120 x 64 + 234,240; its UltraRAMs hold no ROM.
        assert_eq!(cap.total(), 5_308_416 + 7_495_680 + 234_240);
    }

    #[test]
    fn int8_hint_only_for_float_weights() {
        let float = Weights { roms: 2, values: 1000, bits: 32_000, float_values: 1000, float_bits: 32_000 };
        let m = int8_hint(&float).expect("a float model gets the hint");
        assert!(m.starts_with("its float weights take 0.0 Mbit, quantised to int8 0.0 Mbit"), "{m}");
        let big = Weights { roms: 1, values: 1_000_000, bits: 32_000_000, float_values: 1_000_000, float_bits: 32_000_000 };
        assert!(int8_hint(&big).expect("hint").starts_with("its float weights take 32.0 Mbit, quantised to int8 8.0 Mbit"));
        // int8 weights and a float table: mostly integers.
        let int8 = Weights { roms: 2, values: 1000, bits: 8_000 + 64 * 32, float_values: 64, float_bits: 64 * 32 };
        assert_eq!(int8_hint(&int8), None);
    }

    #[test]
    fn weights_that_fit_pass() {
        let w = Weights { roms: 3, values: 1_000_000, bits: 8_000_000, ..Default::default() };
        assert_eq!(check(&w, &target("kv260")), Ok(()));
    }

    #[test]
    fn too_many_float_weights_name_the_boards_and_int8() {
        // ResNet-18's 11.7 M float weights: 374 Mbit, more than any board's
        // ROM; as int8 93.5 Mbit, which only the U55C holds.
        let w = Weights { roms: 21, values: 11_689_512, bits: 11_689_512 * 32, float_values: 11_689_512, float_bits: 11_689_512 * 32 };
        let m = check(&w, &target("kv260")).unwrap_err();
        assert!(m.starts_with("the model's weights do not fit on the chip: 21 ROMs hold 11689512 values in 374.1 Mbit, and kv260 holds at most 13.0 Mbit of ROM"), "{m}");
        assert!(!m.contains("could fit"), "{m}");
        assert!(m.ends_with("quantised to int8 they would take 93.5 Mbit (which --board u55c could hold)"), "{m}");
    }

    #[test]
    fn a_smaller_bram_budget_holds_less() {
        // 1.5 MB of int8 weights fit the KV260's memories, but not with only
        // 10 BRAM18K.
        let w = Weights { roms: 1, values: 1_500_000, bits: 12_000_000, ..Default::default() };
        assert_eq!(check(&w, &target("kv260")), Ok(()));
        let mut small = target("kv260");
        small.bram18k = 10;
        let m = check(&w, &small).unwrap_err();
        assert!(m.contains("(10 BRAM18K 0.2 Mbit, 117120 LUTs"), "{m}");
        assert!(m.contains("could fit --board kv260, --board zcu104, --board u55c"), "{m}");
        assert!(!m.contains("int8"), "{m}");
    }

    #[test]
    fn memref_sizes() {
        assert_eq!(memref_size("memref<32x16x3x3xi8>"), Some((4608, 8, false)));
        assert_eq!(memref_size("memref<10xf32>"), Some((10, 32, true)));
        assert_eq!(memref_size("memref<i32>"), Some((1, 32, false)));
        assert_eq!(memref_size("memref<?x4xi8>"), None);
        assert_eq!(memref_size("memref<4xbf16>"), Some((4, 16, true)));
        assert_eq!(memref_size("memref<2xindex>"), Some((2, 64, false)));
        assert_eq!(memref_size("memref<3xvector<4xi8>>"), None);
    }
}
