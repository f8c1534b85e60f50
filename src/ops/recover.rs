//! `castellan recover`: the database rebuilt from a backup and the journal.
//!
//! It rebuilds the database from the newest complete backup (its
//! header says the last journal entry it holds) and every journal entry after it, replayed
//! through the judge with its recorded time and entropy; the damaged folder is kept aside
//! (`db.damaged-<time>`), never deleted.
//!
//! The journal itself, what it holds and when it is written, is in [`crate::store::journal`].

use crate::config::Config;
use crate::error::ShellError;
use crate::serve::env::{Clock, Entropy};
use crate::serve::service::{Handled, Service};
use crate::store::journal::{read_all, Entry, Journal};
use crate::store::SledStore;
use castellan_judge::{Env, Judge, StoreError};
use serde::Serialize;
use std::collections::{BTreeSet, HashSet};
use std::path::{Path, PathBuf};

fn err(e: impl std::fmt::Display) -> StoreError {
    StoreError::new(e.to_string())
}

/// The mail a journal entry names, from the Maildir (cur/ or new/).
pub(crate) fn find_mail(inbox: &Path, file: &str) -> Option<PathBuf> {
    let new = inbox.join("new").join(file);
    if new.is_file() {
        return Some(new);
    }
    let cur = inbox.join("cur");
    let plain = cur.join(file);
    if plain.is_file() {
        return Some(plain);
    }
    let prefix = format!("{file}:2,");
    std::fs::read_dir(&cur)
        .ok()?
        .flatten()
        .find(|e| e.file_name().to_string_lossy().starts_with(&prefix))
        .map(|e| e.path())
}

pub(crate) fn entropy_of(hex_text: &str) -> Result<[u8; 32], String> {
    let v = hex::decode(hex_text).map_err(|e| e.to_string())?;
    v.try_into()
        .map_err(|_| "entropy is not 32 bytes".to_string())
}

/// What `castellan recover` did.
#[derive(Debug, Default, Clone, Serialize)]
pub struct Recovered {
    pub backup: Option<PathBuf>,
    pub from_seq: u64,
    pub to_seq: u64,
    pub mails: usize,
    pub ticks: usize,
    pub changes: usize,
    pub aborted_skipped: usize,
    pub sent_dropped: usize,
    pub set_aside: Option<PathBuf>,
}

impl Recovered {
    pub fn text(&self) -> String {
        format!(
            "recovered from {} (journal entries up to {}) and {} journal entries after it: \
             {} mail(s), {} deadline pass(es), {} game-master change(s); {} entr(ies) that \
             never committed skipped; {} reply(ies) already sent not queued again{}\n",
            self.backup
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_else(|| "no backup (an empty database)".into()),
            self.from_seq,
            self.to_seq.saturating_sub(self.from_seq),
            self.mails,
            self.ticks,
            self.changes,
            self.aborted_skipped,
            self.sent_dropped,
            self.set_aside
                .as_ref()
                .map(|p| format!("; the old database is kept at {}", p.display()))
                .unwrap_or_default()
        )
    }
}

/// `castellan recover`: rebuild the database from the newest complete backup and the
/// journal. The old database folder is kept aside; nothing is changed if anything fails.
pub fn recover(config: &Config, clock: Clock) -> Result<Recovered, ShellError> {
    let db = config.database_path();
    // Held from start to end, exclusively: no store of the database opens meanwhile (an
    // MTA's `ingest` waits, or leaves its mail in the inbox for the next pass), so none
    // handles a mail into the folder about to be set aside, or opens the path while the
    // rebuilt one is moved in.
    let patience = crate::store::patience(&config.data_dir, std::time::Duration::from_secs(30));
    let _lock = SledStore::lock_for_compaction_within(&db, patience).map_err(|e| {
        ShellError::Usage(format!(
            "the database at {} is in use by a running castellan (stop `serve` first): {e}",
            db.display()
        ))
    })?;
    let journal = config.journal_path();
    let first = FirstPass::read(&journal)?;

    let building = db.with_extension("recovering");
    if building.exists() {
        std::fs::remove_dir_all(&building).map_err(|e| ShellError::io(&building, e))?;
    }
    let store = SledStore::open(&building)?;
    let mut report = Recovered {
        backup: restore_newest_backup(config, &store)?,
        ..Recovered::default()
    };
    let base = store.journal_seq()?;
    report.from_seq = base;
    first.check_continuous(base, &journal, config)?;
    let svc = replaying_service(config, store, clock.clone())?;
    let inbox = config.inbox_path();
    let mut last = base;
    read_all(&journal, &mut |e| {
        let Some(seq) = e.seq() else { return Ok(()) };
        if seq <= base {
            return Ok(());
        }
        if first.is_aborted(seq) {
            report.aborted_skipped += 1;
            return Ok(());
        }
        replay(&svc, &inbox, e, seq, &mut report)?;
        last = seq;
        Ok(())
    })?;
    report.to_seq = last;
    let now = clock();
    for (key, item) in svc.store.outbox()? {
        if first.sent.contains(&item.mail.message_id) {
            svc.store.mark_sent(key, &item.mail.message_id, now)?;
            report.sent_dropped += 1;
        }
    }
    svc.store.flush()?;
    drop(svc);
    report.set_aside = swap_in(&db, &building, now)?;
    let j = Journal::open(&journal, last, &db)?;
    j.done(last);
    j.flush()?;
    Ok(report)
}

/// The journal's first reading: what never committed, which replies left, where the
/// entries start.
struct FirstPass {
    aborted: Vec<(u64, u64)>,
    sent: HashSet<String>,
    seqs: BTreeSet<u64>,
}

impl FirstPass {
    fn read(journal: &Path) -> Result<FirstPass, ShellError> {
        let mut first = FirstPass {
            aborted: Vec::new(),
            sent: HashSet::new(),
            seqs: BTreeSet::new(),
        };
        read_all(journal, &mut |e| {
            match e {
                Entry::Aborted { from, to } => first.aborted.push((from, to)),
                Entry::Sent { message_id } => {
                    first.sent.insert(message_id);
                }
                e => {
                    if let Some(s) = e.seq() {
                        first.seqs.insert(s);
                    }
                }
            }
            Ok(())
        })?;
        Ok(first)
    }

    fn is_aborted(&self, s: u64) -> bool {
        self.aborted.iter().any(|(f, t)| (*f..=*t).contains(&s))
    }

    /// Every entry after the backup (which holds those up to `base`) must be in the journal.
    fn check_continuous(
        &self,
        base: u64,
        journal: &Path,
        config: &Config,
    ) -> Result<(), ShellError> {
        let needed: Vec<u64> = self.seqs.range(base + 1..).copied().collect();
        if let Some(first) = needed.first() {
            if *first != base + 1 {
                return Err(ShellError::BadInput {
                    what: format!("journal {}", journal.display()),
                    why: format!(
                        "the newest good backup holds entries up to {base}, but the journal \
                         starts again at {first}: what was handled in between is not recorded \
                         anywhere (the journal's older segments are removed once every kept \
                         backup holds them, so a backup among those kept must be readable: \
                         put a good one back in {}); nothing was changed",
                        config.backup_dir().display()
                    ),
                });
            }
        }
        Ok(())
    }
}

/// The newest rolling backup that checks whole, restored into `store`; its path.
fn restore_newest_backup(
    config: &Config,
    store: &SledStore,
) -> Result<Option<PathBuf>, ShellError> {
    for (_, file) in crate::ops::rolling::list(&config.backup_dir()) {
        let checked = std::fs::File::open(&file)
            .map_err(|e| e.to_string())
            .and_then(|f| {
                crate::ops::backup::check(&mut std::io::BufReader::new(f)).map_err(|e| e.0)
            });
        match checked {
            Ok(_) => {
                crate::ops::backup::restore_file(store, &file, false)?;
                return Ok(Some(file));
            }
            Err(why) => tracing::warn!(file = %file.display(), "backup skipped: {why}"),
        }
    }
    Ok(None)
}

/// The service the journal is replayed through: on the database being rebuilt, one mail
/// at a time, writing no journal of its own.
fn replaying_service(
    config: &Config,
    store: SledStore,
    clock: Clock,
) -> Result<Service, ShellError> {
    let templates = crate::serve::templates::load_templates_lenient(&config.templates_dir)?;
    Ok(Service {
        config: config.clone(),
        store,
        judge: Judge::new(config.judge.clone(), crate::games::all(), templates),
        clock,
        entropy: Entropy::Os,
        answers: Default::default(),
        journal: std::sync::Arc::new(Journal::closed()),
        marks_waiting: Default::default(),
        prestaged: Default::default(),
        flushed_below: Default::default(),
        judges: 1,
        judge_batch_first: false,
        group: 1,
        batch_times: Default::default(),
        workers: Default::default(),
        pending: Default::default(),
    })
}

/// Journal entry `seq` made again, with its recorded time and entropy.
fn replay(
    svc: &Service,
    inbox: &Path,
    e: Entry,
    seq: u64,
    report: &mut Recovered,
) -> Result<(), ShellError> {
    let bad = |why: String| ShellError::BadInput {
        what: format!("journal entry {seq}"),
        why,
    };
    match e {
        Entry::Mail {
            file, at, entropy, ..
        } => {
            let path = find_mail(inbox, &file).ok_or_else(|| {
                bad(format!(
                    "its mail {file} is in neither {}/cur nor {}/new; nothing was changed",
                    inbox.display(),
                    inbox.display()
                ))
            })?;
            let raw = std::fs::read(&path).map_err(|e| ShellError::io(&path, e))?;
            let env = Env {
                now: at,
                entropy: entropy_of(&entropy).map_err(bad)?,
            };
            replay_mail(svc, &raw, env, seq).map_err(|e| bad(e.to_string()))?;
            report.mails += 1;
        }
        Entry::Raw {
            raw, at, entropy, ..
        } => {
            let raw = hex::decode(raw).map_err(|e| bad(e.to_string()))?;
            let env = Env {
                now: at,
                entropy: entropy_of(&entropy).map_err(bad)?,
            };
            replay_mail(svc, &raw, env, seq).map_err(|e| bad(e.to_string()))?;
            report.mails += 1;
        }
        Entry::Tick { at, entropy, .. } => {
            let env = Env {
                now: at,
                entropy: entropy_of(&entropy).map_err(bad)?,
            };
            svc.apply_tick(env, Some(seq))?;
            report.ticks += 1;
        }
        Entry::Changes { changes, .. } => {
            svc.store.commit_unflushed_seq(&changes, Some(seq))?;
            report.changes += 1;
        }
        _ => {}
    }
    Ok(())
}

/// The rebuilt database moved in at `db`, the old one (if any) kept aside under a name of
/// its own; where it was kept.
fn swap_in(db: &Path, building: &Path, now: i64) -> Result<Option<PathBuf>, ShellError> {
    let mut set_aside = None;
    if db.exists() {
        // A name of its own (a recover interrupted in the same second left one).
        let mut aside = db.with_extension(format!("damaged-{now}"));
        let mut n = 1;
        while aside.exists() {
            aside = db.with_extension(format!("damaged-{now}-{n}"));
            n += 1;
        }
        std::fs::rename(db, &aside).map_err(|e| ShellError::io(db, e))?;
        set_aside = Some(aside);
    }
    std::fs::rename(building, db).map_err(|e| ShellError::io(building, e))?;
    if let Some(parent) = db.parent().filter(|p| !p.as_os_str().is_empty()) {
        castellan_mail::sync_dir(parent).map_err(|e| ShellError::io(parent, e))?;
    }
    Ok(set_aside)
}

fn replay_mail(svc: &Service, raw: &[u8], env: Env, seq: u64) -> Result<(), StoreError> {
    match svc.apply_mail(raw, env, Some(seq))? {
        Handled::Committed { .. } => Ok(()),
        other => Err(err(format!(
            "replaying it gives {other:?}, not what was recorded: the Maildir file was changed"
        ))),
    }
}

/// `castellan recover`, reported.
pub fn main(config: &Config) -> Result<std::process::ExitCode, ShellError> {
    let r = recover(config, crate::serve::env::system_clock())?;
    print!("{}", r.text());
    Ok(std::process::ExitCode::SUCCESS)
}
