//! The folder of rule cases a game crate's `tests/cases.rs` runs: read here, by the test,
//! because the engine's `testing::cases` runner does no I/O. Included by each game's
//! runner with `#[path]`; not a test target of the engine (it sits in a subfolder).

use std::path::PathBuf;

/// Run every `tests/cases/*.yaml` of the crate at `manifest_dir`, in name order, through
/// `run` (given the files as (name, text) and whether `CASTELLAN_BLESS` is set), and write
/// back the files it returns (the blessed ones).
pub fn check(
    manifest_dir: &str,
    run: impl FnOnce(&[(String, String)], bool) -> Vec<(String, String)>,
) {
    let dir = PathBuf::from(manifest_dir).join("tests/cases");
    let mut files: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    files.sort();
    let bless = std::env::var_os("CASTELLAN_BLESS").is_some();
    for (name, text) in run(&files, bless) {
        std::fs::write(dir.join(name), text).unwrap();
    }
}
