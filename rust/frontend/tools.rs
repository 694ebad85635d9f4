//! Where the front end's external tools (`iree-import-onnx`, `iree-opt`,
//! from the `iree-base-compiler` Python package) are found, first match wins:
//!
//! 1. `MING_PYTHON_TOOLS=DIR`: DIR only (nothing else is searched, so a
//!    setting that is wrong fails loudly instead of falling back);
//! 2. the `.venv/bin` of the checkout the running ming-opt belongs to: the
//!    first ancestor of the executable holding `.venv/bin`, then the checkout
//!    the binary was built from (CARGO_MANIFEST_DIR at build time: covers a
//!    CARGO_TARGET_DIR outside the checkout);
//! 3. PATH.
use std::fmt;
use std::path::{Path, PathBuf};

pub const ENV: &str = "MING_PYTHON_TOOLS";

/// A tool that is nowhere to be found, with where it was looked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Missing {
    pub tool: String,
    pub searched: String,
}

impl fmt::Display for Missing {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "'{}' not found (install with scripts/setup.sh or put it on PATH); looked in {}", self.tool, self.searched)
    }
}

/// The path of `tool`, by the order above.
pub fn find(tool: &str) -> Result<PathBuf, Missing> {
    let exe = std::env::current_exe().ok();
    let built_from = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    find_in(
        tool,
        std::env::var_os(ENV).map(PathBuf::from),
        exe.as_deref(),
        Some(&built_from),
        std::env::var_os("PATH"),
    )
}

/// `find` with its inputs spelt out (for tests).
pub fn find_in(
    tool: &str,
    override_dir: Option<PathBuf>,
    exe: Option<&Path>,
    built_from: Option<&Path>,
    path: Option<std::ffi::OsString>,
) -> Result<PathBuf, Missing> {
    if let Some(dir) = override_dir {
        let candidate = dir.join(tool);
        return if is_executable(&candidate) {
            Ok(candidate)
        } else {
            Err(Missing { tool: tool.to_string(), searched: format!("{ENV}={}", dir.display()) })
        };
    }
    let mut venvs: Vec<PathBuf> = Vec::new();
    if let Some(exe) = exe {
        if let Some(venv) = exe.ancestors().skip(1).map(|d| d.join(".venv").join("bin")).find(|d| d.is_dir()) {
            venvs.push(venv);
        }
    }
    if let Some(root) = built_from {
        let venv = root.join(".venv").join("bin");
        if !venvs.contains(&venv) {
            venvs.push(venv);
        }
    }
    for dir in &venvs {
        let candidate = dir.join(tool);
        if is_executable(&candidate) {
            return Ok(candidate);
        }
    }
    if let Some(path) = &path {
        for dir in std::env::split_paths(path) {
            let candidate = dir.join(tool);
            if is_executable(&candidate) {
                return Ok(candidate);
            }
        }
    }
    let mut searched: Vec<String> = venvs.iter().map(|d| d.display().to_string()).collect();
    searched.push("PATH".to_string());
    Err(Missing { tool: tool.to_string(), searched: searched.join(", ") })
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0).unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn tool_in(dir: &Path, name: &str) -> PathBuf {
        std::fs::create_dir_all(dir).expect("mkdir");
        let p = dir.join(name);
        std::fs::write(&p, "#!/bin/sh\n").expect("write");
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        p
    }

    #[test]
    fn lookup_order() {
        let base = std::env::temp_dir().join(format!("ming-tools-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let checkout = base.join("repo");
        let venv_tool = tool_in(&checkout.join(".venv/bin"), "iree-opt");
        let exe = checkout.join("target/release/ming-opt");
        let on_path = tool_in(&base.join("bin"), "iree-opt");
        let path = Some(std::ffi::OsString::from(base.join("bin")));

        // The checkout's venv comes before PATH.
        assert_eq!(find_in("iree-opt", None, Some(&exe), None, path.clone()), Ok(venv_tool.clone()));
        // The build checkout when the binary lives elsewhere.
        let elsewhere = base.join("t/release/ming-opt");
        assert_eq!(find_in("iree-opt", None, Some(&elsewhere), Some(&checkout), None), Ok(venv_tool));
        // PATH last.
        assert_eq!(find_in("iree-opt", None, Some(&elsewhere), None, path.clone()), Ok(on_path));
        // The override is the only place searched.
        let empty = base.join("empty");
        let missing = find_in("iree-opt", Some(empty.clone()), Some(&exe), Some(&checkout), path).unwrap_err();
        assert_eq!(missing.searched, format!("MING_PYTHON_TOOLS={}", empty.display()));
        assert!(missing.to_string().starts_with("'iree-opt' not found (install with scripts/setup.sh or put it on PATH); looked in MING_PYTHON_TOOLS="));
        // Not executable is not found.
        let plain = base.join("plain");
        std::fs::create_dir_all(&plain).expect("mkdir");
        std::fs::write(plain.join("iree-opt"), "").expect("write");
        assert!(find_in("iree-opt", Some(plain), None, None, None).is_err());
        let _ = std::fs::remove_dir_all(&base);
    }
}
