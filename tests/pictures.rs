//! The board as a picture. Each game's picture is well-formed SVG, made from the
//! public view (a seat's adds only that seat's secrets), and names the same owners and
//! counts as the text report for every territory or square; a report of each game, played
//! by mail through the real pipeline, is rendered by headless Chromium and looked at.

use castellan::config::Config;
use castellan::play::demo::LocalJudge;
use castellan::play::players::{play_games, MailPlayers, PlayError};
use castellan_engine::{Lang, Secret, Session, Viewer};
use quick_xml::events::Event;
use quick_xml::Reader;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A game of `name` for `seats` bots, played `orders` bot orders in.
fn midgame(name: &str, seats: usize, orders: usize) -> Box<dyn Session> {
    let info = castellan::games::find(name).expect("known game");
    let players: Vec<String> = ["Alice", "Bruno", "Chloe", "Dmitri"][..seats]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let mut s = (info.create)("pic-1", Secret::derive(name.as_bytes()), players, &[]).unwrap();
    for _ in 0..orders {
        let Some(&seat) = s.awaiting().first() else {
            break;
        };
        s.play_bot(seat).unwrap();
    }
    s
}

/// One element of a picture: its name, attributes, and its text (the text up to the next
/// tag).
#[derive(Debug, Default)]
struct El {
    name: String,
    attrs: BTreeMap<String, String>,
    text: String,
}

/// Every element, in document order; fails on XML that is not well formed (tags closed
/// and nested, attributes quoted, entities known).
fn elements(xml: &str) -> Vec<El> {
    let mut r = Reader::from_str(xml);
    let mut out: Vec<El> = Vec::new();
    let mut open: Vec<String> = Vec::new();
    loop {
        let ev = r
            .read_event()
            .unwrap_or_else(|e| panic!("not well formed at {}: {e}", r.buffer_position()));
        let (e, empty) = match ev {
            Event::Start(e) => (e, false),
            Event::Empty(e) => (e, true),
            Event::End(e) => {
                let name = String::from_utf8_lossy(e.name().as_ref()).to_string();
                assert_eq!(open.pop().as_deref(), Some(name.as_str()), "tags cross");
                continue;
            }
            Event::Text(t) => {
                if let Some(last) = out.last_mut() {
                    last.text.push_str(&t.unescape().expect("known entities"));
                }
                continue;
            }
            Event::Eof => break,
            _ => continue,
        };
        let name = String::from_utf8_lossy(e.name().as_ref()).to_string();
        let attrs = e
            .attributes()
            .map(|a| {
                let a = a.expect("well-formed attribute");
                (
                    String::from_utf8_lossy(a.key.as_ref()).to_string(),
                    a.unescape_value().expect("escaped value").to_string(),
                )
            })
            .collect();
        if !empty {
            open.push(name.clone());
        }
        out.push(El {
            name,
            attrs,
            ..El::default()
        });
    }
    assert!(open.is_empty(), "unclosed: {open:?}");
    for e in &mut out {
        e.text = e.text.trim().to_string();
    }
    out
}

/// The SVG part of an HTML page (the page's own head is HTML, not XML: `<!DOCTYPE html>`
/// is fine, and every tag of ours is closed, so the whole page parses too).
fn svg_of(html: &str) -> &str {
    let a = html.find("<svg").expect("an svg");
    let b = html.rfind("</svg>").expect("svg closed");
    &html[a..b + 6]
}

/// The territories of a map picture: (name, owner, armies) from each circle's title.
fn territories(svg: &str) -> Vec<(String, String, u32)> {
    let els = elements(svg);
    let mut out = Vec::new();
    for w in els.windows(2) {
        if w[0].name == "circle" && w[1].name == "title" {
            let t = &w[1].text;
            let (name, rest) = t.split_once(": ").expect("Name: owner, armies");
            let (owner, armies) = rest.rsplit_once(", ").expect("owner, armies");
            out.push((name.to_string(), owner.to_string(), armies.parse().unwrap()));
        }
    }
    out
}

/// The text line of `name` in a text map: the words after the name, if its line is there.
/// Every territory of a text map told an empire (a continent) a paragraph, as (name,
/// holder, armies): "Europe (bonus 5). Bob: Ukraine 3, Iceland 4. Ann: Peru 1." or
/// "Asia (bonus 7), held by Bob: China 2, ..." (Castle Risk: "FRENCH EMPIRE (4 for all).
/// ...", ports marked `*` `^`, "(castle)" after the armies; French alike). A free
/// territory (setup) is named alone: held by "-", no army.
fn text_facts(text: &str) -> Vec<(String, String, u32)> {
    let heads = [
        "(bonus ",
        " (4 for all)",
        " (4 pour l'empire entier)",
        "(INDEPENDENT)",
        "(INDÉPENDANTS)",
    ];
    let held = [", all held by ", ", tout à ", ", held by ", ", tenue par "];
    let mut out = Vec::new();
    for line in text.lines().filter(|l| heads.iter().any(|h| l.contains(h))) {
        let line = line.trim_end_matches('.');
        let colon = |p: &str| -> (String, String) {
            let (who, list) = p.split_once(" : ").or_else(|| p.split_once(": ")).unwrap();
            (who.to_string(), list.to_string())
        };
        let parts: Vec<(String, String)> =
            match held.iter().find_map(|h| line.find(h).map(|i| i + h.len())) {
                Some(i) => vec![colon(&line[i..])],
                None => line[line.find("). ").unwrap() + 3..]
                    .split(". ")
                    .map(colon)
                    .collect(),
            };
        for (who, list) in parts {
            let free = ["nobody", "personne", "nobody's", "à personne"].contains(&who.as_str());
            for e in list.split(", ") {
                let e = e.split(" (").next().unwrap();
                let (name, armies) = match e.rsplit_once(' ') {
                    Some((n, a)) if a.parse::<u32>().is_ok() => (n, a.parse().unwrap()),
                    _ => (e, 0),
                };
                let who = if free { "-".to_string() } else { who.clone() };
                out.push((name.trim_end_matches(['*', '^']).to_string(), who, armies));
            }
        }
    }
    out
}

/// "For each game, the HTML and the text part name the same owners and counts
/// for every territory" (Castle Risk and Risk, in both languages).
#[test]
fn map_pictures_name_the_owners_and_armies_of_the_text_map() {
    for (game, seats, count) in [("castle-risk", 4, 44), ("risk", 3, 42)] {
        let s = midgame(game, seats, 200);
        for lang in [Lang::En, Lang::Fr] {
            let svg = s.picture(Viewer::Public, lang).unwrap();
            let text = s.public_view(lang);
            let ts = territories(&svg);
            assert_eq!(ts.len(), count, "{game}: every territory drawn once");
            let facts = text_facts(&text);
            assert_eq!(
                facts.len(),
                count,
                "{game}: every territory told once\n{text}"
            );
            let mut owned = 0;
            for (name, owner, armies) in &ts {
                let (_, who, n) = facts
                    .iter()
                    .find(|f| f.0 == *name)
                    .unwrap_or_else(|| panic!("{game}: {name} is not in the text map\n{text}"));
                let nobody = owner == "-" && who == "-";
                assert!(
                    nobody || who == owner,
                    "{game}: {name} held by {owner} in the picture, {who} in the text"
                );
                assert_eq!(
                    n, armies,
                    "{game}: {name}'s armies in the picture and the text"
                );
                owned += usize::from(!nobody);
            }
            assert!(
                owned > count / 2,
                "{game}: a game under way, not an empty board"
            );
        }
    }
}

/// Castello: every pawn and castle of the text board is in the picture, on its square,
/// and nothing else is.
#[test]
fn the_castello_picture_shows_each_pawn_and_castle_of_the_text_board() {
    let s = midgame("castello", 2, 40);
    let svg = s.picture(Viewer::Public, Lang::En).unwrap();
    let text = s.public_view(Lang::En);
    let mut want: BTreeMap<String, &str> = BTreeMap::new();
    for l in text.lines() {
        let mut w = l.split_whitespace().filter(|w| *w != "|");
        let Some(Ok(row)) = w.next().map(str::parse::<u32>) else {
            continue;
        };
        let cells: Vec<&str> = w.collect();
        assert_eq!(cells.len(), 22, "{l}");
        for (c, g) in cells[..21].iter().enumerate() {
            let sq = format!("{}{row}", (b'A' + c as u8) as char);
            match *g {
                "R" | "r" => want.insert(sq, "Red"),
                "B" | "b" => want.insert(sq, "Black"),
                "#" => want.insert(sq, "castle"),
                _ => None,
            };
        }
    }
    let mut got: BTreeMap<String, &str> = BTreeMap::new();
    let mut owner = String::new();
    let els = elements(&svg);
    for e in &els {
        if let Some(o) = e.attrs.get("data-owner") {
            owner = o.clone();
        }
        let Some(sq) = e.attrs.get("data-square") else {
            continue;
        };
        match e.attrs.get("data-castle").map(String::as_str) {
            Some("standing") => got.insert(sq.clone(), "castle"),
            Some(_) => None,
            None => got.insert(sq.clone(), if owner == "Red" { "Red" } else { "Black" }),
        };
    }
    assert!(want.len() > 60, "{want:?}");
    assert_eq!(got, want);
    // The last move is drawn, and its path starts where the text says.
    let last = text
        .lines()
        .find_map(|l| l.strip_prefix("Last move: "))
        .unwrap();
    assert!(els.iter().any(|e| e.name == "polyline"), "{last}");
    assert!(svg.contains(&format!("Last move: {}", last.trim_end_matches('.'))));
    for l in ["A", "U", "15"] {
        assert!(
            els.iter().any(|e| e.name == "text" && e.text == l),
            "label {l}"
        );
    }
}

/// Castrum: each site's walls, tower, points and cards, and each hand's size, as the text
/// report gives them; the round's event is named; only a seat's own picture shows a hand.
#[test]
fn the_castrum_picture_shows_each_castle_and_score_of_the_text_report() {
    let s = midgame("castrum", 3, 60);
    let svg = s.picture(Viewer::Public, Lang::En).unwrap();
    let text = s.public_view(Lang::En);
    let els = elements(&svg);
    let sites: Vec<&El> = els
        .iter()
        .filter(|e| e.attrs.contains_key("data-seat"))
        .collect();
    assert_eq!(sites.len(), 3);
    for e in sites {
        let a = |k: &str| e.attrs[k].clone();
        let line = text
            .lines()
            .find(|l| l.trim_start().starts_with(&a("data-seat")))
            .unwrap();
        for want in [
            format!(
                "castle: {}/4 walls, {}/1 tower ({} pt)",
                a("data-walls"),
                a("data-towers"),
                a("data-points")
            ),
            format!("hand: {} cards", a("data-hand")),
        ] {
            assert!(line.contains(&want), "{want} not in {line}");
        }
    }
    if let Some(ev) = text
        .lines()
        .find_map(|l| l.strip_prefix("Event of this round: "))
    {
        let name = ev.split(" (").next().unwrap();
        assert!(svg.contains(name), "{name}");
    }
    assert!(!svg.contains("Your hand"));
    let mine = s.picture(Viewer::Seat(1), Lang::En).unwrap();
    assert!(mine.contains("Your hand") && mine.contains("data-viewer=\"seat-2\""));
    elements(&mine);
}

/// Castle Risk: a seat's picture marks its own hidden armies; the public one marks none.
#[test]
fn only_a_seats_own_picture_marks_its_hidden_armies() {
    let s = midgame("castle-risk", 3, 200);
    let public = s.picture(Viewer::Public, Lang::En).unwrap();
    assert!(!public.contains("hidden armies"));
    let marked = (0..3)
        .filter(|&k| {
            let p = s.picture(Viewer::Seat(k), Lang::En).unwrap();
            elements(&p);
            p.contains("hidden armies")
        })
        .count();
    assert!(marked > 0, "some seat still has hidden armies to show");
}

/// `Rules::picture_shows_secrets`: where a game says a seat's picture shows nothing of its
/// own, the judge draws the public picture alone for that seat, so the two must be the
/// same, at every point of whole bot games of each game; and where a seat's picture does
/// differ, the game must say so (or that seat's secrets would never be drawn).
#[test]
fn a_seat_said_to_have_no_secrets_to_draw_sees_the_public_picture() {
    // The picture without its `data-viewer` stamp (whom it was made for).
    let unstamped = |p: String| {
        let at = p.find(" data-viewer=\"").expect("stamped");
        let end = p[at + 14..].find('"').expect("closed") + at + 15;
        format!("{}{}", &p[..at], &p[end..])
    };
    // Each game's seats; a game not listed: its fewest.
    let listed = [
        ("castle-risk", 3),
        ("risk", 3),
        ("castello", 2),
        ("castrum", 3),
    ];
    for (info, seats) in castellan::games::cases(&listed, |g| g.min_seats).unwrap() {
        let game = info.name;
        let mut s = midgame(game, seats, 0);
        let (mut said_none, mut differs) = (0, 0);
        for step in 0..400 {
            if step % 7 == 0 {
                let public = unstamped(s.picture(Viewer::Public, Lang::En).unwrap());
                for seat in 0..seats {
                    let mine = unstamped(s.picture(Viewer::Seat(seat), Lang::En).unwrap());
                    let shows = s.picture_shows_secrets(seat);
                    if !shows {
                        said_none += 1;
                        assert_eq!(mine, public, "{game}, seat {seat}, order {step}");
                    }
                    if mine != public {
                        differs += 1;
                        assert!(shows, "{game}, seat {seat}, order {step}");
                    }
                }
            }
            let Some(&seat) = s.awaiting().first() else {
                break;
            };
            s.play_bot(seat).unwrap();
        }
        // Each game has one of the two cases to check (Castrum's hand is always drawn).
        assert!(said_none + differs > 0, "{game}: nothing checked");
    }
}

/// `castellan render` draws a past turn (replayed) and refuses what it cannot draw.
#[test]
fn render_draws_any_past_turn_as_svg_or_html() {
    let tmp = tempfile::tempdir().unwrap();
    let (j, id) = played(tmp.path(), "castle-risk", 3, 80);
    drop(j);
    let cfg = tmp.path().join("castellan.yaml");
    std::fs::write(&cfg, "").unwrap();
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_castellan"))
            .arg("--config")
            .arg(&cfg)
            .arg("--data-dir")
            .arg(tmp.path())
            .arg("render")
            .args(args)
            .output()
            .unwrap()
    };
    let svg1 = tmp.path().join("t1.svg");
    let out = run(&[&id, "--turn", "1", "--out", svg1.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let now = tmp.path().join("now.html");
    let out = run(&[&id, "--seat", "2", "--out", now.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let t1 = std::fs::read_to_string(&svg1).unwrap();
    let page = std::fs::read_to_string(&now).unwrap();
    elements(&t1);
    elements(&page);
    assert!(page.contains("data-viewer=\"seat-2\""));
    assert_ne!(
        territories(&t1),
        territories(svg_of(&page)),
        "turn 1 is not now"
    );
    let bad = run(&[&id, "--out", tmp.path().join("x.png").to_str().unwrap()]);
    assert_eq!(bad.status.code(), Some(64));
    assert!(String::from_utf8_lossy(&bad.stderr).contains(".svg or .html"));
    let bad = run(&[&id, "--seat", "9", "--out", svg1.to_str().unwrap()]);
    assert_eq!(bad.status.code(), Some(64));
}

/// A game of `game` played by mail for `mails` mails through the real pipeline.
fn played(dir: &Path, game: &str, players: usize, mails: usize) -> (LocalJudge, String) {
    let base = Config {
        templates_dir: PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/crates/judge/templates"
        )),
        ..Config::default()
    };
    let j = LocalJudge::open(&base, dir, 14).unwrap();
    let mut bots = MailPlayers::new(&j.svc, "pic").unwrap();
    let id = bots.create_game(&j.svc, game, players, &[]).unwrap();
    j.pass_after(600).unwrap();
    play_games(
        &j.svc,
        &mut bots,
        std::slice::from_ref(&id),
        mails,
        500,
        |_| {
            j.pass_after(600)
                .map(|_| ())
                .map_err(|e| PlayError::Io(e.to_string()))
        },
    )
    .unwrap();
    (j, id)
}

/// The HTML part of the latest public report in the outbox.
fn latest_report_html(dir: &Path) -> (String, String) {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir.join("mail/outbox"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "eml"))
        .collect();
    paths.sort_by_key(|p| std::fs::metadata(p).unwrap().modified().unwrap());
    for p in paths.iter().rev() {
        let raw = std::fs::read(p).unwrap();
        let m = mail_parser::MessageParser::default()
            .parse(&raw[..])
            .unwrap();
        let Some(html) = m.body_html(0) else { continue };
        if html.contains("data-viewer=\"public\"") {
            // The text part joined back from its format=flowed lines.
            let text = m.body_text(0).unwrap().replace("\r\n", "\n");
            return (html.to_string(), castellan_mail::unflow(&text, false));
        }
    }
    panic!("no report with a picture in {}", dir.display());
}

/// Width, height and the share of the commonest colour of a PNG, and how many colours.
fn look(png_path: &Path) -> (u32, u32, f64, usize) {
    let dec = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(png_path).unwrap(),
    ));
    let mut reader = dec.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    let px = info.color_type.samples();
    let mut counts: BTreeMap<&[u8], usize> = BTreeMap::new();
    for p in buf[..info.buffer_size()].chunks(px) {
        *counts.entry(&p[..3.min(px)]).or_default() += 1;
    }
    let total: usize = counts.values().sum();
    let top = *counts.values().max().unwrap_or(&0);
    (
        info.width,
        info.height,
        top as f64 / total as f64,
        counts.len(),
    )
}

/// Headless Chromium on `page` in a window `w` × `h`, with `args` (a screenshot, the DOM
/// dumped): what it wrote on stdout and stderr. Fails, never skips, without Chromium
/// (scripts/install-test-deps.sh installs Debian's).
fn chromium(page: &Path, w: u32, h: u32, args: &[String]) -> (String, String) {
    let out = Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
        ])
        .args(args)
        .arg(format!("--window-size={w},{h}"))
        .arg(format!("file://{}", page.display()))
        .output()
        .unwrap_or_else(|e| {
            panic!("chromium did not run ({e}): bash scripts/install-test-deps.sh installs it")
        });
    (
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

/// A page showing `html` in a frame `w` × `h` pixels (headless Chromium's window is never
/// narrower than 500 pixels: a narrower window only crops a page laid out 500 wide, where
/// a frame lays it out at its own width); with `measure`, a line of script (the mail has
/// none) that writes the framed document's `scrollWidth` and `clientWidth` into the DOM
/// once it is laid out, for `--dump-dom` to show.
fn framed(html: &str, w: u32, h: u32, measure: bool) -> String {
    const MEASURE: &str = "<script>var f=document.getElementById('f');\
        f.addEventListener('load',function(){var d=f.contentDocument.documentElement;\
        document.body.setAttribute('data-scroll-width',d.scrollWidth);\
        document.body.setAttribute('data-client-width',d.clientWidth);});</script>";
    format!(
        "<!DOCTYPE html>\n<html><body style=\"margin:0\"><iframe id=\"f\" \
         style=\"width:{w}px;height:{h}px;border:0;display:block\" srcdoc=\"{}\"></iframe>{}\
         </body></html>\n",
        castellan_engine::svg::esc(html),
        if measure { MEASURE } else { "" }
    )
}

/// How wide the document `html` is laid out in a frame `w` pixels wide, and how wide the
/// frame shows, as Chromium measures them (`framed`).
fn laid_out_width(dir: &Path, game: &str, html: &str, w: u32) -> (u32, u32) {
    let measured = dir.join(format!("{game}-{w}-measure.html"));
    std::fs::write(&measured, framed(html, w, 900, true)).unwrap();
    let (dom, err) = chromium(&measured, w.max(500), 900, &["--dump-dom".to_string()]);
    let read = |name: &str| -> u32 {
        let at = dom
            .find(&format!("{name}=\""))
            .unwrap_or_else(|| panic!("no {name} in the dumped DOM: {err}"));
        let rest = &dom[at + name.len() + 2..];
        rest[..rest.find('"').unwrap()].parse().unwrap()
    };
    (read("data-scroll-width"), read("data-client-width"))
}

/// "A test renders one report of each game through headless Chromium, takes a
/// PNG screenshot, and checks it is not blank and has the expected size". Each game is
/// played by mail through the real pipeline; its latest public report's HTML part is
/// saved under target/screenshots/ with its screenshots at a phone's width and a desk's
/// (GAME.html, GAME-400.png, GAME-1200.png), for a person to look at; at 400 pixels wide
/// the page must not scroll sideways (the whole board in view, as Chromium lays it out).
#[test]
fn a_report_of_each_game_renders_in_chromium_as_a_picture() {
    let shots = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    // Each game's (seats, mails played); a game not listed: its fewest seats, 40 mails.
    let listed = [
        ("castle-risk", (4, 40)),
        ("risk", (3, 150)),
        ("castrum", (3, 40)),
        ("castello", (2, 30)),
    ];
    let games = castellan::games::cases(&listed, |g| (g.min_seats, 40)).unwrap();
    for (info, (players, mails)) in games {
        let game = info.name;
        let tmp = tempfile::tempdir().unwrap();
        let (_j, _id) = played(tmp.path(), game, players, mails);
        let (html, text) = latest_report_html(tmp.path());
        assert!(
            html.len() < 150 * 1024,
            "{game}: HTML part of {} bytes",
            html.len()
        );
        assert!(!html.contains("<script"), "{game}: a script in the mail");
        elements(&html);
        // The HTML part holds the whole text part.
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        let shown = castellan_engine::svg::esc(&text).to_string();
        for l in &lines {
            assert!(
                shown.contains(&castellan_engine::svg::esc(l).to_string()),
                "{game}: {l:?} missing"
            );
        }
        let page = shots.join(format!("{game}.html"));
        std::fs::write(&page, &html).unwrap();
        for (w, h) in [(400, 1400), (1200, 1400)] {
            let png = shots.join(format!("{game}-{w}.png"));
            let _ = std::fs::remove_file(&png);
            // A phone's width in a frame of its own (`framed`), a desk's as it is.
            let shown = if w < 500 {
                let f = shots.join(format!("{game}-{w}.html"));
                std::fs::write(&f, framed(&html, w, h, false)).unwrap();
                f
            } else {
                page.clone()
            };
            let (_, err) = chromium(&shown, w, h, &[format!("--screenshot={}", png.display())]);
            assert!(png.exists(), "{game}: no screenshot: {err}");
            let (pw, ph, top, colours) = look(&png);
            assert_eq!((pw, ph), (w, h), "{game}-{w}: screenshot size");
            assert!(
                top < 0.9 && colours > 30,
                "{game}-{w}: looks blank ({colours} colours, {top:.2} one colour)"
            );
        }
        let (scroll, client) = laid_out_width(&shots, game, &html, 400);
        assert_eq!(client, 400, "{game}: the window measured");
        assert!(
            scroll <= client,
            "{game}: at 400 pixels the page is {scroll} wide and scrolls sideways"
        );
    }
}
