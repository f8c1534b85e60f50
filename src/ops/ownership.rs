//! Ownership kept: a command run as root on a data folder that belongs to another user
//! (the castellan user of the package) would leave root-owned files in it (the journal, a
//! database file, a backup), and every later `ingest`, run by the MTA as that user, would
//! be deferred. Such a command refuses, and says as whom to run it.

use crate::cli::Command;
use crate::error::ShellError;
use std::path::Path;

/// Whether `cmd` writes the data folder itself (the admin commands check on their direct
/// way only: through the daemon's socket they write nothing here; `ingest` checks in its
/// own way, deferring the mail).
pub fn guards(cmd: &Command) -> bool {
    matches!(
        cmd,
        Command::Serve { .. }
            | Command::Backup {
                restore: Some(_),
                ..
            }
            | Command::Recover
            | Command::Compact
    )
}

/// The owner (uid) of `data_dir` when this process runs as root and the folder belongs to
/// another user: the reason to refuse. `None`: nothing to say (not root, the folder is
/// root's, or it does not exist yet).
pub fn foreign_owner(data_dir: &Path) -> Option<u32> {
    use std::os::unix::fs::MetadataExt;
    // SAFETY: geteuid(2) has no preconditions and cannot fail.
    if unsafe { libc::geteuid() } != 0 {
        return None;
    }
    let uid = std::fs::metadata(data_dir).ok()?.uid();
    (uid != 0).then_some(uid)
}

/// The name of user `uid`, or its number.
pub fn user_name(uid: u32) -> String {
    std::fs::read_to_string("/etc/passwd")
        .ok()
        .and_then(|p| {
            p.lines().find_map(|l| {
                let mut f = l.split(':');
                let name = f.next()?;
                (f.nth(1)? == uid.to_string()).then(|| name.to_string())
            })
        })
        .unwrap_or_else(|| uid.to_string())
}

/// Refuse (exit 77) when run as root on a data folder that belongs to another user.
pub fn check(data_dir: &Path) -> Result<(), ShellError> {
    match foreign_owner(data_dir) {
        None => Ok(()),
        Some(uid) => {
            let user = user_name(uid);
            Err(ShellError::NotOwner(format!(
                "refusing to run as root on {}: it belongs to {user}, and files root made \
                 there would defer every later `ingest`; run it as that user: \
                 `sudo -u {user} castellan ...` (nothing was changed)",
                data_dir.display()
            )))
        }
    }
}
