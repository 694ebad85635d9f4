// Parses, but a channel has no consumer.
dfg.process @src(%out: !dfg.out<i8>) {}
dfg.graph @g() {
  dfg.instantiate @src(%w) : !dfg.out<i8>
  %w, %r = dfg.channel<i8, lanes = 1, depth = 2>
}
