// dfg: a Kahn process network. A graph holds channels (bounded FIFOs with a
// number of parallel lanes) and instances of processes; processes are isolated
// regions whose ports are the typed ends of channels.
#ifndef MING_DFG_DIALECT_TD
#define MING_DFG_DIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def Dfg_Dialect : Dialect {
  let name = "dfg";
  let summary = "Kahn-process-network dataflow graphs of streaming kernels";
  let description = [{
    Each CNN layer becomes a `dfg.process`; processes talk only through
    `dfg.channel`s (bounded FIFOs) whose ends they receive as ports. A
    `dfg.graph` wires process instances with channels; its arguments are the
    tensors in external memory, read and written by load and store nodes.
  }];
  let cppNamespace = "::ming::dfg";
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  // Its ops carry `ming.*` directives, which that dialect verifies.
  let dependentDialects = ["::ming::directives::MingDialect"];
}

class Dfg_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Dfg_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

class Dfg_Op<string mnemonic, list<Trait> traits = []>
    : Op<Dfg_Dialect, mnemonic, traits>;

// The kernel class of a process (paper Sec. IV-A) plus the structural nodes.
def Dfg_KernelKind : I32EnumAttr<"KernelKind", "kind of a dataflow node", [
    I32EnumAttrCase<"SlidingWindow", 0, "sliding_window">,
    I32EnumAttrCase<"RegularReduction", 1, "regular_reduction">,
    I32EnumAttrCase<"PureParallel", 2, "pure_parallel">,
    I32EnumAttrCase<"Load", 3, "load">,
    I32EnumAttrCase<"Store", 4, "store">,
    I32EnumAttrCase<"Fork", 5, "fork">,
    I32EnumAttrCase<"Concat", 6, "concat">,
    I32EnumAttrCase<"Slice", 7, "slice">,
    I32EnumAttrCase<"Pad", 8, "pad">]> {
  let cppNamespace = "::ming::dfg";
  let genSpecializedAttr = 0;
}

def Dfg_KernelKindAttr : EnumAttr<Dfg_Dialect, Dfg_KernelKind, "kind"> {
  let assemblyFormat = "`<` $value `>`";
}

#endif
