//! The order language (parse / order_text, in English and French keywords) and the help.
//! Narration is in `narrate.rs`, the views in `view.rs`.

use crate::words::{list, name_error_fr};
use crate::*;
use castellan_engine::names::{normalize, Names};
use castellan_engine::words::{all_of, refusal, Hints};

/// The order help (ORDERS), in `lang`.
pub fn help(lang: Lang) -> String {
    lang.pick(HELP, HELP_FR).to_string()
}

pub const HELP: &str = "\
Castrum orders (one per line; case and accents do not matter; card names in Latin, French or English):
  PLAY Lapides                         put a building card on your site
  PLAY Roue de Carrier                 first card of your turn: then 3 building cards on your site
  PLAY Incendie ON Bob                 attack Bob's site (also Mage, Pièces d'Or)
  PLAY Sorcière ON Bob TARGET Lapides  the witch aims at one card of Bob's site
  DISCARD Mage, Lapides                discard 1 to 3 cards instead of playing (ends your turn)
  BUILD WALL | BUILD TOWER             turn site cards into a wall (1 S + 2 L + 3 R) or a tower (1 S + 5 L + 6 R)
  EXCHANGE Lapides x2                  an x2 card of your site for two simple cards from the pile
  END                                  end your turn (you draw back to 5 cards)
  DEFEND | ACCEPT                      answer an attack on your site (Gardes/Moines/Reliques)
  GIVE Rustici                         'for the works': give up one card of your site
  SET DEFEND ALWAYS | NEVER | ASK      standing answer to attacks (any time)
  SET WORKS Rustici, Lapides | ASK     standing answer to 'for the works' (any time)";

pub const HELP_FR: &str = "\
Ordres de Castrum (un par ligne ; majuscules et accents indifférents ; les mots anglais sont aussi acceptés ; cartes en latin, en français ou en anglais) :
  JOUER Lapides                          poser une carte de construction sur votre chantier
  JOUER Roue de Carrier                  première carte de votre tour : puis 3 cartes de construction sur votre chantier
  JOUER Incendie SUR Bob                 attaquer le chantier de Bob (de même Mage, Pièces d'Or)
  JOUER Sorcière SUR Bob CIBLE Lapides   la Sorcière vise une carte du chantier de Bob
  DÉFAUSSER Mage, Lapides                défausser 1 à 3 cartes au lieu de jouer (termine votre tour)
  CONSTRUIRE MURAILLE | CONSTRUIRE TOUR  échanger les cartes du chantier contre une muraille (1 S + 2 L + 3 R) ou une tour (1 S + 5 L + 6 R)
  ÉCHANGER Lapides x2                    une carte x2 de votre chantier contre deux cartes simples de la pioche
  FIN                                    finir votre tour (vous complétez votre main à 5 cartes)
  DÉFENDRE | ACCEPTER                    répondre à une attaque sur votre chantier (Gardes, Moines, Reliques)
  DONNER Rustici                         « pour les œuvres » : se séparer d'une carte de votre chantier
  CONSIGNE DÉFENSE TOUJOURS | JAMAIS | DEMANDER   réponse permanente aux attaques (à tout moment)
  CONSIGNE ŒUVRES Rustici, Lapides | DEMANDER     réponse permanente à « pour les œuvres » (à tout moment)
S = Structores (maçons), L = Lapides (pierres), R = Rustici (paysans).";

fn seat_names(g: &Castrum, me: Seat) -> Names<Seat> {
    let mut n = Names::new();
    for (i, p) in g.players.iter().enumerate() {
        n.add(p, i);
    }
    for alias in ["me", "moi", "myself", "self"] {
        if me < g.seats() && !g.players.iter().any(|p| normalize(p) == alias) {
            n.add_alias(alias, g.name(me), me);
        }
    }
    n
}

/// A hint for a card order: the same example in both languages.
type Hint<'a> = (&'a str, &'a str);

fn card(words: &[&str], hint: Hint) -> Result<Card, OrderError> {
    let text = words.join(" ");
    if text.trim().is_empty() {
        return Err(
            refusal("a card name is missing", "il manque le nom d'une carte").hints(hint.0, hint.1),
        );
    }
    Card::names()
        .resolve(&text)
        .map_err(|er| refusal(er.to_string(), name_error_fr(&er)).hints(hint.0, hint.1))
}

/// Cards separated by commas, "+" or "and": every name that does not read is told at once.
fn cards(words: &[&str], hint: Hint) -> Result<Vec<Card>, OrderError> {
    let text = words.join(" ");
    let mut chunks: Vec<Vec<&str>> = Vec::new();
    for part in text.split([',', ';', '+']) {
        // "Lapides and Mage", "Lapides et Mage"
        let mut chunk: Vec<&str> = Vec::new();
        for w in part.split_whitespace() {
            let n = normalize(w);
            if n == "and" || n == "et" {
                if !chunk.is_empty() {
                    chunks.push(std::mem::take(&mut chunk));
                }
            } else {
                chunk.push(w);
            }
        }
        if !chunk.is_empty() {
            chunks.push(chunk);
        }
    }
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for chunk in &chunks {
        match card(chunk, hint) {
            Ok(c) => out.push(c),
            Err(e) => errors.push(e),
        }
    }
    all_of(errors)?;
    if out.is_empty() {
        return Err(refusal("name the cards", "nommez les cartes").hints(hint.0, hint.1));
    }
    Ok(out)
}

const DISCARD_HINT: Hint = (
    "write: DISCARD Mage, Lapides",
    "écrivez : DÉFAUSSER Mage, Lapides",
);

/// The French words that open an order, each with the English word [`parse`] reads the
/// same (normalized: lowercase, no accents).
const FRENCH_ORDER_WORDS: [(&str, &str); 27] = [
    ("jouer", "play"),
    ("joue", "play"),
    ("poser", "play"),
    ("pose", "play"),
    ("defausser", "discard"),
    ("defausse", "discard"),
    ("construire", "build"),
    ("construis", "build"),
    ("batir", "build"),
    ("batis", "build"),
    ("echanger", "exchange"),
    ("echange", "exchange"),
    ("fin", "end"),
    ("passe", "end"),
    ("passer", "end"),
    ("terminer", "end"),
    ("termine", "end"),
    ("defendre", "defend"),
    ("defends", "defend"),
    ("accepter", "accept"),
    ("accepte", "accept"),
    ("donner", "give"),
    ("donne", "give"),
    ("ceder", "give"),
    ("cede", "give"),
    ("regler", "set"),
    ("consigne", "set"),
];

/// A line's first word as [`parse`] reads it: a French order word as its English word.
fn order_word(first: &str) -> String {
    let key = normalize(first);
    FRENCH_ORDER_WORDS
        .iter()
        .find(|(fr, _)| *fr == key)
        .map_or(key, |(_, en)| en.to_string())
}

/// Does `line` open with one of Castrum's French order words ("CONSTRUIRE muraille",
/// "DÉFAUSSER Mage", "PAS DE DÉFENSE")? The words [`parse`] itself reads.
pub fn reads_as_french(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(first) = words.first() else {
        return false;
    };
    let key = normalize(first);
    FRENCH_ORDER_WORDS.iter().any(|(fr, _)| *fr == key) || (key == "pas" && no_defence(&words[1..]))
}

/// Parse one order line written by `seat` (English or French keywords).
pub fn parse(g: &Castrum, seat: Seat, line: &str) -> Result<Order, OrderError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(first) = words.first() else {
        return Err(refusal("empty order", "ordre vide").write("PLAY Lapides", "JOUER Lapides"));
    };
    let key = order_word(first);
    let rest = &words[1..];
    let only = |o: Order| {
        if rest.is_empty() {
            Ok(o)
        } else {
            let (en, fr) = (order_text(g, &o), order_text_in(g, &o, Lang::Fr));
            Err(refusal(
                format!("{en} takes nothing after it"),
                format!("{fr} ne prend rien après lui"),
            )
            .hints(format!("write: {en}"), format!("écrivez : {fr}")))
        }
    };
    match key.as_str() {
        "play" => parse_play(g, seat, rest),
        "discard" => Ok(Order::Discard(cards(rest, DISCARD_HINT)?)),
        "build" => parse_build(rest),
        "exchange" => Ok(Order::Exchange(card(
            rest,
            ("write: EXCHANGE Lapides x2", "écrivez : ÉCHANGER Lapides x2"),
        )?)),
        "end" | "pass" | "done" => only(Order::End),
        "defend" | "defense" | "defence" => parse_defend(g, rest),
        "accept" | "allow" | "nodefence" | "nodefense" => only(Order::Accept),
        "no" | "pas" if no_defence(rest) => Ok(Order::Accept),
        "give" => Ok(Order::Give(card(
            rest,
            ("write: GIVE Rustici", "écrivez : DONNER Rustici"),
        )?)),
        "set" => parse_set(rest),
        _ => Err(refusal(
            format!("\"{first}\" is not a Castrum order"),
            format!("« {first} » n'est pas un ordre de Castrum"),
        )
        .hints("write one of: PLAY, DISCARD, BUILD, EXCHANGE, END, DEFEND, ACCEPT, GIVE, SET", "écrivez l'un de : JOUER, DÉFAUSSER, CONSTRUIRE, ÉCHANGER, FIN, DÉFENDRE, ACCEPTER, DONNER, CONSIGNE")
        .not_an_order()),
    }
}

/// "NO DEFENCE", "PAS DE DÉFENSE".
fn no_defence(rest: &[&str]) -> bool {
    let r: Vec<String> = rest.iter().map(|w| normalize(w)).collect();
    match r.as_slice() {
        [d] => d.starts_with("defen"),
        [de, d] => de == "de" && d.starts_with("defen"),
        _ => false,
    }
}

fn parse_build(rest: &[&str]) -> Result<Order, OrderError> {
    let what = rest.iter().map(|w| normalize(w)).collect::<String>();
    match what.as_str() {
        "wall" | "muraille" | "mur" | "rempart" | "unemuraille" => Ok(Order::Build(Piece::Wall)),
        "tower" | "tour" | "donjon" | "keep" | "unetour" => Ok(Order::Build(Piece::Tower)),
        _ => Err(refusal(
            "build a WALL or a TOWER",
            "construisez une MURAILLE ou une TOUR",
        )
        .write("BUILD WALL", "CONSTRUIRE MURAILLE")),
    }
}

fn parse_defend(g: &Castrum, rest: &[&str]) -> Result<Order, OrderError> {
    // "DEFEND" or "DEFEND WITH Gardes"
    if rest.is_empty() {
        return Ok(Order::Defend);
    }
    let r: Vec<&str> = if matches!(normalize(rest[0]).as_str(), "with" | "avec") {
        rest[1..].to_vec()
    } else {
        rest.to_vec()
    };
    let c = card(&r, ("write: DEFEND", "écrivez : DÉFENDRE"))?;
    if !c.is_defence() {
        return Err(refusal(
            format!("{} is not a defence card", c.name()),
            format!("{} n'est pas une carte défense", c.name()),
        )
        .write("DEFEND", "DÉFENDRE"));
    }
    if let Phase::Defence(att) = &g.phase {
        let d = att.defence_card();
        if d != c {
            return Err(refusal(
                format!(
                    "{} do not stop a {}: {} do",
                    c.name(),
                    att.card.name(),
                    d.name()
                ),
                format!(
                    "une carte {} n'arrête pas une carte {} : il faut une carte {}",
                    c.name(),
                    att.card.name(),
                    d.name()
                ),
            )
            .hints(
                "write: DEFEND, or ACCEPT",
                "écrivez : DÉFENDRE, ou ACCEPTER",
            ));
        }
    }
    Ok(Order::Defend)
}

pub(crate) fn parse_set(rest: &[&str]) -> Result<Order, OrderError> {
    let Some(what) = rest.first().map(|w| normalize(w)) else {
        return Err(refusal("SET what?", "CONSIGNE pour quoi ?")
            .write("SET DEFEND ALWAYS", "CONSIGNE DÉFENSE TOUJOURS"));
    };
    let arg: Vec<&str> = rest[1..].to_vec();
    let joined = arg.iter().map(|w| normalize(w)).collect::<String>();
    match what.as_str() {
        "defend" | "defence" | "defense" | "defendre" => match joined.as_str() {
            "always" | "toujours" | "yes" | "oui" => Ok(Order::SetDefend(DefendPolicy::Always)),
            "never" | "jamais" | "no" | "non" => Ok(Order::SetDefend(DefendPolicy::Never)),
            "ask" | "demander" | "demande" => Ok(Order::SetDefend(DefendPolicy::Ask)),
            _ => Err(refusal(
                "SET DEFEND takes ALWAYS, NEVER or ASK",
                "CONSIGNE DÉFENSE prend TOUJOURS, JAMAIS ou DEMANDER",
            )
            .write("SET DEFEND ALWAYS", "CONSIGNE DÉFENSE TOUJOURS")),
        },
        // "œuvres" normalizes to "ouvres".
        "works" | "oeuvres" | "ouvres" | "oeuvre" | "ouvre" => {
            if matches!(joined.as_str(), "ask" | "demander" | "demande") {
                return Ok(Order::SetWorks(Vec::new()));
            }
            Ok(Order::SetWorks(cards(
                &arg,
                (
                    "write: SET WORKS Rustici, Lapides",
                    "écrivez : CONSIGNE ŒUVRES Rustici, Lapides",
                ),
            )?))
        }
        _ => Err(refusal(
            format!("there is no standing order \"{}\"", rest[0]),
            format!("il n'y a pas de consigne « {} »", rest[0]),
        )
        .hints(
            "write: SET DEFEND ALWAYS, or SET WORKS Rustici",
            "écrivez : CONSIGNE DÉFENSE TOUJOURS, ou CONSIGNE ŒUVRES Rustici",
        )),
    }
}

fn parse_play(g: &Castrum, seat: Seat, rest: &[&str]) -> Result<Order, OrderError> {
    let pos = |keys: &[&str]| {
        rest.iter()
            .position(|w| keys.contains(&normalize(w).as_str()))
    };
    let on = pos(&["on", "sur", "onto", "against", "contre", "chez"]);
    let tg = pos(&["target", "cible", "at", "aiming", "vise", "visant"]);
    let card_end = on.or(tg).unwrap_or(rest.len());
    let c = card(
        &rest[..card_end],
        (
            "write: PLAY Lapides, or PLAY Incendie ON Bob",
            "écrivez : JOUER Lapides, ou JOUER Incendie SUR Bob",
        ),
    )?;
    let mut target = None;
    if let Some(i) = on {
        let end = tg.filter(|t| *t > i).unwrap_or(rest.len());
        let who = rest[i + 1..end].join(" ");
        let t = seat_names(g, seat).resolve(&who).map_err(|er| {
            let players = g.players.join(", ");
            refusal(
                format!("player {er}"),
                format!("joueur : {}", name_error_fr(&er)),
            )
            .hints(
                format!("the players are: {players}"),
                format!("les joueurs sont : {players}"),
            )
        })?;
        target = Some(t);
    }
    let mut aim = None;
    if let Some(i) = tg {
        let end = on.filter(|o| *o > i).unwrap_or(rest.len());
        aim = Some(card(
            &rest[i + 1..end],
            (
                "write: PLAY Sorcière ON Bob TARGET Lapides",
                "écrivez : JOUER Sorcière SUR Bob CIBLE Lapides",
            ),
        )?);
    }
    // Normal form: own-site cards carry no target; only the Sorcière keeps an aim.
    if (c.is_material() || c == Card::Roue) && target == Some(seat) {
        target = None;
    }
    if c == Card::PiecesOr && aim == Some(Card::Structores) {
        aim = None;
    }
    Ok(Order::Play {
        card: c,
        target,
        aim,
    })
}

/// The order as a player writes it (English keywords: the stored, canonical form).
pub fn order_text(g: &Castrum, o: &Order) -> String {
    order_text_in(g, o, Lang::En)
}

/// The order with the keywords of `lang` (it parses back to the same order).
pub fn order_text_in(g: &Castrum, o: &Order, lang: Lang) -> String {
    let k = |en: &str, fr: &str| lang.pick(en, fr).to_string();
    match o {
        Order::Play { card, target, aim } => {
            let mut s = format!("{} {}", k("PLAY", "JOUER"), card.name());
            if let Some(t) = target {
                s.push_str(&format!(" {} {}", k("ON", "SUR"), g.name(*t)));
            }
            if let Some(a) = aim {
                s.push_str(&format!(" {} {}", k("TARGET", "CIBLE"), a.name()));
            }
            s
        }
        Order::Discard(c) => format!("{} {}", k("DISCARD", "DÉFAUSSER"), list(c)),
        Order::Build(p) => format!(
            "{} {}",
            k("BUILD", "CONSTRUIRE"),
            p.name_in(lang).to_uppercase()
        ),
        Order::Exchange(c) => format!("{} {}", k("EXCHANGE", "ÉCHANGER"), c.name()),
        Order::End => k("END", "FIN"),
        Order::Defend => k("DEFEND", "DÉFENDRE"),
        Order::Accept => k("ACCEPT", "ACCEPTER"),
        Order::Give(c) => format!("{} {}", k("GIVE", "DONNER"), c.name()),
        Order::SetDefend(p) => format!(
            "{} {}",
            k("SET DEFEND", "CONSIGNE DÉFENSE"),
            match p {
                DefendPolicy::Ask => k("ASK", "DEMANDER"),
                DefendPolicy::Always => k("ALWAYS", "TOUJOURS"),
                DefendPolicy::Never => k("NEVER", "JAMAIS"),
            }
        ),
        Order::SetWorks(v) if v.is_empty() => k("SET WORKS ASK", "CONSIGNE ŒUVRES DEMANDER"),
        Order::SetWorks(v) => format!("{} {}", k("SET WORKS", "CONSIGNE ŒUVRES"), list(v)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every French order word reads as French and is read by the parser as its English
    /// word; the English words do not read as French.
    #[test]
    fn french_order_words_read_as_french() {
        for (fr, en) in FRENCH_ORDER_WORDS {
            assert!(reads_as_french(&format!("{fr} Lapides")), "{fr}");
            assert_eq!(order_word(fr), en);
        }
        for line in [
            "CONSTRUIS muraille",
            "Bâtir tour",
            "pas de défense",
            "DÉFAUSSER Mage",
        ] {
            assert!(reads_as_french(line), "{line}");
        }
        for line in [
            "BUILD wall",
            "NO DEFENCE",
            "PLAY Lapides",
            "END",
            "DEFENSE",
            "Bonjour",
        ] {
            assert!(!reads_as_french(line), "{line}");
        }
    }
}
