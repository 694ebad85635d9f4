#ifndef MING_DFG_OPS_TD
#define MING_DFG_OPS_TD

include "ming/Dfg/DfgTypes.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/RegionKindInterface.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

//===----------------------------------------------------------------------===//
// Structure: graph, process, channel, instantiate
//===----------------------------------------------------------------------===//

def Dfg_GraphOp : Dfg_Op<"graph", [
    Symbol, FunctionOpInterface, IsolatedFromAbove, SingleBlock, NoTerminator,
    DeclareOpInterfaceMethods<RegionKindInterface>]> {
  let summary = "a dataflow graph: channels and process instances";
  let description = [{
    The top of a streaming design. Its arguments are the tensors in external
    memory (memrefs: inputs first, then the outputs it writes). The body holds
    only `dfg.channel` and `dfg.instantiate`; it is a graph region, so the
    order of the ops carries no meaning: every instance runs concurrently.

    ```mlir
    dfg.graph @top(%x: memref<1x3x32x32xi8>, %y: memref<1x8x32x32xi8>) {
      %w, %r = dfg.channel<i8, lanes = 1, depth = 2>
      dfg.instantiate @load(%x, %w) : memref<1x3x32x32xi8>, !dfg.out<i8>
      dfg.instantiate @store(%r, %y) : !dfg.in<i8>, memref<1x8x32x32xi8>
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() { return getFunctionType().getInputs(); }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() { return getFunctionType().getResults(); }
    ::mlir::Region *getCallableRegion() { return &getBody(); }
  }];
}

def Dfg_ProcessOp : Dfg_Op<"process", [
    Symbol, FunctionOpInterface, IsolatedFromAbove, SingleBlock, NoTerminator,
    AutomaticAllocationScope]> {
  let summary = "a dataflow process (one CNN layer or a structural node)";
  let description = [{
    A process runs concurrently with every other process of its graph and
    talks to them only through its ports: `!dfg.in` ends it pulls from,
    `!dfg.out` ends it pushes into, and, for load and store nodes only,
    memrefs of the graph's external memory. The optional `kind` records the
    kernel class; DSE results are free-form attributes.

    ```mlir
    dfg.process @relu(%in: !dfg.in<i8>, %out: !dfg.out<i8>)
        attributes {kind = #dfg.kind<pure_parallel>} {
      ...
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs,
                       OptionalAttr<Dfg_KernelKindAttr>:$kind);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() { return getFunctionType().getInputs(); }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() { return getFunctionType().getResults(); }
    ::mlir::Region *getCallableRegion() { return &getBody(); }
  }];
}

def Dfg_ChannelOp : Dfg_Op<"channel", [HasParent<"GraphOp">, InferTypeOpAdaptor]> {
  let summary = "a bounded FIFO between two processes";
  let description = [{
    Declares a FIFO of `depth` elements per lane with `lanes` parallel lanes.
    The first result is the producer's end (`!dfg.out`), the second the
    consumer's end (`!dfg.in`); each must be handed to exactly one instance.

    ```mlir
    %w, %r = dfg.channel<i8, lanes = 4, depth = 16>
    ```
  }];
  let arguments = (ins TypeAttr:$elementType,
                       ConfinedAttr<I64Attr, [IntPositive]>:$lanes,
                       ConfinedAttr<I64Attr, [IntPositive]>:$depth);
  let results = (outs Dfg_OutputType:$write, Dfg_InputType:$read);
  let assemblyFormat = [{
    `<` $elementType `,` `lanes` `=` $lanes `,` `depth` `=` $depth `>` attr-dict
  }];
  let hasVerifier = 1;
}

def Dfg_InstantiateOp : Dfg_Op<"instantiate", [
    HasParent<"GraphOp">, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "an instance of a process in a graph";
  let description = [{
    Runs `callee` with the given channel ends and memrefs bound to its ports,
    in order. Types must match the process signature exactly, including lanes.

    ```mlir
    dfg.instantiate @relu(%r0, %w1) : !dfg.in<i8>, !dfg.out<i8>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$ports);
  let assemblyFormat = [{
    $callee `(` $ports `)` attr-dict (`:` type($ports)^)?
  }];
}

//===----------------------------------------------------------------------===//
// Communication: pull and push
//===----------------------------------------------------------------------===//

def Dfg_PullOp : Dfg_Op<"pull", [
    TypesMatchWith<"result type is the port's element type", "port", "value",
                   "::llvm::cast<::ming::dfg::InputType>($_self).getElementType()">]> {
  let summary = "blocking read of one element from an input port";
  let description = [{
    Reads the next element of lane `lane` (only on a port with more than
    one lane). Without an index, a multi-lane port is read round robin: the
    k-th pull takes the next element of lane k mod lanes, so the stream's
    element order is the same as with one lane. Blocks while the FIFO is
    empty.

    ```mlir
    %v = dfg.pull %in : !dfg.in<i8>
    %w = dfg.pull %in4[%k] : !dfg.in<i8, lanes = 4>
    ```
  }];
  let arguments = (ins Dfg_InputType:$port, Optional<Index>:$lane);
  let results = (outs AnyType:$value);
  let assemblyFormat = "$port (`[` $lane^ `]`)? attr-dict `:` qualified(type($port))";
  let hasVerifier = 1;
}

def Dfg_PushOp : Dfg_Op<"push", [
    TypesMatchWith<"value type is the port's element type", "port", "value",
                   "::llvm::cast<::ming::dfg::OutputType>($_self).getElementType()">]> {
  let summary = "blocking write of one element to an output port";
  let description = [{
    Appends `value` to lane `lane` (only on a port with more than one lane).
    Without an index, a multi-lane port is written round robin (the k-th
    push goes to lane k mod lanes). Blocks while the FIFO is full.

    ```mlir
    dfg.push %v, %out : !dfg.out<i8>
    ```
  }];
  let arguments = (ins AnyType:$value, Dfg_OutputType:$port, Optional<Index>:$lane);
  let assemblyFormat = [{
    $value `,` $port (`[` $lane^ `]`)? attr-dict `:` qualified(type($port))
  }];
  let hasVerifier = 1;
}

#endif
