//! The journal's files: the closed segments beside it, and every entry read back in order.

use super::Entry;
use crate::error::ShellError;
use std::io::BufRead;
use std::path::{Path, PathBuf};

/// What a scan of the journal found.
#[derive(Debug, Default, Clone)]
pub(super) struct Marks {
    /// The numbered entries above the database's number, in order.
    pub(super) after: Vec<Entry>,
    /// Every `aborted` range read.
    pub(super) aborted: Vec<(u64, u64)>,
    pub(super) last_seq: u64,
    pub(super) last_done: u64,
    pub(super) aborted_to: u64,
    pub(super) first_seq: Option<u64>,
    /// A segment's `start` line was read.
    pub(super) start: bool,
}

/// `reader`'s lines into `marks`, keeping the numbered entries above `db_seq`.
pub(super) fn scan(
    reader: &mut dyn BufRead,
    marks: &mut Marks,
    db_seq: u64,
) -> std::io::Result<()> {
    let mut line = String::new();
    loop {
        line.clear();
        if reader.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let Ok(e) = serde_json::from_str::<Entry>(line.trim_end()) else {
            continue;
        };
        if let Some(s) = e.seq() {
            marks.last_seq = marks.last_seq.max(s);
            marks.first_seq = Some(marks.first_seq.map_or(s, |f| f.min(s)));
            if s > db_seq {
                marks.after.push(e);
                continue;
            }
        }
        match e {
            Entry::Done { seq } => marks.last_done = marks.last_done.max(seq),
            Entry::Aborted { from, to } => {
                marks.aborted_to = marks.aborted_to.max(to);
                marks.aborted.push((from, to));
            }
            Entry::Start { after, done } => {
                marks.last_seq = marks.last_seq.max(after);
                marks.last_done = marks.last_done.max(done);
                marks.start = true;
            }
            _ => {}
        }
    }
}

/// The closed segment of the journal at `journal` whose last entry is `last`.
pub(super) fn segment_path(journal: &Path, last: u64) -> PathBuf {
    journal.with_file_name(format!("journal-{last:020}.jsonl"))
}

/// The closed segments of the journal at `journal` ([`Journal::rotate`](super::Journal::rotate)), by their last
/// entry, oldest first.
pub fn segments(journal: &Path) -> Vec<(u64, PathBuf)> {
    let dir = match journal.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let mut out: Vec<(u64, PathBuf)> = numbered_files(&dir, "journal-", ".jsonl");
    out.sort();
    out
}

/// Read every entry of a journal, its closed segments first, calling `each` on it.
pub fn read_all(
    path: &Path,
    each: &mut dyn FnMut(Entry) -> Result<(), ShellError>,
) -> Result<(), ShellError> {
    for (_, segment) in segments(path) {
        read_file(&segment, each)?;
    }
    read_file(path, each)
}

/// Read every entry of one journal file.
pub(super) fn read_file(
    path: &Path,
    each: &mut dyn FnMut(Entry) -> Result<(), ShellError>,
) -> Result<(), ShellError> {
    let f = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(ShellError::io(path, e)),
    };
    let mut reader = std::io::BufReader::new(f);
    let mut line = String::new();
    let mut number = 0;
    loop {
        line.clear();
        if reader
            .read_line(&mut line)
            .map_err(|e| ShellError::io(path, e))?
            == 0
        {
            return Ok(());
        }
        number += 1;
        if !line.ends_with('\n') || line.trim().is_empty() {
            continue; // a line cut by a crash: never committed
        }
        let e: Entry = serde_json::from_str(line.trim_end()).map_err(|e| ShellError::BadInput {
            what: format!("journal {} line {number}", path.display()),
            why: e.to_string(),
        })?;
        each(e)?;
    }
}

/// What [`Journal::prune`](super::Journal::prune) removed: how many segments, and the Maildir messages (their
/// file names as delivered, without the `:2,` flags) those segments named.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Pruned {
    pub segments: usize,
    pub mails: Vec<String>,
}

/// The files of `dir` named `<prefix><number><suffix>`, with their number, in no order.
pub fn numbered_files<N: std::str::FromStr>(
    dir: &Path,
    prefix: &str,
    suffix: &str,
) -> Vec<(N, PathBuf)> {
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let n = name.strip_prefix(prefix)?.strip_suffix(suffix)?;
            Some((n.parse().ok()?, e.path()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::journal::Journal;

    fn tick(j: &Journal) -> u64 {
        j.begin(|seq| Entry::Tick {
            seq,
            at: 0,
            entropy: String::new(),
        })
        .unwrap()
        .unwrap()
    }

    fn seqs(path: &Path) -> Vec<u64> {
        let mut out = Vec::new();
        read_all(path, &mut |e| {
            out.extend(e.seq());
            Ok(())
        })
        .unwrap();
        out
    }

    /// Constant cost over months: the journal is cut into segments at each
    /// rolling backup. Numbering goes on across a segment (an aborted number is never given
    /// again, even when the new segment was not begun: a crash between the two steps), the
    /// back-in-time check still sees the `done` of the closed segment, `recover` reads the
    /// segments in order, and pruning removes only the segments a kept backup holds.
    #[test]
    fn a_journal_cut_into_segments_goes_on_numbering_and_reads_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        let db = dir.path().join("db");
        let j = Journal::open(&path, 0, &db).unwrap();
        assert_eq!(j.rotate().unwrap(), None, "nothing to close yet");
        for n in 1..=3 {
            assert_eq!(tick(&j), n);
        }
        j.done(3);
        let aborted = tick(&j);
        j.abort(Some(aborted));
        let closed = j.rotate().unwrap().unwrap();
        assert_eq!(closed, segment_path(&path, 4));
        assert_eq!(j.rotate().unwrap(), None, "no entry since the last cut");
        drop(j);
        let j = Journal::open(&path, 3, &db).unwrap();
        assert_eq!(tick(&j), 5, "the aborted number 4 is not given again");
        j.done(5);
        assert!(j.rotate().unwrap().is_some());
        drop(j);
        assert_eq!(seqs(&path), [1, 2, 3, 4, 5]);
        assert_eq!(
            segments(&path).iter().map(|(n, _)| *n).collect::<Vec<_>>(),
            [4, 5]
        );
        // The database went back behind a `done` of a closed segment: refused.
        let e = Journal::open(&path, 2, &db).err().unwrap();
        assert!(e.0.contains("went back in time"), "{e}");
        // A crash after a segment was closed and before the new one began: its last
        // number (aborted, 6) is still not given again.
        let j = Journal::open(&path, 5, &db).unwrap();
        let aborted = tick(&j);
        assert_eq!(aborted, 6);
        j.abort(Some(aborted));
        assert!(j.rotate().unwrap().is_some());
        drop(j);
        std::fs::remove_file(&path).unwrap();
        let j = Journal::open(&path, 5, &db).unwrap();
        assert_eq!(tick(&j), 7);
        drop(j);
        assert_eq!(seqs(&path), [1, 2, 3, 4, 5, 6, 7]);
        // Only the segments every kept backup holds go.
        let j = Journal::open(&path, 7, &db).unwrap();
        assert_eq!(j.prune(4).segments, 1);
        assert_eq!(seqs(&path), [5, 6, 7]);
        assert_eq!(j.prune(3).segments, 0);
    }

    /// The entries above the database's number that are not marked aborted are pending
    /// (to be rolled forward), in order, whatever was aborted after them; nothing is marked
    /// aborted at open.
    #[test]
    fn entries_past_the_database_are_pending_not_aborted_at_open() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        let db = dir.path().join("db");
        let j = Journal::open(&path, 0, &db).unwrap();
        for n in 1..=5 {
            assert_eq!(tick(&j), n);
        }
        j.abort(Some(4));
        drop(j);
        let j = Journal::open(&path, 1, &db).unwrap();
        let pending: Vec<u64> = j.take_pending().iter().filter_map(Entry::seq).collect();
        assert_eq!(pending, [2, 3, 5]);
        assert!(j.take_pending().is_empty(), "taken once");
        assert_eq!(tick(&j), 6, "no number given twice");
        drop(j);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.matches(r#""kind":"aborted""#).count(), 1, "{text}");
        let j = Journal::open(&path, 6, &db).unwrap();
        assert!(j.take_pending().is_empty());
    }
}
