//! All-or-nothing output directories: the project is built in a hidden
//! sibling of OUTDIR and renamed into place only once every file is written,
//! so a failure never leaves a half-written (or no longer valid) OUTDIR.
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// A directory being filled; removed on drop unless committed.
#[derive(Debug)]
pub struct Staging {
    dir: PathBuf,
    target: PathBuf,
    committed: bool,
}

/// Why OUTDIR cannot be written.
#[derive(Debug)]
pub enum StagingError {
    /// The path names no directory we may create or replace.
    Refused(String),
    Io { path: PathBuf, error: io::Error },
}

impl std::fmt::Display for StagingError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            StagingError::Refused(m) => f.write_str(m),
            StagingError::Io { path, error } => write!(f, "{}: {error}", path.display()),
        }
    }
}

impl std::error::Error for StagingError {}

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> StagingError + '_ {
    move |error| StagingError::Io { path: path.to_path_buf(), error }
}

/// A directory that may be replaced: empty, or one we wrote before (it has
/// the files every ming project has). Anything else is the user's and stays.
fn replaceable(dir: &Path, fingerprint: &[&str]) -> Result<bool, StagingError> {
    let mut entries = fs::read_dir(dir).map_err(io_err(dir))?;
    if entries.next().is_none() {
        return Ok(true);
    }
    Ok(fingerprint.iter().all(|f| dir.join(f).is_file()))
}

impl Staging {
    /// Starts a staging directory for `target`. An existing `target` must be
    /// a directory that is empty or holds every file of `fingerprint`.
    pub fn new(target: &Path, fingerprint: &[&str]) -> Result<Staging, StagingError> {
        let name = target
            .file_name()
            .ok_or_else(|| StagingError::Refused(format!("'{}' does not name a directory to create", target.display())))?;
        let parent = match target.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        if !parent.is_dir() {
            return Err(StagingError::Refused(format!("the parent directory of '{}' does not exist", target.display())));
        }
        if let Ok(meta) = fs::symlink_metadata(target) {
            if !meta.is_dir() {
                return Err(StagingError::Refused(format!("'{}' exists and is not a directory", target.display())));
            }
            if !replaceable(target, fingerprint)? {
                return Err(StagingError::Refused(format!(
                    "'{}' exists and is not a ming HLS project (no {}); not replacing it",
                    target.display(),
                    fingerprint.join(", ")
                )));
            }
        }
        let dir = parent.join(format!(".{}.ming-tmp-{}", name.to_string_lossy(), std::process::id()));
        // A leftover of a killed run with the same pid.
        if dir.exists() {
            fs::remove_dir_all(&dir).map_err(io_err(&dir))?;
        }
        fs::create_dir(&dir).map_err(io_err(&dir))?;
        Ok(Staging { dir, target: target.to_path_buf(), committed: false })
    }

    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// Writes `contents` to `relative` inside the staging directory, creating parents.
    pub fn write(&self, relative: &str, contents: impl AsRef<[u8]>) -> Result<(), StagingError> {
        let path = self.dir.join(relative);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).map_err(io_err(parent))?;
        }
        fs::write(&path, contents).map_err(io_err(&path))
    }

    pub fn create_dir(&self, relative: &str) -> Result<(), StagingError> {
        let path = self.dir.join(relative);
        fs::create_dir_all(&path).map_err(io_err(&path))
    }

    /// Moves the staging directory to the target. An old target is renamed
    /// aside first and removed only after the new one is in place.
    pub fn commit(mut self) -> Result<PathBuf, StagingError> {
        let old = self.dir.with_file_name(format!(
            ".{}.ming-old-{}",
            self.target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
            std::process::id()
        ));
        let had_old = self.target.exists();
        if had_old {
            fs::rename(&self.target, &old).map_err(io_err(&self.target))?;
        }
        if let Err(error) = fs::rename(&self.dir, &self.target) {
            if had_old {
                // Put the old project back; the staging dir goes on drop.
                let _ = fs::rename(&old, &self.target);
            }
            return Err(StagingError::Io { path: self.target.clone(), error });
        }
        self.committed = true;
        if had_old {
            if let Err(e) = fs::remove_dir_all(&old) {
                log::warn!("cannot remove the previous project at {}: {e}", old.display());
            }
        }
        Ok(self.target.clone())
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        if !self.committed {
            let _ = fs::remove_dir_all(&self.dir);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("ming-staging-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("scratch dir");
        dir
    }

    #[test]
    fn commit_creates_and_replaces_and_drop_cleans_up() {
        let root = scratch("commit");
        let out = root.join("proj");
        let s = Staging::new(&out, &["a.txt"]).expect("stage");
        s.write("a.txt", "one").expect("write");
        s.write("sub/b.txt", "two").expect("write nested");
        assert!(!out.exists(), "nothing visible before commit");
        s.commit().expect("commit");
        assert_eq!(fs::read_to_string(out.join("sub/b.txt")).expect("read"), "two");

        // Replacing a previous project.
        let s = Staging::new(&out, &["a.txt"]).expect("stage again");
        s.write("a.txt", "three").expect("write");
        s.commit().expect("commit again");
        assert_eq!(fs::read_to_string(out.join("a.txt")).expect("read"), "three");
        assert!(!out.join("sub").exists(), "the old project is gone");

        // A failed run leaves the previous project untouched and no staging dir.
        {
            let s = Staging::new(&out, &["a.txt"]).expect("stage");
            s.write("a.txt", "four").expect("write");
        }
        assert_eq!(fs::read_to_string(out.join("a.txt")).expect("read"), "three");
        let names: Vec<String> = fs::read_dir(&root).expect("ls").map(|e| e.expect("entry").file_name().to_string_lossy().into_owned()).collect();
        assert_eq!(names, ["proj"]);
        fs::remove_dir_all(&root).expect("cleanup");
    }

    #[test]
    fn foreign_directories_and_files_are_refused() {
        let root = scratch("refuse");
        let foreign = root.join("home");
        fs::create_dir(&foreign).expect("mkdir");
        fs::write(foreign.join("notes.txt"), "mine").expect("write");
        assert!(matches!(Staging::new(&foreign, &["a.txt"]), Err(StagingError::Refused(_))));
        let file = root.join("file");
        fs::write(&file, "x").expect("write");
        assert!(matches!(Staging::new(&file, &["a.txt"]), Err(StagingError::Refused(_))));
        assert!(matches!(Staging::new(&root.join("no/such/dir"), &["a.txt"]), Err(StagingError::Refused(_))));
        let empty = root.join("empty");
        fs::create_dir(&empty).expect("mkdir");
        assert!(Staging::new(&empty, &["a.txt"]).is_ok());
        fs::remove_dir_all(&root).expect("cleanup");
    }
}
