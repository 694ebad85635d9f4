# A stand-in for Vitis HLS's Tcl commands, to run a generated run_hls.tcl in plain tclsh.
#   tclsh vitis_hls_stub.tcl SCRIPT top=NAME part=PART period=NS flow=vivado|vitis [csim=1] [-- STEP...]
# Each command prints one line (its name and arguments) and checks its arguments: the part, the
# clock period, the top, that every added file exists, the flow target and export format.
# With csim=1, csim_design does what Vitis's C simulation does with these files: it compiles the
# design files and testbench added to the project with their -cflags, Vitis's include folder
# first ($XILINX_HLS/include when set), in <project>/solution1/csim/build holding a copy of the
# testbench's data, and runs it there. Violations print "STUB ERROR: ..." and exit 1.

set script [lindex $argv 0]
set rest [lrange $argv 1 end]
set steps {}
set dash [lsearch $rest --]
if {$dash >= 0} {
    set steps [lrange $rest [expr {$dash + 1}] end]
    set rest [lrange $rest 0 [expr {$dash - 1}]]
}
array set opt {csim 0}
foreach kv $rest {
    set i [string first = $kv]
    set opt([string range $kv 0 [expr {$i - 1}]]) [string range $kv [expr {$i + 1}] end]
}
set errors 0
proc fail {msg} {
    global errors
    puts "STUB ERROR: $msg"
    incr errors
}
proc log {args} { puts [join $args " "] }

set project ""
set sources {}
set tb {}

proc open_project {args} {
    global project
    log open_project {*}$args
    set project [lindex $args end]
}
proc set_top {name} {
    global opt
    log set_top $name
    if {$name ne $opt(top)} { fail "set_top $name, not $opt(top)" }
}
proc add_files {args} {
    global sources tb
    log add_files {*}$args
    set is_tb [expr {[lsearch $args -tb] >= 0}]
    set cflags ""
    set i [lsearch $args -cflags]
    if {$i >= 0} { set cflags [lindex $args [expr {$i + 1}]] }
    foreach a $args {
        if {[string match -* $a] || $a eq $cflags} continue
        if {![file exists $a]} { fail "add_files: no file $a" }
        if {$is_tb} { lappend tb [list $a $cflags] } else { lappend sources [list $a $cflags] }
    }
}
proc open_solution {args} {
    global opt
    log open_solution {*}$args
    set i [lsearch $args -flow_target]
    if {$i < 0 || [lindex $args [expr {$i + 1}]] ne $opt(flow)} { fail "open_solution without -flow_target $opt(flow): $args" }
}
proc set_part {part} {
    global opt
    log set_part $part
    if {$part ne $opt(part)} { fail "set_part $part, not $opt(part)" }
}
proc create_clock {args} {
    global opt
    log create_clock {*}$args
    if {[lindex $args [expr {[lsearch $args -period] + 1}]] ne $opt(period)} { fail "create_clock $args: period is not $opt(period)" }
}
proc csim_design {args} {
    global opt project sources tb
    log csim_design {*}$args
    if {!$opt(csim)} return
    set build $project/solution1/csim/build
    file delete -force $build
    file mkdir $build
    set cmd [list g++]
    if {[info exists ::env(XILINX_HLS)]} { lappend cmd -I$::env(XILINX_HLS)/include }
    foreach s [concat $sources $tb] {
        lassign $s path cflags
        if {[file isdirectory $path]} {
            file copy $path $build/[file tail $path]
        } else {
            lappend cmd {*}$cflags $path
        }
    }
    set i [lsearch $args -ldflags]
    if {$i >= 0} { lappend cmd {*}[lindex $args [expr {$i + 1}]] }
    lappend cmd -o $build/csim.exe
    if {[catch {exec {*}$cmd 2>@1} out]} { fail "csim build: $out"; return }
    set status [catch {exec sh -c "cd '$build' && ./csim.exe" 2>@1} out]
    puts "csim: $out"
    if {$status} { fail "csim failed" }
}
proc csynth_design {args} { log csynth_design {*}$args }
proc cosim_design {args} { log cosim_design {*}$args }
proc export_design {args} {
    global opt
    log export_design {*}$args
    set format [lindex $args [expr {[lsearch $args -format] + 1}]]
    set want [expr {$opt(flow) eq "vitis" ? "xo" : "ip_catalog"}]
    if {$format ne $want} { fail "export_design -format $format on flow $opt(flow), not $want" }
}

rename exit real_exit
proc exit {{code 0}} { return -code error -errorcode [list STUB_EXIT $code] "exit $code" }
# vitis_hls -f run_hls.tcl -tclargs STEP...: the script sees them in argv.
set argv $steps
set status 0
if {[catch {source $script} msg]} {
    if {[lindex $::errorCode 0] eq "STUB_EXIT"} {
        set status [lindex $::errorCode 1]
    } else {
        fail "the script failed: $msg"
    }
}
if {$errors > 0} { real_exit 1 }
real_exit $status
