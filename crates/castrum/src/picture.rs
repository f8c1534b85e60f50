//! The castles as a picture (SVG): the round and its event, then a row per player: the
//! castle (four walls and a tower, built ones in the player's colour), the points, and the
//! cards lying on the building site. Made from the public view's facts only; a seat's
//! picture adds that seat's own hand.

use crate::*;
use castellan_engine::svg::{seat_colour, wrap_to, Svg};
use std::fmt::Write;

const W: f64 = 720.0;
const ROW: f64 = 92.0;
const CARD_W: f64 = 56.0;
const CARD_H: f64 = 64.0;

/// A card's face colour by what it does.
fn face(c: Card) -> &'static str {
    match c.material() {
        Some((Material::Structores, _)) => "#e8d1a8",
        Some((Material::Lapides, _)) => "#d4d4d4",
        Some((Material::Rustici, _)) => "#cfe6c3",
        None if c.is_attack() => "#f3c1b8",
        None if c.is_defence() => "#c3d6ef",
        None => "#f4e6a1",
    }
}

/// A card's name cut in lines of at most 9 letters.
fn card_lines(name: &str) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for w in name.split_whitespace() {
        match lines.last_mut() {
            Some(l) if l.chars().count() + 1 + w.chars().count() <= 9 => {
                l.push(' ');
                l.push_str(w);
            }
            _ => lines.push(w.chars().take(10).collect()),
        }
    }
    lines
}

/// A row of cards from `x` at `y`, as many as fit before `right`, then "+n".
fn cards(s: &mut Svg, cards: &[Card], x: f64, y: f64, right: f64) {
    let fit = (((right - x) / (CARD_W + 4.0)).floor() as usize).max(1);
    for (i, c) in cards.iter().enumerate() {
        let cx = x + i as f64 * (CARD_W + 4.0);
        if i + 1 == fit && cards.len() > fit {
            s.text(
                cx + 4.0,
                y + CARD_H / 2.0,
                "start",
                "font-size:14px;font-weight:bold;fill:#333",
                &format!("+{}", cards.len() - i),
            );
            break;
        }
        s.raw(&format!(
            "<g data-card=\"{}\"><rect x=\"{cx:.0}\" y=\"{y:.0}\" width=\"{CARD_W}\" height=\"{CARD_H}\" rx=\"5\" fill=\"{}\" stroke=\"#333\" stroke-width=\"1\"/>",
            castellan_engine::svg::esc(c.key()),
            face(*c)
        ));
        for (k, l) in card_lines(c.name()).iter().enumerate() {
            s.text(
                cx + CARD_W / 2.0,
                y + 18.0 + 12.0 * k as f64,
                "middle",
                "font-size:10px;fill:#111",
                l,
            );
        }
        s.raw("</g>");
    }
}

/// The picture for `viewer` in `lang`.
pub fn picture(g: &Castrum, viewer: Viewer, lang: Lang) -> String {
    let me = match viewer {
        Viewer::Seat(s) if s < g.seats() => Some(s),
        _ => None,
    };
    let title = match lang {
        Lang::En => format!("Castrum, round {}", g.round),
        Lang::Fr => format!("Castrum, tour de table {}", g.round),
    };
    let event = match (g.in_force, lang) {
        (Some(h), Lang::En) => format!("Event of this round: {} ({})", h.name(), h.effect()),
        (Some(h), Lang::Fr) => format!(
            "Événement de ce tour de table : {} ({})",
            h.name_in(lang),
            h.effect_in(lang)
        ),
        (None, _) => lang
            .pick("No event in force.", "Aucun événement en cours.")
            .to_string(),
    };
    let event = wrap_to(&event, W - 20.0, 13.0, false);
    let head = 26.0 + 17.0 * event.len() as f64 + 8.0;
    let rows = g.seats() + usize::from(me.is_some());
    let h = head + ROW * rows as f64 + 8.0;
    let mut s = Svg::new(W as u32, h.ceil() as u32, "#f7f3ea", &title);
    s.text(
        10.0,
        18.0,
        "start",
        "font-size:15px;font-weight:bold;fill:#222",
        &title,
    );
    for (i, l) in event.iter().enumerate() {
        s.text(
            10.0,
            38.0 + 17.0 * i as f64,
            "start",
            "font-size:13px;fill:#5a3e00",
            l,
        );
    }
    for seat in 0..g.seats() {
        site_row(&mut s, g, seat, head + ROW * seat as f64, lang);
    }
    if let Some(seat) = me {
        let y = head + ROW * g.seats() as f64;
        let mut hand = g.hands[seat].clone();
        hand.sort();
        s.raw(&format!(
            "<rect x=\"4\" y=\"{:.0}\" width=\"{:.0}\" height=\"{:.0}\" rx=\"6\" fill=\"#eef3fb\" stroke=\"#1f5fa8\" stroke-dasharray=\"4 3\"/>",
            y + 2.0,
            W - 8.0,
            ROW - 6.0
        ));
        s.text(
            14.0,
            y + 22.0,
            "start",
            "font-size:14px;font-weight:bold;fill:#1f5fa8",
            lang.pick("Your hand", "Votre main"),
        );
        cards(&mut s, &hand, 130.0, y + 12.0, W - 10.0);
    }
    s.finish()
}

/// One seat's row at `y`: its name, points, the castle and the site's cards.
fn site_row(s: &mut Svg, g: &Castrum, seat: Seat, y: f64, lang: Lang) {
    let site = &g.sites[seat];
    let colour = seat_colour(seat);
    let playing = g.outcome.is_none() && g.current == seat;
    s.raw(&format!(
        "<g data-seat=\"{}\" data-walls=\"{}\" data-towers=\"{}\" data-points=\"{}\" data-site=\"{}\" data-hand=\"{}\">",
        castellan_engine::svg::esc(g.name(seat)),
        site.walls,
        site.towers,
        site.points(),
        site.cards.len(),
        g.hands[seat].len()
    ));
    s.raw(&format!(
        "<rect x=\"4\" y=\"{:.0}\" width=\"{:.0}\" height=\"{:.0}\" rx=\"6\" fill=\"{}\" stroke=\"{colour}\" stroke-width=\"{}\"/>",
        y + 2.0,
        W - 8.0,
        ROW - 6.0,
        if playing { "#fffdf5" } else { "#fbf9f4" },
        if playing { 3 } else { 1 }
    ));
    let pts = match lang {
        Lang::En => format!("{} pt · hand {}", site.points(), g.hands[seat].len()),
        Lang::Fr => format!("{} pt · main {}", site.points(), g.hands[seat].len()),
    };
    s.text(
        14.0,
        y + 22.0,
        "start",
        "font-size:14px;font-weight:bold;fill:#222",
        g.name(seat),
    );
    s.text(14.0, y + 40.0, "start", "font-size:12px;fill:#333", &pts);
    if let Some(m) = site.mage {
        let t = match lang {
            Lang::En => format!("blocked by {}'s Mage", g.name(m)),
            Lang::Fr => format!(
                "bloqué par le Mage {}",
                castellan_engine::lang::fr::de(g.name(m))
            ),
        };
        // In the room left of the castle, on as many lines as it takes.
        for (k, l) in wrap_to(&t, 112.0, 11.0, true).iter().enumerate() {
            s.text(
                14.0,
                y + 55.0 + 13.0 * k as f64,
                "start",
                "font-size:11px;font-weight:bold;fill:#a00",
                l,
            );
        }
    }
    let base = y + ROW - 14.0;
    s.raw(&castle(site, colour, base));
    cards(s, &site.cards, 264.0, y + 12.0, W - 10.0);
    s.raw("</g>");
}

/// The castle standing on `base`: four walls and a tower, built ones filled.
fn castle(site: &Site, colour: &str, base: f64) -> String {
    let mut out = String::new();
    for i in 0..4u8 {
        let x = 130.0 + 24.0 * i as f64 + if i >= 2 { 28.0 } else { 0.0 };
        let built = i < site.walls;
        let _ = write!(
            out,
            "<rect x=\"{x:.0}\" y=\"{:.0}\" width=\"22\" height=\"34\" fill=\"{}\" stroke=\"#333\" stroke-width=\"1.2\"{}/>",
            base - 34.0,
            if built { colour } else { "none" },
            if built { "" } else { " stroke-dasharray=\"3 2\"" }
        );
    }
    let built = site.towers > 0;
    let _ = write!(
        out,
        "<path d=\"M180 {b:.0}v-56h5v6h5v-6h5v6h5v-6h4v56z\" fill=\"{}\" stroke=\"#333\" stroke-width=\"1.2\"{}/>",
        if built { colour } else { "none" },
        if built { "" } else { " stroke-dasharray=\"3 2\"" },
        b = base
    );
    out
}
