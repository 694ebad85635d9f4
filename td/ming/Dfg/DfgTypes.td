#ifndef MING_DFG_TYPES_TD
#define MING_DFG_TYPES_TD

include "ming/Dfg/DfgDialect.td"

// Both channel ends carry the element type and the number of parallel lanes
// (physically separate FIFOs moved in lockstep), so a type match between a
// channel end and a port is the paper's stream constraint (producer and
// consumer agree on the number of streams).
class Dfg_PortType<string name, string typeMnemonic, string dir>
    : Dfg_Type<name, typeMnemonic> {
  let summary = dir # " end of a channel";
  let parameters = (ins "::mlir::Type":$elementType,
                        DefaultValuedParameter<"unsigned", "1">:$lanes);
  let assemblyFormat = "`<` $elementType (`,` `lanes` `=` $lanes^)? `>`";
  let genVerifyDecl = 1;
  let builders = [
    TypeBuilderWithInferredContext<(ins "::mlir::Type":$elementType,
                                        CArg<"unsigned", "1">:$lanes), [{
      return $_get(elementType.getContext(), elementType, lanes);
    }]>
  ];
}

def Dfg_InputType : Dfg_PortType<"Input", "in", "read"> {
  let description = [{
    The consumer's end of a channel: a process pulls from it.
    `!dfg.in<i8>` is one lane, `!dfg.in<i8, lanes = 4>` four parallel lanes.
  }];
}

def Dfg_OutputType : Dfg_PortType<"Output", "out", "write"> {
  let description = [{
    The producer's end of a channel: a process pushes into it.
  }];
}

def Dfg_AnyPortType : AnyTypeOf<[Dfg_InputType, Dfg_OutputType]>;

#endif
