//! What the measured passes cost the disk: the device flushes Castellan asked for, the
//! database folder's growth, and the bytes the whole process sent to the storage layer.
//! Read before and after each pass, so the bots' mails (delivered between passes) and
//! the games' creation stay out.

use serde::Serialize;
use std::path::Path;

/// What the measured passes cost the disk, in `bench`'s report (flat among
/// [`super::TablesRun`]'s fields).
#[derive(Debug, Serialize)]
pub struct DiskFigures {
    /// `database_bytes` / `live_bytes`: how much more sled's files take than the data.
    pub database_over_live: f64,
    /// Calls flushing to the device (fsync, fdatasync, syncfs, sync_file_range) that
    /// Castellan's own code made inside the passes (the store's flush, the journal's sync,
    /// the Maildir's and the file transport's: [`castellan_mail::note_device_flush`]),
    /// per inbox batch and per order mail. sled's own syncs (inside `Db::flush`, its
    /// flusher thread) are not counted: a library's calls cannot be, short of tracing the
    /// system calls (and /proc/self/io's `syscw` counts write calls, not flushes).
    pub device_flushes_per_batch: f64,
    pub device_flushes_per_mail: f64,
    /// The database folder's growth over the passes, per order mail, in bytes (its files'
    /// sizes: sled writes into segments it reuses, so this is no count of bytes written).
    pub database_growth_bytes_per_mail: f64,
    /// The bytes the whole process sent to the storage layer inside the passes
    /// (`write_bytes` of /proc/self/io: database, journal, outbox), per order mail; None
    /// without task I/O accounting.
    pub process_write_bytes_per_mail: Option<f64>,
}

/// The counters at one moment.
#[derive(Debug, Clone, Copy)]
pub(super) struct DiskCounters {
    flushes: u64,
    write_bytes: Option<u64>,
    database_bytes: u64,
}

impl DiskCounters {
    /// The counters now, with the size of the database folder `database`.
    pub(super) fn read(database: &Path) -> DiskCounters {
        DiskCounters {
            flushes: castellan_mail::device_flushes(),
            write_bytes: proc_write_bytes(),
            database_bytes: crate::store::dir_size(database),
        }
    }
}

/// What the passes cost, summed pass by pass.
#[derive(Debug, Clone, Copy)]
pub(super) struct DiskUse {
    pub flushes: u64,
    /// None when /proc/self/io cannot be read (no task I/O accounting).
    pub write_bytes: Option<u64>,
    /// The database folder's growth (it may shrink: sled reuses its segments).
    pub database_growth: i64,
}

impl Default for DiskUse {
    fn default() -> DiskUse {
        DiskUse {
            flushes: 0,
            write_bytes: Some(0),
            database_growth: 0,
        }
    }
}

impl DiskUse {
    /// The figures of these passes, over `batches` inbox batches and `mails` order mails,
    /// with the database's size and its live data at the end.
    pub(super) fn figures(
        &self,
        batches: u64,
        mails: usize,
        database_bytes: u64,
        live_bytes: u64,
    ) -> DiskFigures {
        let per_mail = |n: f64| n / mails.max(1) as f64;
        DiskFigures {
            database_over_live: database_bytes as f64 / live_bytes.max(1) as f64,
            device_flushes_per_batch: self.flushes as f64 / batches.max(1) as f64,
            device_flushes_per_mail: per_mail(self.flushes as f64),
            database_growth_bytes_per_mail: per_mail(self.database_growth as f64),
            process_write_bytes_per_mail: self.write_bytes.map(|b| per_mail(b as f64)),
        }
    }

    /// Adds what happened between `before` and `after`.
    pub(super) fn add(&mut self, before: DiskCounters, after: DiskCounters) {
        self.flushes += after.flushes.saturating_sub(before.flushes);
        self.write_bytes = match (self.write_bytes, before.write_bytes, after.write_bytes) {
            (Some(sum), Some(b), Some(a)) => Some(sum + a.saturating_sub(b)),
            _ => None,
        };
        self.database_growth += after.database_bytes as i64 - before.database_bytes as i64;
    }
}

/// `write_bytes` of /proc/self/io: the bytes this process caused to be sent to the
/// storage layer (counted when pages are dirtied; not its write calls, `wchar`, nor their
/// count, `syscw`, which says nothing of flushes either).
fn proc_write_bytes() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/io").ok()?;
    parse_write_bytes(&s)
}

fn parse_write_bytes(io: &str) -> Option<u64> {
    io.lines()
        .find_map(|l| l.strip_prefix("write_bytes:"))?
        .trim()
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn write_bytes_is_read_from_proc_io_and_not_the_cancelled_or_syscall_lines() {
        let io = "rchar: 10\nwchar: 20\nsyscr: 3\nsyscw: 4\nread_bytes: 0\n\
                  write_bytes: 8192\ncancelled_write_bytes: 4096\n";
        assert_eq!(parse_write_bytes(io), Some(8192));
        assert_eq!(parse_write_bytes("rchar: 1\n"), None);
    }

    #[test]
    fn use_sums_each_pass_and_loses_write_bytes_once_unreadable() {
        let at = |flushes, write_bytes, database_bytes| DiskCounters {
            flushes,
            write_bytes,
            database_bytes,
        };
        let mut u = DiskUse::default();
        u.add(at(1, Some(100), 1000), at(4, Some(300), 1500));
        u.add(at(9, Some(900), 1500), at(10, Some(950), 1400));
        assert_eq!(u.flushes, 4);
        assert_eq!(u.write_bytes, Some(250));
        assert_eq!(u.database_growth, 400);
        u.add(at(10, None, 0), at(11, Some(1), 0));
        assert_eq!(u.write_bytes, None);
    }
}
