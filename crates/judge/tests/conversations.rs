//! Golden conversations (docs: the project's style guide): each folder of
//! tests/conversations/ is a conversation with the judge on the toy game, played step by
//! step through `Judge::handle` and `Judge::tick` with a fixed clock and fixed entropy.
//!
//! * `NN-in.txt`: a mail: header lines (`From:`, `Subject:`, optional `To:`), a blank
//!   line, the body. `{end-code:ADDR}` stands for the code END GAME last answered ADDR with.
//!   `{password:ADDR}` and `{token:ADDR}` stand for the password and token
//!   the judge mailed to ADDR (read from its welcome mails).
//! * `opt-in` (an empty file): the judge runs with `confirm_addresses` on.
//! * `NN-tick-+49h`: the clock moves to 49 hours after the conversation's start; tick.
//! * `NN-out-ADDR.txt`: every mail step NN sent to ADDR, in order, each as `To:`,
//!   `Subject:`, `In-Reply-To:`, extra headers, its attachments (`Attachment: name (type,
//!   size)`), a blank line and the body, separated by a line `=====`.
//!
//! Every mismatch is named (missing, unexpected or different files) in one run;
//! `CASTELLAN_BLESS=1 cargo test -p castellan-judge --test conversations` rewrites the out
//! files (read the diff before keeping it).

use castellan_engine::game_info;
use castellan_engine::toy::Race;
use castellan_judge::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const T0: i64 = 1_736_877_600; // Tue 14 Jan 2025 18:00 UTC

/// The judge of a conversation; `opt_in`: its folder holds a file `opt-in`, and the
/// double opt-in is on (an address that never wrote gets one mail until it does).
fn judge(opt_in: bool) -> Judge {
    let config = JudgeConfig {
        address: "judge@example.org".into(),
        domain: "example.org".into(),
        password_memory_kib: 8,
        password_iterations: 1,
        // Most tests name players who never wrote; attacks.rs tests the double opt-in.
        confirm_addresses: opt_in,
        ..JudgeConfig::default()
    };
    Judge::new(config, vec![game_info::<Race>()], Templates::builtin())
}

fn env(now: i64) -> Env {
    let mut e = [0u8; 32];
    e[..8].copy_from_slice(&now.to_le_bytes());
    Env { now, entropy: e }
}

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conversations")
}

/// A mail as the out files show it.
fn show(m: &Outbound) -> String {
    let mut s = format!(
        "To: {}\nSubject: {}\nIn-Reply-To: {}\n",
        m.to,
        m.subject,
        m.in_reply_to.as_deref().unwrap_or("")
    );
    // List-Unsubscribe is the same on every mail: intake.rs checks it once.
    for (k, v) in m.headers.iter().filter(|(k, _)| k != "List-Unsubscribe") {
        s.push_str(&format!("{k}: {v}\n"));
    }
    // A file the mail carries: its name, type and size (commands.rs reads it whole).
    for a in &m.attachments {
        s.push_str(&format!(
            "Attachment: {} ({}, {} bytes)\n",
            a.filename,
            a.content_type,
            a.content.len()
        ));
    }
    s.push('\n');
    s.push_str(&m.body);
    s
}

/// Password and token of a welcome mail (English or French).
fn credentials(m: &Outbound) -> Option<(String, String)> {
    let get = |keys: &[&str]| {
        m.body.lines().find_map(|l| {
            keys.iter()
                .find_map(|k| l.strip_prefix(k))
                .map(|v| v.trim().to_string())
        })
    };
    Some((
        get(&["Your password:", "Votre mot de passe :"])?,
        get(&["Your token:", "Votre jeton :"])?,
    ))
}

/// The password of a campaign created by the mail's addressee (its CAMPAIGN answer).
fn campaign_password(m: &Outbound) -> Option<String> {
    ["Its password: ", "Son mot de passe : "]
        .iter()
        .find_map(|k| {
            let i = m.body.find(k)? + k.len();
            m.body[i..].split_whitespace().next().map(str::to_string)
        })
}

fn inbound(
    step: &str,
    text: &str,
    creds: &BTreeMap<String, (String, String)>,
    campaign_passwords: &BTreeMap<String, String>,
) -> Inbound {
    let mut text = text.to_string();
    for (addr, (pw, token)) in creds {
        text = text
            .replace(&format!("{{password:{addr}}}"), pw)
            .replace(&format!("{{token:{addr}}}"), token);
    }
    for (addr, pw) in campaign_passwords {
        text = match addr.strip_prefix("end:") {
            Some(a) => text.replace(&format!("{{end-code:{a}}}"), pw),
            None => text.replace(&format!("{{campaign-password:{addr}}}"), pw),
        };
    }
    let (head, body) = text.split_once("\n\n").unwrap_or((&text, ""));
    let mut m = Inbound {
        message_id: format!("<{step}@conversation.example>"),
        to: vec!["judge@example.org".into()],
        body: body.to_string(),
        ..Default::default()
    };
    for l in head.lines() {
        if let Some(v) = l.strip_prefix("From:") {
            m.from = v.trim().into();
        } else if let Some(v) = l.strip_prefix("Subject:") {
            m.subject = v.trim().into();
        } else if let Some(v) = l.strip_prefix("To:") {
            m.to = vec![v.trim().into()];
        }
    }
    m
}

/// What playing a conversation gave: the mismatches with its out files, and every answer
/// the judge gave on the way (`family/kind[/reason]`, as `Changes::answers` names them).
struct Played {
    problems: Vec<String>,
    answers: std::collections::BTreeSet<String>,
}

/// Play one conversation against its out files.
fn play(conv: &Path) -> Played {
    let bless = std::env::var("CASTELLAN_BLESS").is_ok();
    let j = judge(conv.join("opt-in").exists());
    let store = MemoryStore::new();
    let mut creds: BTreeMap<String, (String, String)> = BTreeMap::new();
    let mut campaign_passwords: BTreeMap<String, String> = BTreeMap::new();
    let mut names: Vec<String> = std::fs::read_dir(conv)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut problems = Vec::new();
    let mut now = T0;
    let mut produced: BTreeMap<String, String> = BTreeMap::new();
    let mut answers = std::collections::BTreeSet::new();
    for name in names
        .iter()
        .filter(|n| !n.contains("-out-") && *n != "opt-in")
    {
        let step = name.split('-').next().unwrap().to_string();
        let changes = if let Some(h) = name.strip_prefix(&format!("{step}-tick-+")) {
            let hours: i64 = h.trim_end_matches('h').parse().expect("NN-tick-+HHh");
            now = T0 + hours * 3600;
            j.tick(&store, &env(now)).unwrap()
        } else {
            now += 60;
            let text = std::fs::read_to_string(conv.join(name)).unwrap();
            j.handle(
                &store,
                &inbound(&step, &text, &creds, &campaign_passwords),
                &env(now),
            )
            .unwrap()
        };
        store.commit(&changes).unwrap();
        answers.extend(changes.answers.iter().cloned());
        for l in changes.log.iter().filter(|l| l.kind == "template") {
            problems.push(format!("{}/{name}: {}", conv.display(), l.text));
        }
        for m in &changes.outbox {
            if let Some(c) = credentials(m) {
                creds.insert(m.to.clone(), c);
            }
            if let Some(p) = campaign_password(m) {
                campaign_passwords.insert(m.to.clone(), p);
            }
            // END GAME's confirmation code, as `{end-code:ADDR}` in the next steps.
            if let Some(c) = m.body.lines().find_map(|l| {
                l.strip_prefix("  END GAME ")
                    .or_else(|| l.strip_prefix("  FIN PARTIE "))
            }) {
                campaign_passwords.insert(format!("end:{}", m.to), c.trim().to_string());
            }
            let file = format!("{step}-out-{}.txt", m.to);
            let e = produced.entry(file).or_default();
            if !e.is_empty() {
                e.push_str("=====\n");
            }
            e.push_str(&show(m));
        }
    }
    let expected: Vec<&String> = names.iter().filter(|n| n.contains("-out-")).collect();
    if bless {
        for n in &expected {
            std::fs::remove_file(conv.join(n)).unwrap();
        }
        for (n, text) in &produced {
            std::fs::write(conv.join(n), text).unwrap();
        }
        return Played { problems, answers };
    }
    let conv_name = conv.file_name().unwrap().to_string_lossy();
    for n in &expected {
        match produced.get(*n) {
            None => problems.push(format!(
                "{conv_name}/{n}: expected, but the judge sent no such mail"
            )),
            Some(got) => {
                let want = std::fs::read_to_string(conv.join(n)).unwrap();
                if &want != got {
                    problems.push(format!(
                        "{conv_name}/{n} differs:\n--- want\n{want}\n--- got\n{got}"
                    ));
                }
            }
        }
    }
    for n in produced.keys() {
        if !expected.contains(&n) {
            problems.push(format!(
                "{conv_name}/{n}: the judge sent it, but no such file is expected"
            ));
        }
    }
    Played { problems, answers }
}

fn conversations() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    v.sort();
    v
}

#[test]
fn every_conversation_plays_as_written() {
    let convs = conversations();
    assert!(convs.len() >= 3, "the conversations are missing");
    let mut problems = Vec::new();
    for c in convs {
        problems.extend(play(&c).problems);
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

/// Every kind of mail and every answer, in both languages, appears in some expected file:
/// each entry is (language, what, a phrase only that template writes).
#[test]
fn every_mail_kind_and_answer_appears_in_a_conversation() {
    const MARKERS: &[(&str, &str, &str)] = &[
        ("en", "reply", "The judge answers your mail."),
        ("fr", "reply", "L'arbitre répond à votre courriel."),
        ("en", "report", "Dice audit (VERIFY checks it):"),
        (
            "fr",
            "report",
            "Contrôle des dés (AUDIT le refait) : chaîne S0",
        ),
        ("en", "final report", "The game is over:"),
        ("fr", "final report", "La partie est finie :"),
        ("en", "private", "this mail is for you alone"),
        ("fr", "private", "ce courriel est pour vous seul"),
        ("en", "your move", "Turn 1: your move"),
        ("fr", "your move", "Tour 1 : à vous de jouer"),
        ("en", "welcome", "Your password:"),
        ("fr", "welcome", "Votre mot de passe :"),
        ("en", "reminder", "waits for your orders"),
        ("fr", "reminder", "attend vos ordres"),
        ("en", "notice joined", "took a seat"),
        ("fr", "notice joined", "a pris une place"),
        ("en", "notice paused", "paused the game"),
        ("fr", "notice paused", "mis la partie en pause"),
        ("en", "notice extended", "moved the deadline"),
        ("fr", "notice extended", "repoussé l'échéance"),
        ("en", "press", "Press from"),
        ("fr", "press", "Message de"),
        ("en", "help", "this text"),
        ("fr", "help", "ce texte"),
        (
            "en",
            "InfoAnswer::NoTerritories",
            "This game has no territories",
        ),
        (
            "fr",
            "InfoAnswer::NoTerritories",
            "Ce jeu n'a pas de territoires",
        ),
        (
            "en",
            "missed deadline",
            "missed the deadline; by the rules' default",
        ),
        ("en", "JoinAnswer::Joined", "You have a seat in"),
        ("fr", "JoinAnswer::Joined", "Vous avez une place dans"),
        ("en", "JoinAnswer::WrongPassword", "Wrong join password"),
        (
            "fr",
            "JoinAnswer::WrongPassword",
            "Mauvais mot de passe d'entrée",
        ),
        ("en", "JoinAnswer::NoGame", "There is no game \""),
        ("fr", "JoinAnswer::NoGame", "Il n'y a pas de partie"),
        (
            "en",
            "ObserveAnswer::Observing",
            "You now receive every public report",
        ),
        (
            "fr",
            "ObserveAnswer::Observing",
            "Vous recevez désormais chaque rapport public",
        ),
        (
            "en",
            "PressAnswer::Sent",
            "Your message went to every other player",
        ),
        ("fr", "PressAnswer::Sent", "Votre message est parti"),
        ("en", "SeatAnswer::Language", "from now on."),
        ("fr", "SeatAnswer::Language", "LANGUE race-1"),
        ("en", "SeatAnswer::Format", "come as text only from now on"),
        (
            "fr",
            "SeatAnswer::Format",
            "arrivent désormais en texte seul",
        ),
        ("en", "SeatAnswer::NoSeat", "SET FORMAT refused"),
        ("fr", "SeatAnswer::NoSeat", "RÉGLER FORMAT refusé"),
        (
            "en",
            "CmdError::FormatArgs",
            "SET FORMAT takes TEXT or HTML",
        ),
        (
            "fr",
            "CmdError::FormatArgs",
            "RÉGLER FORMAT prend TEXTE ou HTML",
        ),
        ("en", "SeatAnswer::Over", "race-1 is over."),
        ("fr", "SeatAnswer::Over", "race-1 est finie."),
        ("en", "OrdersAnswer::Applied", "order line applied"),
        ("fr", "OrdersAnswer::Applied", "ligne d'ordres appliquée"),
        ("en", "OrdersAnswer::Checked", "CHECK applies nothing"),
        ("fr", "OrdersAnswer::Checked", "VÉRIFIER n'applique rien"),
        (
            "en",
            "OrdersAnswer::Refused",
            "None of these orders was applied",
        ),
        (
            "fr",
            "OrdersAnswer::Refused",
            "Aucun de ces ordres n'a été appliqué",
        ),
        (
            "en",
            "CreateAnswer::Created",
            "is created; you are its game master",
        ),
        (
            "fr",
            "CreateAnswer::Created",
            "vous en êtes le maître de jeu",
        ),
        ("en", "CreateError::UnknownKind", "has no prompt of kind"),
        (
            "fr",
            "CreateError::UnknownKind",
            "ne pose pas de question du genre",
        ),
        ("en", "InfoAnswer::Status", "Your private view ("),
        ("fr", "InfoAnswer::Status", "Votre vue privée ("),
        ("en", "InfoAnswer::History", "Turns 1 to"),
        ("fr", "InfoAnswer::History", "Tour 1 :"),
        ("en", "InfoAnswer::List", "== LIST =="),
        ("fr", "InfoAnswer::List", "== LISTE =="),
        ("en", "InfoAnswer::Verify", "== VERIFY race-1 =="),
        ("fr", "InfoAnswer::Verify", "== AUDIT race-1 =="),
        (
            "en",
            "JoinAnswer::Started",
            "has already started. Nothing changed.",
        ),
        (
            "fr",
            "JoinAnswer::Started",
            "a déjà commencé. Rien n'a changé.",
        ),
        (
            "en",
            "AuthError::WrongCredentials",
            "Wrong password or token for",
        ),
        (
            "fr",
            "AuthError::WrongCredentials",
            "Mauvais mot de passe ou jeton pour",
        ),
        (
            "en",
            "IntakeAnswer::NotUnderstood",
            "These lines are not commands",
        ),
        (
            "fr",
            "IntakeAnswer::NotUnderstood",
            "Ces lignes ne sont pas des commandes",
        ),
        (
            "en",
            "IntakeAnswer::Unread",
            "These lines are neither commands nor orders",
        ),
        (
            "fr",
            "IntakeAnswer::Unread",
            "Ces lignes ne sont ni des commandes ni des ordres",
        ),
        (
            "en",
            "IntakeAnswer::NothingToDo",
            "Your mail had no command and no orders",
        ),
        (
            "en",
            "CmdError::VacationDays",
            "write a number of days from 1, or OFF",
        ),
        (
            "fr",
            "CmdError::VacationDays",
            "écrivez un nombre de jours à partir de 1, ou NON",
        ),
        ("en", "GmAnswer::Done", "The game goes on."),
        (
            "en",
            "RecordAnswer::Record",
            "Reliability: 0% (turns answered",
        ),
        (
            "fr",
            "RecordAnswer::Record",
            "Fiabilité : 100 % (tours joués",
        ),
        (
            "en",
            "RecordAnswer::NotYours",
            "A record is told to its own address only",
        ),
        (
            "fr",
            "RecordAnswer::NotYours",
            "Un bilan n'est donné qu'à sa propre adresse",
        ),
        (
            "en",
            "RecordAnswer::NotAnAddress",
            "is not a mail address. Write: RECORD",
        ),
        (
            "fr",
            "RecordAnswer::NotAnAddress",
            "n'est pas une adresse de courriel",
        ),
        (
            "en",
            "JoinAnswer::Unreliable",
            "asks players with a reliability of at least",
        ),
        (
            "fr",
            "JoinAnswer::Unreliable",
            "demande des joueurs d'une fiabilité d'au moins",
        ),
        (
            "en",
            "CreateError::BadReliability",
            "write a percentage from 0 to 100",
        ),
        (
            "en",
            "CampaignAnswer::Created",
            "is created; you are its game master. Its password:",
        ),
        (
            "fr",
            "CampaignAnswer::Created",
            "vous en êtes le maître de jeu. Son mot de passe :",
        ),
        ("en", "CampaignAnswer::Added", "now counts in campaign-1"),
        (
            "fr",
            "CampaignAnswer::Added",
            "compte désormais dans campaign-2",
        ),
        (
            "en",
            "CampaignAnswer::Standings",
            "== STANDINGS campaign-1 ==",
        ),
        (
            "fr",
            "CampaignAnswer::Standings",
            "== PALMARÈS campaign-2 ==",
        ),
        ("en", "CampaignAnswer::History", "== HISTORY campaign-1 =="),
        (
            "fr",
            "CampaignAnswer::History",
            "== HISTORIQUE campaign-2 ==",
        ),
        (
            "en",
            "CampaignAnswer::WrongPassword",
            "Wrong password for campaign-1",
        ),
        ("en", "CampaignAnswer::NoCampaign", "There is no campaign"),
        (
            "fr",
            "CampaignAnswer::NoCampaign",
            "Il n'y a pas de campagne",
        ),
        (
            "en",
            "CampaignError::TooFewPlayers",
            "a tournament needs at least",
        ),
        (
            "fr",
            "CampaignError::TooFewPlayers",
            "un tournoi en demande au moins",
        ),
        ("en", "standings mail", "the standings, scored by wins."),
        (
            "fr",
            "standings mail",
            "le classement, aux points « victoires ».",
        ),
        (
            "en",
            "CmdError::CampaignArgs",
            "CAMPAIGN takes NEW and a name",
        ),
        (
            "fr",
            "CmdError::CampaignArgs",
            "CAMPAGNE prend NOUVELLE et un nom",
        ),
        (
            "en",
            "CmdError::StandingsArgs",
            "STANDINGS takes a campaign id",
        ),
        (
            "fr",
            "CmdError::StandingsArgs",
            "PALMARÈS prend l'id d'une campagne",
        ),
        ("fr", "GmAnswer::Done", "La partie reprend."),
        // Dice peeking.
        (
            "en",
            "OrdersAnswer::Refused stood",
            "A die once rolled stands",
        ),
        ("fr", "OrdersAnswer::Refused stood", "Un dé lancé compte"),
        (
            "en",
            "AuthError::OneTryPerMail",
            "A mail may try one password or token",
        ),
        (
            "fr",
            "AuthError::OneTryPerMail",
            "Un courriel ne peut essayer qu'un mot de passe",
        ),
        (
            "en",
            "AuthError::Locked",
            "Too many wrong passwords were tried",
        ),
        ("fr", "AuthError::Locked", "Trop de mauvais mots de passe"),
        (
            "en",
            "notice password_locked",
            "wrong passwords were tried this hour",
        ),
        (
            "fr",
            "notice password_locked",
            "mauvais mots de passe ont été essayés",
        ),
        (
            "en",
            "CreateError::BadName",
            "is not usable: a name has 1 to 32",
        ),
        (
            "fr",
            "CreateError::BadName",
            "n'est pas utilisable : un nom a de 1 à 32",
        ),
        (
            "en",
            "IntakeAnswer::TooManyCommands",
            "A mail may hold at most 20 commands",
        ),
        (
            "fr",
            "IntakeAnswer::TooManyCommands",
            "Un courriel contient au plus 20 commandes",
        ),
        (
            "en",
            "IntakeAnswer::ReplyCut",
            "This reply reached its size limit",
        ),
        (
            "fr",
            "IntakeAnswer::ReplyCut",
            "Cette réponse a atteint sa taille maximale",
        ),
    ];
    let mut all = String::new();
    for c in conversations() {
        for e in std::fs::read_dir(&c).unwrap() {
            let p = e.unwrap().path();
            if p.to_string_lossy().contains("-out-") {
                all.push_str(&std::fs::read_to_string(p).unwrap());
            }
        }
    }
    let missing: Vec<String> = MARKERS
        .iter()
        .filter(|(_, _, m)| !all.contains(m))
        .map(|(l, what, m)| format!("{l} {what} (\"{m}\")"))
        .collect();
    assert!(
        missing.is_empty(),
        "in no conversation: {}",
        missing.join(", ")
    );
}

/// The answers each family's template words (`templates/en/answers/FAMILY.txt`: its
/// `kind == "..."` branches, the answer's and its error's), as `family/kind`.
fn worded_answers() -> std::collections::BTreeSet<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("templates/en/answers");
    let mut out = std::collections::BTreeSet::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        let family = p.file_stem().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&p).unwrap();
        for part in text.split("kind == \"").skip(1) {
            let kind = part.split('"').next().unwrap_or("");
            out.insert(format!("{family}/{kind}"));
        }
    }
    out
}

/// Answers no golden conversation gives yet (the judge's other tests give them; each
/// should get a conversation of its own, where its whole mail is read). A new answer
/// must appear in a conversation or be named here; a name here that a conversation
/// gives, or that no template words, fails too, so the list only shrinks.
const NOT_YET_IN_A_CONVERSATION: &[&str] = &[
    "auth/no_credentials",
    "auth/no_game",
    "auth/not_in_game",
    "auth/tokens_locked",
    "auth/which_game",
    "campaign/locked",
    "campaign/no_game",
    "campaign/not_your_game",
    "campaign/one_try_per_mail",
    "create/not_creator",
    "gm/address_seated",
    "gm/already_over",
    "gm/already_started",
    "gm/cannot_start",
    "gm/no_deadline",
    "gm/no_game",
    "gm/no_seat",
    "gm/not_an_address",
    "gm/not_gm",
    "gm/not_paused",
    "gm/not_running",
    "gm/over",
    "info/bad_range",
    "info/neighbours",
    "info/no_such_territory",
    "info/not_started",
    "info/orders_which_game",
    "info/which_game",
    "intake/attachments",
    "intake/hello",
    "intake/html_only",
    "intake/press_too_long",
    "intake/too_long",
    "intake/too_many_lines",
    "intake/too_many_mails",
    "join/already_seated",
    "join/bad_name",
    "join/cannot_start",
    "join/locked",
    "join/name_taken",
    "join/no_open_seat",
    "join/one_try_per_mail",
    "observe/already_receives",
    "observe/no_game",
    "observe/off",
    "observe/which_game",
    "orders/check_which_game",
    "press/empty",
    "seat/map",
    "seat/on_vacation",
    "seat/reopened",
    "seat/reports",
    "seat/resigned",
    "seat/time_zone",
    "seat/vacation_off",
    "seat/vacation_too_long",
];

/// Every answer the templates word is given in some conversation (the judge's own record
/// of what it answered, `Changes::answers`), or named in [`NOT_YET_IN_A_CONVERSATION`].
#[test]
fn every_answer_the_templates_word_is_given_in_a_conversation() {
    let worded = worded_answers();
    assert!(worded.len() > 50, "the answer templates were not read");
    let mut given = std::collections::BTreeSet::new();
    for c in conversations() {
        for a in play(&c).answers {
            // `family/kind/reason`: a template branches on the kind, and on the reason
            // (the kind of the answer's `error`).
            let mut parts = a.splitn(3, '/');
            let family = parts.next().unwrap_or("");
            for k in parts {
                given.insert(format!("{family}/{k}"));
            }
        }
    }
    let not_yet: std::collections::BTreeSet<String> = NOT_YET_IN_A_CONVERSATION
        .iter()
        .map(|a| a.to_string())
        .collect();
    let missing: Vec<&String> = worded
        .iter()
        .filter(|a| !given.contains(*a) && !not_yet.contains(*a))
        .collect();
    let stale: Vec<&String> = not_yet
        .iter()
        .filter(|a| given.contains(*a) || !worded.contains(*a))
        .collect();
    assert!(
        missing.is_empty() && stale.is_empty(),
        "in no conversation (add one): {missing:?}\nnamed in NOT_YET_IN_A_CONVERSATION \
         but given in a conversation or worded by no template (take it out): {stale:?}"
    );
}
