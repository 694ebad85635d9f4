// Keyword sets of the HLS pragmas. Each enum is wrapped in an EnumAttr whose
// format is the bare case name, so ops print `cyclic`, `ram_2p`, `m_axi`, ...
// exactly as they appear in the `#pragma HLS` line.
#ifndef MING_EMITHLS_ATTRS_TD
#define MING_EMITHLS_ATTRS_TD

include "ming/EmitHLS/EmitHLSDialect.td"

def EmitHLS_PartitionKind : I32EnumAttr<"PartitionKind",
    "ARRAY_PARTITION type", [
    I32EnumAttrCase<"Cyclic", 0, "cyclic">,
    I32EnumAttrCase<"Block", 1, "block">,
    I32EnumAttrCase<"Complete", 2, "complete">]> {
  let cppNamespace = "::ming::emithls";
  let genSpecializedAttr = 0;
}
def EmitHLS_PartitionKindAttr
    : EnumAttr<EmitHLS_Dialect, EmitHLS_PartitionKind, "partition_kind">;

def EmitHLS_StorageKind : I32EnumAttr<"StorageKind",
    "BIND_STORAGE type", [
    I32EnumAttrCase<"Ram1P", 0, "ram_1p">,
    I32EnumAttrCase<"Ram2P", 1, "ram_2p">,
    I32EnumAttrCase<"RamT2P", 2, "ram_t2p">,
    I32EnumAttrCase<"RamS2P", 3, "ram_s2p">,
    I32EnumAttrCase<"Rom1P", 4, "rom_1p">,
    I32EnumAttrCase<"Rom2P", 5, "rom_2p">,
    I32EnumAttrCase<"RomNP", 6, "rom_np">,
    I32EnumAttrCase<"Fifo", 7, "fifo">]> {
  let cppNamespace = "::ming::emithls";
  let genSpecializedAttr = 0;
}
def EmitHLS_StorageKindAttr
    : EnumAttr<EmitHLS_Dialect, EmitHLS_StorageKind, "storage_kind">;

def EmitHLS_StorageImpl : I32EnumAttr<"StorageImpl",
    "BIND_STORAGE impl", [
    I32EnumAttrCase<"Bram", 0, "bram">,
    I32EnumAttrCase<"Lutram", 1, "lutram">,
    I32EnumAttrCase<"Uram", 2, "uram">,
    I32EnumAttrCase<"Srl", 3, "srl">,
    I32EnumAttrCase<"Auto", 4, "auto">]> {
  let cppNamespace = "::ming::emithls";
  let genSpecializedAttr = 0;
}
def EmitHLS_StorageImplAttr
    : EnumAttr<EmitHLS_Dialect, EmitHLS_StorageImpl, "storage_impl">;

def EmitHLS_InterfaceMode : I32EnumAttr<"InterfaceMode",
    "INTERFACE mode", [
    I32EnumAttrCase<"MAxi", 0, "m_axi">,
    I32EnumAttrCase<"SAxiLite", 1, "s_axilite">,
    I32EnumAttrCase<"Axis", 2, "axis">]> {
  let cppNamespace = "::ming::emithls";
  let genSpecializedAttr = 0;
}
def EmitHLS_InterfaceModeAttr
    : EnumAttr<EmitHLS_Dialect, EmitHLS_InterfaceMode, "interface_mode">;

#endif
