// ming: the directive vocabulary. Every decision one stage hands to a later
// one (loop directives, buffer partitioning, the DSE's estimates, the roles
// and names the project writer needs) is an attribute `ming.<name>` on the op
// it concerns. Its value is declared here and checked by the dialect's
// verifier (cpp/Directives), so that the stages reading it need no checks of
// their own and a misspelt or ill-typed directive fails at the op it is on.
#ifndef MING_DIRECTIVES_TD
#define MING_DIRECTIVES_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Ming_Dialect : Dialect {
  let name = "ming";
  let summary = "directives and estimates the stages of ming pass to each other";
  let description = [{
    No ops: only attribute values and the rules for the discardable
    attributes named `ming.*`. The list of names and where each may stand is
    in `ming/Directives/Directives.h`.
  }];
  let cppNamespace = "::ming::directives";
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
}

class Ming_Attr<string name, string attrMnemonic> : AttrDef<Ming_Dialect, name> {
  let mnemonic = attrMnemonic;
  let assemblyFormat = "`<` struct(params) `>`";
}

// A list of integers printed in brackets, so that struct(params) can tell
// where it ends.
class Ming_Integers<string desc> : OptionalArrayRefParameter<"int64_t", desc> {
  let printer = [{
    $_printer << '[';
    ::llvm::interleaveComma($_self, $_printer);
    $_printer << ']';
  }];
  let parser = [{ parseIntegerList($_parser) }];
}

def Ming_LoopAttr : Ming_Attr<"Loop", "loop"> {
  let summary = "the HLS directives of an scf.for in a dfg.process";
  let description = [{
    `#ming.loop<ii = 1, unroll = 4, label = "row">`: pipeline the loop at
    initiation interval `ii` (0, the default: not pipelined), unroll it by
    `unroll` (1, the default: not unrolled; 0: fully) and name it `label` in
    the C++ (a C identifier). convert-linalg-to-dfg writes the first
    directives, the DSE rewrites them, convert-dfg-to-emithls prints them as
    pragmas.
  }];
  let parameters = (ins
    DefaultValuedParameter<"int64_t", "0", "pipeline II (0: not pipelined)">:$ii,
    DefaultValuedParameter<"int64_t", "1", "unroll factor (0: fully)">:$unroll,
    OptionalParameter<"::mlir::StringAttr", "label of the C++ loop">:$label);
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    bool isPipelined() const { return getIi() > 0; }
    /// The same directives with the pipeline II and unroll factor replaced.
    LoopAttr with(int64_t ii, int64_t unroll) const;
  }];
}

def Ming_PartitionAttr : Ming_Attr<"Partition", "partition"> {
  let summary = "how a local buffer or ROM is split into banks";
  let description = [{
    `#ming.partition<complete = [1], cyclic = [2, 4]>` on a memref.alloca or
    memref.get_global: the 1-based dimensions split completely (into
    registers), and (dimension, factor) pairs split cyclically. Line buffers
    and windows get their complete dimensions from convert-linalg-to-dfg; the
    DSE adds the cyclic banks its unrolled accesses need. A factor of 1 is
    one bank: the DSE's record that it counted the buffer's reads as a
    partitioned buffer's (an address several unrolled copies read is read
    once), which the model reads back the same way.
  }];
  let parameters = (ins
    Ming_Integers<"dimensions split completely">:$complete,
    Ming_Integers<"(dimension, factor) pairs split cyclically">:$cyclic);
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Checks the dimensions against the buffer's type.
    ::llvm::LogicalResult verifyFor(::mlir::MemRefType type,
        ::llvm::function_ref<::mlir::InFlightDiagnostic()> emitError) const;
  }];
}

def Ming_EstimateAttr : Ming_Attr<"Estimate", "estimate"> {
  let summary = "the cost model's figures of a process, as the DSE chose it";
  let description = [{
    On a dfg.process after the DSE: its cycles for one image, the cycle of
    its first output, the cycles before its main loop starts and after its
    last output, its DSPs and BRAM18Ks, the II of its main pipeline and the
    unroll factor of each top pipelined loop (`L<id>`). The report and the
    cycle-level simulator read them.
  }];
  let parameters = (ins
    "int64_t":$cycles,
    "int64_t":$first_output,
    "int64_t":$pre,
    "int64_t":$tail,
    "int64_t":$dsp,
    "int64_t":$bram18k,
    "int64_t":$ii,
    OptionalParameter<"::mlir::DictionaryAttr", "unroll factor per pipelined loop">:$unroll);
  let genVerifyDecl = 1;
}

def Ming_LoopEstimateAttr : Ming_Attr<"LoopEstimate", "loop_estimate"> {
  let summary = "the II and depth the cost model found for a pipelined loop";
  let description = [{
    `#ming.loop_estimate<ii = 1, depth = 11>` on a pipelined scf.for after
    the DSE. The cycle-level simulator runs the loop with these figures, so
    that it and the cost model time the same pipeline.
  }];
  let parameters = (ins "int64_t":$ii, "int64_t":$depth);
  let genVerifyDecl = 1;
}

def Ming_DesignAttr : Ming_Attr<"Design", "design"> {
  let summary = "the DSE's figures of a whole graph";
  let description = [{
    On the dfg.graph after the DSE: the dataflow cycles of one image, the
    DSPs and BRAM18Ks of the design (FIFOs included), the objective the
    solver minimised and how the choice was reached (`optimal`, `feasible`
    with a gap, `given` by the user).
  }];
  let parameters = (ins
    "int64_t":$cycles,
    "int64_t":$dsp,
    "int64_t":$bram18k,
    "::mlir::StringAttr":$objective,
    "::mlir::StringAttr":$status);
  let genVerifyDecl = 1;
}

#endif
