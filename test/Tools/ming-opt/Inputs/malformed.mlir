// A syntax error: the pull has no operand.
dfg.process @p(%in: !dfg.in<i8>) {
  %v =
  dfg.pull : !dfg.in<i8>
}
