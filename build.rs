//! Builds the C++ side before the Rust driver:
//! 1. CMake (cmake crate, Ninja) runs TableGen on td/ and compiles cpp/ into
//!    libMingPasses.so, plus libMLIR-C.so (the MLIR C API for mlir-sys/melior,
//!    linked against the one libMLIR.so). Both are installed into
//!    target/<profile>/cmake/lib, a stable path for lit and the rpath.
//! 2. cxx_build compiles the bridge (rust/bridge.rs <-> cpp/Bridge/Bridge.cpp).
use std::env;
use std::path::{Path, PathBuf};

fn main() {
    let root = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let out_dir = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    // OUT_DIR is target/<profile>/build/ming-<hash>/out.
    let profile_dir = out_dir
        .ancestors()
        .nth(3)
        .expect("OUT_DIR lies three levels below target/<profile>")
        .to_path_buf();
    let llvm_prefix = env::var("MLIR_SYS_220_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-22".into());

    for path in ["CMakeLists.txt", "td", "cpp", "test/lib", "rust/bridge.rs"] {
        println!("cargo:rerun-if-changed={path}");
    }
    println!("cargo:rerun-if-env-changed=MLIR_SYS_220_PREFIX");

    let cmake_dir = cmake::Config::new(&root)
        .out_dir(profile_dir.join("cmake"))
        .generator("Ninja")
        .profile("Release")
        .define("MING_LLVM_PREFIX", &llvm_prefix)
        .build();
    let lib_dir = cmake_dir.join("lib");

    cxx_build::bridge("rust/bridge.rs")
        .file("cpp/Bridge/Bridge.cpp")
        .include(root.join("cpp/include"))
        .std("c++17")
        .warnings(true)
        .compile("ming-bridge");

    link(&lib_dir, Path::new(&llvm_prefix).join("lib").as_path());
}

/// libMingPasses.so for our entry points; mlir-sys asks for -lMLIR -lMLIR-C and
/// finds libMLIR-C.so here. The rpath covers target/<profile>/ming-opt
/// ($ORIGIN) and test binaries in deps/ (absolute path).
fn link(lib_dir: &Path, llvm_lib_dir: &Path) {
    println!("cargo:rustc-link-search=native={}", lib_dir.display());
    println!("cargo:rustc-link-lib=dylib=MingPasses");
    println!(
        "cargo:rustc-link-arg=-Wl,-rpath,$ORIGIN/cmake/lib:{}:{}",
        lib_dir.display(),
        llvm_lib_dir.display()
    );
}
