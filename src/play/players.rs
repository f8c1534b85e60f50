//! Bot players that play by email through the real pipeline: each order mail is a raw
//! RFC 5322 message delivered into the Maildir inbox, handled by the [`Service`] (parse →
//! judge → sled commit → acknowledge) and answered into the file outbox. A bot learns its
//! token from its welcome mail's machine-readable headers (`X-Castellan-Game`,
//! `X-Castellan-Token`: never from the wording, so any template may be reworded), writes it
//! in the subject tag as a mail client's reply would (`[castle-1 #k3j9x] orders`), and
//! decides its orders with the game's bot (`Session::bot_turn`). Used by `castellan demo`,
//! `castellan bench` and the end-to-end tests.

pub use crate::error::PlayError;
use crate::error::ShellError;
use crate::serve::service::Service;
use castellan_judge::{AdminCommand, GameRecord, SeatRecord, Status, Store, StoredGame};
use castellan_mail::Maildir;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

/// The domain of bot players' addresses.
pub const PLAYER_DOMAIN: &str = "players.invalid";

/// Seat `i` (1-based) of the first game a [`MailPlayers`] creates.
pub fn player_address(i: usize) -> String {
    format!("bot{i}@{PLAYER_DOMAIN}")
}

/// Seat `i` (1-based) of the `n`th game (1-based) a [`MailPlayers`] creates: every game has
/// its own people, as on a real judge (and each stays under the per-sender rate limit).
pub fn seat_address(n: usize, i: usize) -> String {
    if n <= 1 {
        player_address(i)
    } else {
        format!("bot{i}.g{n}@{PLAYER_DOMAIN}")
    }
}

/// A mail one bot sent, for the caller's bookkeeping.
#[derive(Debug, Clone)]
pub struct Sent {
    pub game: String,
    pub seat: usize,
    pub message_id: String,
    pub path: PathBuf,
    pub delivered_at: std::time::Instant,
}

pub struct MailPlayers {
    inbox: Maildir,
    outbox_dir: PathBuf,
    /// Outbox files already read.
    seen: BTreeSet<PathBuf>,
    /// (address, game id) → token, learnt from welcome mails' headers.
    tokens: BTreeMap<(String, String), String>,
    sent: usize,
    created: usize,
    label: String,
}

impl MailPlayers {
    /// `label` keeps Message-IDs of several runs apart.
    pub fn new(svc: &Service, label: &str) -> Result<MailPlayers, PlayError> {
        let inbox =
            Maildir::open(svc.config.inbox_path()).map_err(|e| PlayError::Io(e.to_string()))?;
        Ok(MailPlayers {
            inbox,
            outbox_dir: svc.config.outbox_path(),
            seen: BTreeSet::new(),
            tokens: BTreeMap::new(),
            sent: 0,
            created: 0,
            label: label.to_string(),
        })
    }

    /// Mails sent so far.
    pub fn sent(&self) -> usize {
        self.sent
    }

    /// Create a game by the game master's local command, with `players` bots
    /// ([`seat_address`]). Returns the game id.
    pub fn create_game(
        &mut self,
        svc: &Service,
        game: &str,
        players: usize,
        options: &[(String, String)],
    ) -> Result<String, ShellError> {
        self.created += 1;
        let n = self.created;
        let players = (1..=players)
            .map(|i| (format!("Bot{i}"), seat_address(n, i)))
            .collect();
        let (changes, _) = svc.judge.admin(
            &svc.store,
            AdminCommand::New {
                game: game.to_string(),
                players,
                gm: format!("gm@{PLAYER_DOMAIN}"),
                options: options.to_vec(),
            },
            &svc.env(),
        )?;
        svc.commit(&changes)?;
        // The new game's id from the data the judge returned, not from its wording.
        changes
            .games
            .first()
            .map(|g| g.record.id.clone())
            .ok_or_else(|| {
                ShellError::Store(castellan_judge::StoreError::new(
                    "the judge created no game record",
                ))
            })
    }

    /// Read the outbox files written since the last call; learn tokens from welcome mails'
    /// `X-Castellan-*` headers. Returns the new files.
    pub fn read_outbox(&mut self) -> Result<Vec<(PathBuf, castellan_mail::Inbound)>, PlayError> {
        let mut out = Vec::new();
        let rd = match std::fs::read_dir(&self.outbox_dir) {
            Ok(rd) => rd,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(out),
            Err(e) => return Err(PlayError::Io(e.to_string())),
        };
        let mut paths: Vec<PathBuf> = rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().and_then(|e| e.to_str()) == Some("eml"))
            .filter(|p| !self.seen.contains(p))
            .collect();
        paths.sort();
        for p in paths {
            let raw = std::fs::read(&p).map_err(|e| PlayError::Io(e.to_string()))?;
            self.seen.insert(p.clone());
            let Ok(m) = castellan_mail::parse(&raw, usize::MAX) else {
                continue;
            };
            let headers = castellan_mail::castellan_headers(&raw);
            let find = |name: &str| {
                headers
                    .iter()
                    .find(|(n, _)| n.eq_ignore_ascii_case(name))
                    .map(|(_, v)| v.clone())
            };
            if let (Some(game), Some(token)) = (find("X-Castellan-Game"), find("X-Castellan-Token"))
            {
                // The welcome goes to the player's address: the first To.
                for to in &m.to {
                    self.tokens
                        .insert((to.clone(), game.clone()), token.clone());
                }
            }
            out.push((p, m));
        }
        Ok(out)
    }

    /// Deliver one order mail for the first seat the game waits for that a person (not a
    /// stand-in bot) holds. Returns None when the game is over or waits for nobody.
    pub fn play_one(
        &mut self,
        svc: &Service,
        game: &str,
        max_lines: usize,
    ) -> Result<Option<Sent>, PlayError> {
        let stored = svc
            .store
            .game(game)
            .map_err(|e| PlayError::Io(e.0))?
            .ok_or_else(|| PlayError::Io(format!("no game {game}")))?;
        let rec = &stored.record;
        if rec.status != Status::Running {
            return Ok(None);
        }
        let Some(session) = load_session(&stored)? else {
            return Ok(None);
        };
        let Some(seat) = session
            .awaiting()
            .into_iter()
            .find(|&s| rec.seats.get(s).is_some_and(SeatRecord::played_by_mail))
        else {
            return Ok(None);
        };
        let lines = session.bot_turn(seat, max_lines);
        let mut body = String::new();
        for l in &lines {
            body.push_str(l);
            body.push('\n');
        }
        self.send(svc, rec, seat, &body).map(Some)
    }

    /// Deliver a mail with `body` from the person at `seat` of `rec`, authenticated by the
    /// seat's token in the subject tag, as a reply in a mail client would be.
    pub fn send(
        &mut self,
        svc: &Service,
        rec: &GameRecord,
        seat: usize,
        body: &str,
    ) -> Result<Sent, PlayError> {
        let address = rec
            .seats
            .get(seat)
            .and_then(|s| s.address.clone())
            .ok_or_else(|| PlayError::Io(format!("{}: seat {seat} has no player", rec.id)))?;
        let key = (address.clone(), rec.id.clone());
        if !self.tokens.contains_key(&key) {
            self.read_outbox()?;
        }
        let token = self
            .tokens
            .get(&key)
            .cloned()
            .ok_or_else(|| PlayError::NoToken {
                game: rec.id.clone(),
                seat,
            })?;
        self.sent += 1;
        let message_id = format!("<{}-{}@{PLAYER_DOMAIN}>", self.label, self.sent);
        let subject = format!("[{} #{token}] orders", rec.id);
        let raw = order_mail(
            &address,
            &rec.seats[seat].name,
            &svc.config.judge.address,
            &message_id,
            &subject,
            body,
        );
        let path = self
            .inbox
            .deliver(raw.as_bytes())
            .map_err(|e| PlayError::Io(e.to_string()))?;
        Ok(Sent {
            game: rec.id.clone(),
            seat,
            message_id,
            path,
            delivered_at: std::time::Instant::now(),
        })
    }

    /// The judge's direct answer to one of our mails (threaded by In-Reply-To), if written.
    pub fn reply_to(&mut self, message_id: &str) -> Result<Option<String>, PlayError> {
        self.read_outbox()?;
        for p in &self.seen {
            let Ok(raw) = std::fs::read(p) else { continue };
            if let Ok(m) = castellan_mail::parse(&raw, usize::MAX) {
                if m.in_reply_to.as_deref() == Some(message_id) {
                    return Ok(Some(m.body));
                }
            }
        }
        Ok(None)
    }
}

/// Progress marker of a game: (history length, status, awaited seats).
pub fn progress(svc: &Service, game: &str) -> Result<(usize, Status, Vec<usize>), PlayError> {
    let rec = svc
        .store
        .game(game)
        .map_err(|e| PlayError::Io(e.0))?
        .ok_or_else(|| PlayError::Io(format!("no game {game}")))?;
    let (len, awaiting) = match load_session(&rec)? {
        Some(s) => (s.history_len(), s.awaiting()),
        None => (0, Vec::new()),
    };
    Ok((len, rec.record.status, awaiting))
}

/// The game of a stored record (None while it is forming).
pub fn load_session(
    g: &StoredGame,
) -> Result<Option<Box<dyn castellan_engine::Session>>, PlayError> {
    let Some(table) = &g.table else {
        return Ok(None);
    };
    let info = crate::games::find(&g.record.game)
        .ok_or_else(|| PlayError::Io(format!("unknown game {}", g.record.game)))?;
    (info.load)(table.clone()).map(Some).map_err(PlayError::Io)
}

/// A plain-text order mail as a mail client would write it.
pub fn order_mail(
    from: &str,
    name: &str,
    to: &str,
    message_id: &str,
    subject: &str,
    body: &str,
) -> String {
    format!(
        "From: {name} <{from}>\r\nTo: {to}\r\nSubject: {subject}\r\nMessage-ID: {message_id}\r\nDate: Mon, 23 Nov 2026 10:00:00 +0000\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}",
        body.replace('\n', "\r\n")
    )
}

/// What [`play_games`] did.
pub struct Finished {
    pub mails: usize,
    pub passes: usize,
}

/// Drive games by mail until each is over or waits for nobody, or `max_mails` mails went.
/// After each round of deliveries (one mail per game still going) `pass` is called.
pub fn play_games<F>(
    svc: &Service,
    bots: &mut MailPlayers,
    games: &[String],
    max_mails: usize,
    max_lines: usize,
    mut pass: F,
) -> Result<Finished, PlayError>
where
    F: FnMut(&[Sent]) -> Result<(), PlayError>,
{
    let mut stalls: BTreeMap<String, usize> = BTreeMap::new();
    let mut done = Finished {
        mails: 0,
        passes: 0,
    };
    loop {
        let mut round = Vec::new();
        let mut before = BTreeMap::new();
        for g in games {
            if done.mails + round.len() >= max_mails {
                break;
            }
            before.insert(g.clone(), progress(svc, g)?);
            if let Some(s) = bots.play_one(svc, g, max_lines)? {
                round.push(s);
            }
        }
        if round.is_empty() {
            return Ok(done);
        }
        done.mails += round.len();
        pass(&round)?;
        done.passes += 1;
        for s in &round {
            let after = progress(svc, &s.game)?;
            if Some(&after) == before.get(&s.game) {
                let n = stalls.entry(s.game.clone()).or_default();
                *n += 1;
                if *n >= 3 {
                    let reply = bots
                        .reply_to(&s.message_id)?
                        .unwrap_or_else(|| "nothing".into());
                    return Err(PlayError::Stalled {
                        game: s.game.clone(),
                        reply,
                    });
                }
            } else {
                stalls.insert(s.game.clone(), 0);
            }
        }
    }
}
