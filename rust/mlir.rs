//! MLIR contexts for the Rust side (melior), sharing the process's one
//! libMLIR.so with libMingPasses.so.
use crate::bridge::ffi;
use melior::Context;

/// A context in which every upstream dialect and dfg/emitHLS are available.
pub fn context() -> Context {
    let context = Context::new();
    // The C++ side appends its registry to this very MLIRContext.
    ffi::register_in_context(context.to_raw().ptr as usize);
    context.load_all_available_dialects();
    context
}

#[cfg(test)]
mod tests {
    use super::*;
    use melior::ir::{operation::OperationLike, Module};

    /// melior (C API in libMLIR-C.so) and our dialects (libMingPasses.so) see
    /// the same MLIR: a dfg module parses, verifies and prints back.
    #[test]
    fn dfg_parses_through_melior() {
        let context = context();
        let source = r#"
            dfg.process @src(%o: !dfg.out<i8, lanes = 2>) {
              %c0 = arith.constant 0 : index
              %v = arith.constant 7 : i8
              dfg.push %v, %o[%c0] : !dfg.out<i8, lanes = 2>
            }
            dfg.process @dst(%i: !dfg.in<i8, lanes = 2>, %m: memref<2xi8>) {
              %c1 = arith.constant 1 : index
              %v = dfg.pull %i[%c1] : !dfg.in<i8, lanes = 2>
              memref.store %v, %m[%c1] : memref<2xi8>
            }
            dfg.graph @top(%m: memref<2xi8>) {
              %w, %r = dfg.channel<i8, lanes = 2, depth = 4>
              dfg.instantiate @src(%w) : !dfg.out<i8, lanes = 2>
              dfg.instantiate @dst(%r, %m) : !dfg.in<i8, lanes = 2>, memref<2xi8>
            }"#;
        let module = Module::parse(&context, source).expect("dfg module parses");
        assert!(module.as_operation().verify());
        let text = module.as_operation().to_string();
        assert!(text.contains("dfg.channel<i8, lanes = 2, depth = 4>"), "{text}");
    }

    /// A verifier error in our dialect reaches the melior side as a failure.
    #[test]
    fn dfg_verifier_runs_through_melior() {
        let context = context();
        let source = r#"
            dfg.process @src(%o: !dfg.out<i8>) {}
            dfg.graph @top() {
              %w, %r = dfg.channel<i8, lanes = 1, depth = 2>
              dfg.instantiate @src(%w) : !dfg.out<i8>
            }"#;
        assert!(Module::parse(&context, source).is_none(), "a channel without consumer must not verify");
    }
}
