# A stand-in for Vivado's Tcl commands, to run a generated deploy/bitstream.tcl in plain tclsh.
#   tclsh vivado_stub.tcl SCRIPT top=NAME part=PART mhz=F family=zynqmp|zynq7 [board=1]
# Each Vivado command prints one line (its name and arguments) and checks what a real block
# design would refuse: the part, the IP's VLNV, pins that exist on their cell (the kernel's from
# the INTERFACE pragmas of its C++, the processing system's with their ports enabled, a
# SmartConnect's within NUM_SI/NUM_MI), every pin connected once. At the end it checks that the
# kernel's bundles, control, clock, reset and interrupt are all connected and the PL clock runs at
# the design's frequency; any violation prints "STUB ERROR: ..." and exits 1.
# The files Vivado would write (hardware handoff, bitstream) are faked, so the script's own copy
# steps run for real.

set script [lindex $argv 0]
array set opt {board 0}
foreach kv [lrange $argv 1 end] {
    set i [string first = $kv]
    set opt([string range $kv 0 [expr {$i - 1}]]) [string range $kv [expr {$i + 1}] end]
}
set prjdir [file dirname [file dirname [file normalize $script]]]
set errors 0
proc fail {msg} {
    global errors
    puts "STUB ERROR: $msg"
    incr errors
}
proc log {args} { puts [join $args " "] }

# The kernel's interfaces, as Vitis HLS names the IP's pins: m_axi_<bundle> per m_axi bundle,
# s_axi_<bundle> per s_axilite bundle, from the pragmas of the generated top.
set kernel_pins {ap_clk ap_rst_n interrupt}
set bundles {}
set f [open $prjdir/$opt(top).cpp]
foreach line [split [read $f] \n] {
    if {[regexp {#pragma HLS INTERFACE (m_axi|s_axilite) port=\S+ bundle=(\w+)} $line -> mode bundle]} {
        set pin [expr {$mode eq "m_axi" ? "m_axi_$bundle" : "s_axi_$bundle"}]
        if {$pin ni $kernel_pins} {
            lappend kernel_pins $pin
            if {$mode eq "m_axi"} { lappend bundles $bundle }
        }
    }
}
close $f

array set cells {}
array set config {}
array set connected {}

proc create_project {args} {
    global opt prjdir
    log create_project {*}$args
    set i [lsearch $args -part]
    if {$i < 0 || [lindex $args [expr {$i + 1}]] ne $opt(part)} { fail "create_project without -part $opt(part): $args" }
    # Where Vivado keeps the block design's hardware handoff.
    set positional {}
    for {set i 0} {$i < [llength $args]} {incr i} {
        set a [lindex $args $i]
        if {$a eq "-part"} { incr i } elseif {![string match -* $a]} { lappend positional $a }
    }
    lassign $positional name dir
    file mkdir $dir/$name.gen/sources_1/bd/design_1/hw_handoff
    set h [open $dir/$name.gen/sources_1/bd/design_1/hw_handoff/design_1.hwh w]; puts $h "<hwh/>"; close $h
    return $name
}
proc get_board_parts {args} {
    global opt
    log get_board_parts {*}$args
    return [expr {$opt(board) ? "xilinx.com:board:part0:1.0" : ""}]
}
proc current_project {} { return prj }
proc current_fileset {} { return sources_1 }
proc update_ip_catalog {args} { log update_ip_catalog {*}$args }
proc create_bd_design {name} { log create_bd_design $name }
proc get_ipdefs {args} {
    set pattern [lindex $args end]
    return [string map {* 9.9} $pattern]
}
proc create_bd_cell {args} {
    global cells opt
    log create_bd_cell {*}$args
    set vlnv [lindex $args [expr {[lsearch $args -vlnv] + 1}]]
    set name [lindex $args end]
    set kind [lindex [split $vlnv :] 2]
    if {[lindex [split $vlnv :] 1] eq "hls"} {
        if {$vlnv ne "xilinx.com:hls:$opt(top):1.0"} { fail "the kernel's IP is $vlnv, not xilinx.com:hls:$opt(top):1.0" }
        set kind kernel
    }
    set cells($name) $kind
    return $name
}
proc set_property {args} {
    global config
    log set_property {*}$args
    if {[lindex $args 0] eq "-dict"} {
        foreach {k v} [lindex $args 1] { set config([lindex $args 2],$k) $v }
    } else {
        set config([lindex $args 2],[lindex $args 0]) [lindex $args 1]
    }
}
proc apply_bd_automation {args} { log apply_bd_automation {*}$args }

# The pins a cell has (intf: interface pins).
proc pins {cell intf} {
    global cells config kernel_pins opt
    set n 0
    switch $cells($cell) {
        kernel { return $kernel_pins }
        smartconnect {
            set r {}
            if {$intf} {
                for {set i 0} {$i < $config($cell,CONFIG.NUM_SI)} {incr i} { lappend r [format S%02d_AXI $i] }
                for {set i 0} {$i < $config($cell,CONFIG.NUM_MI)} {incr i} { lappend r [format M%02d_AXI $i] }
                return $r
            }
            return {aclk aresetn}
        }
        proc_sys_reset { return {slowest_sync_clk ext_reset_in peripheral_aresetn} }
        zynq_ultra_ps_e {
            set r {}
            if {[get_config $cell CONFIG.PSU__USE__M_AXI_GP0] == 1} { lappend r M_AXI_HPM0_FPD maxihpm0_fpd_aclk }
            for {set h 0} {$h < 4} {incr h} {
                if {[get_config $cell CONFIG.PSU__USE__S_AXI_GP[expr {$h + 2}]] == 1} { lappend r S_AXI_HP${h}_FPD saxihp${h}_fpga_aclk }
            }
            if {[get_config $cell CONFIG.PSU__FPGA_PL0_ENABLE] == 1} { lappend r pl_clk0 pl_resetn0 }
            if {[get_config $cell CONFIG.PSU__USE__IRQ0] == 1} { lappend r pl_ps_irq0 }
            return $r
        }
        processing_system7 {
            set r {FCLK_CLK0 FCLK_RESET0_N}
            if {[get_config $cell CONFIG.PCW_USE_M_AXI_GP0] == 1} { lappend r M_AXI_GP0 M_AXI_GP0_ACLK }
            for {set h 0} {$h < 4} {incr h} {
                if {[get_config $cell CONFIG.PCW_USE_S_AXI_HP$h] == 1} { lappend r S_AXI_HP$h S_AXI_HP${h}_ACLK }
            }
            if {[get_config $cell CONFIG.PCW_USE_FABRIC_INTERRUPT] == 1} { lappend r IRQ_F2P }
            return $r
        }
    }
    return {}
}
proc get_config {cell key} {
    global config
    if {[info exists config($cell,$key)]} { return $config($cell,$key) }
    return 0
}
proc pin {path intf} {
    global cells
    lassign [split $path /] cell name
    if {![info exists cells($cell)]} { fail "no cell '$cell' for pin $path"; return $path }
    if {$name ni [pins $cell $intf]} { fail "cell '$cell' ($cells($cell)) has no [expr {$intf ? {interface } : {}}]pin '$name' (has: [pins $cell $intf])" }
    return $path
}
proc get_bd_intf_pins {path} { return [pin $path 1] }
proc get_bd_pins {path} { return [pin $path 0] }
proc connect {kind args} {
    global connected
    log $kind {*}$args
    foreach p $args {
        if {[info exists connected($p)]} { fail "$p connected twice" }
        set connected($p) 1
    }
}
proc connect_bd_intf_net {a b} { connect connect_bd_intf_net $a $b }
proc connect_bd_net {args} { connect connect_bd_net {*}$args }
proc assign_bd_address {args} { log assign_bd_address {*}$args }
proc validate_bd_design {args} { log validate_bd_design {*}$args }
proc save_bd_design {args} { log save_bd_design {*}$args }
proc get_files {args} { return [lindex $args end] }
proc make_wrapper {args} { log make_wrapper {*}$args; return /fake/design_1_wrapper.v }
proc add_files {args} { log add_files {*}$args }
proc launch_runs {args} {
    global prjdir
    log launch_runs {*}$args
    file mkdir $prjdir/vivado/impl_1
    set h [open $prjdir/vivado/impl_1/design_1_wrapper.bit w]; puts $h bit; close $h
}
proc wait_on_run {args} { log wait_on_run {*}$args }
proc get_runs {name} { return $name }
proc get_property {name obj} {
    global prjdir
    switch $name {
        PROGRESS { return "100%" }
        DIRECTORY { return $prjdir/vivado/impl_1 }
    }
    return ""
}

rename exit real_exit
proc exit {{code 0}} { return -code error -errorcode [list STUB_EXIT $code] "exit $code" }

set status 0
if {[catch {source $script} msg]} {
    if {[lindex $::errorCode 0] eq "STUB_EXIT"} {
        set status [lindex $::errorCode 1]
    } else {
        fail "the script failed: $msg"
    }
}

# What a working design needs: every kernel pin connected, the PL clock at the design's frequency.
if {$status == 0} {
    foreach p $kernel_pins {
        if {![info exists connected($opt(top)_0/$p)]} { fail "kernel pin $p is not connected" }
    }
    foreach cell [array names cells] {
        foreach p [concat [pins $cell 1] [pins $cell 0]] {
            if {$cells($cell) in {smartconnect proc_sys_reset} && ![info exists connected($cell/$p)]} {
                fail "$cell/$p is not connected"
            }
        }
    }
    set key [expr {$opt(family) eq "zynq7" ? "CONFIG.PCW_FPGA0_PERIPHERAL_FREQMHZ" : "CONFIG.PSU__CRL_APB__PL0_REF_CTRL__FREQMHZ"}]
    if {[get_config ps $key] != $opt(mhz)} { fail "PL clock 0 at [get_config ps $key] MHz, not $opt(mhz)" }
    puts "STUB: [llength $bundles] bundle(s) [join $bundles ,] on [llength [array names cells mem_sc*]] HP port(s), exit $status"
}
if {$errors > 0} { real_exit 1 }
real_exit $status
