// A memory port width Vitis cannot widen to is refused before anything is
// lowered.
// RUN: ming-opt %s --verify-diagnostics --pass-pipeline='builtin.module(convert-dfg-to-emithls{axi-bits=96})'

// expected-error@+1 {{convert-dfg-to-emithls: axi-bits must be 0 or a power of two from 8 to 1024, got 96}}
module {
}
