//! Faults injected by the environment (`CASTELLAN_FAULT`), for the crash, disk-full and
//! ordering tests: real failures at named points, not mocks.

/// Disk-full injection for the soak and fault tests: `CASTELLAN_FAULT=disk-full-journal`
/// makes every journal entry fail with ENOSPC, `disk-full-flush` every database flush.
pub fn injected_disk_full(name: &str) -> std::io::Result<()> {
    if std::env::var("CASTELLAN_FAULT").ok().as_deref() == Some(name) {
        return Err(std::io::Error::from_raw_os_error(28));
    }
    Ok(())
}

/// Delay injection for the ordering tests: `CASTELLAN_FAULT=slow-journal-sync` makes the
/// journal's fsync of an inbox batch start 300 ms late, so that a commit that did not wait
/// for it would show.
pub fn fault_delay(name: &str) {
    if std::env::var("CASTELLAN_FAULT").ok().as_deref() == Some(name) {
        std::thread::sleep(std::time::Duration::from_millis(300));
    }
}

/// Fault injection for the crash tests: `CASTELLAN_FAULT=after-journal` kills the process
/// once a batch's journal entries are on the device, `after-acknowledge` once its group's
/// mails are acknowledged and before their commit, `after-commit` after the batch's commit
/// and flush (a real crash, not a mock).
pub fn fault_point(name: &str) {
    if std::env::var("CASTELLAN_FAULT").ok().as_deref() == Some(name) {
        eprintln!("castellan: injected crash at {name}");
        std::process::abort();
    }
}
