//! The text map of Europe, the private view and the order help, in English and French
//! (narration: narrate.rs).

use crate::cards::hand_text_in;
use crate::game::{CastleRisk, Phase, T};
use crate::map::{map, Sea, EMPIRES};
use crate::words;
use castellan_engine::lang::{en, fr};
use castellan_engine::{Lang, Seat};

fn tn(t: T) -> &'static str {
    CastleRisk::tname(t)
}

pub use crate::narrate::narrate;

/// The text map every player and observer sees.
pub fn public_view(g: &CastleRisk, lang: Lang) -> String {
    let mut out = String::new();
    out.push_str(&format!("CASTLE RISK ({})\n", phase_text(g, lang)));
    let next = if g.track < 12 {
        (g.track + 3).to_string()
    } else {
        "-".into()
    };
    out.push_str(&match lang {
        Lang::En => format!(
            "Reinforcements track: {} of 12 played; next card worth {next}; hidden armies now worth {}.\n",
            g.track,
            g.hidden_value()
        ),
        Lang::Fr => format!(
            "Piste des Renforts : {} sur 12 jouées ; la prochaine carte vaut {next} ; les armées cachées valent maintenant {}.\n",
            g.track,
            g.hidden_value()
        ),
    });
    out.push_str(&format!(
        "{} {}, {} {}, {} {}.\n",
        lang.pick("Cards: pile", "Cartes : pioche"),
        g.pile.len(),
        lang.pick("discard", "défausse"),
        g.discard.len(),
        lang.pick("on the table", "sur la table"),
        g.in_play.len()
    ));
    out.push_str(lang.pick("Players:\n", "Joueurs :\n"));
    for s in 0..g.n() {
        out.push_str(&player_line(g, s, lang));
    }
    out.push_str(&tokens_line(g, lang));
    out.push_str(&hidden_line_public(g, lang));
    if !g.truces.is_empty() {
        out.push_str(lang.pick("Truces:\n", "Trêves :\n"));
        for t in &g.truces {
            let (by, with) = (g.name(t.by), g.name(t.with));
            out.push_str(&match lang {
                Lang::En => format!("  {by} and {with} (until the end of {with}'s next turn)\n"),
                Lang::Fr => format!(
                    "  {by} et {with} (jusqu'à la fin du prochain tour {})\n",
                    fr::de(with)
                ),
            });
        }
    }
    for gi in 0..map().board.groups.len() {
        out.push_str(&group_table(g, gi, lang));
    }
    out.push_str(lang.pick(
        "\n(All 11 independents together earn 6. * a port on the open sea, ^ on the Black Sea.)\n",
        "\n(Les 11 territoires indépendants ensemble rapportent 6. * un port sur la haute mer, ^ sur la mer Noire.)\n",
    ));
    if let Some(o) = &g.outcome {
        out.push_str(&format!(
            "\n{}: {}\n",
            lang.pick("GAME OVER", "PARTIE TERMINÉE "),
            o.reason_in(lang)
        ));
    }
    out
}

fn phase_text(g: &CastleRisk, lang: Lang) -> String {
    let (en, fr) = match &g.phase {
        Phase::Castles { .. } => ("setup: castles", "mise en place : châteaux"),
        Phase::Claim { .. } => (
            "setup: claiming territories",
            "mise en place : prise des territoires",
        ),
        Phase::Draft { .. } => (
            "setup: draft (ranked lists)",
            "mise en place : répartition (classements)",
        ),
        Phase::Place { .. } => (
            "setup: placing armies, 5 at a time",
            "mise en place : placement des armées, 5 à la fois",
        ),
        Phase::Blind { .. } => (
            "setup: blind placement",
            "mise en place : placement à l'aveugle",
        ),
        Phase::Hide => ("setup: hidden armies", "mise en place : armées cachées"),
        Phase::Play => {
            let who = g.name(g.current);
            return match lang {
                Lang::En => format!("turn {}, {who} to play", g.turns_played),
                Lang::Fr => format!("tour {}, à {who} de jouer", g.turns_played),
            };
        }
        Phase::Over => ("game over", "partie terminée"),
    };
    lang.pick(en, fr).to_string()
}

/// "  Alice: castle in Paris, 5 territories, 20 armies, 3 cards" (what changes every
/// turn, on one line; the tokens and hidden armies, which seldom change, on their own:
/// `tokens_line`, `hidden_line_public`).
fn player_line(g: &CastleRisk, s: Seat, lang: Lang) -> String {
    let terr = g.territories_of(s);
    let armies: u32 = terr.iter().map(|t| g.board[*t].armies).sum();
    let castle = g.players[s].castle.map(|c| tn_in(c, lang)).unwrap_or("-");
    let state = match (g.players[s].alive, lang) {
        (true, Lang::En) => format!(
            "castle in {castle}, {}, {}, {}",
            en::count(terr.len() as i64, "territory", "territories"),
            en::count(armies, "army", "armies"),
            en::count(g.players[s].hand.len() as i64, "card", "cards")
        ),
        (true, Lang::Fr) => format!(
            "château : {castle}, {}, {}, {}",
            fr::count(terr.len() as i64, "territoire", "territoires"),
            fr::count(armies, "armée", "armées"),
            fr::count(g.players[s].hand.len() as i64, "carte", "cartes")
        ),
        (false, _) => lang.pick("eliminated", "hors jeu").to_string(),
    };
    format!("  {}{} {state}\n", g.name(s), lang.pick(":", " :"))
}

/// "Tokens: Alice Ottoman Empire; Bruno Russian Empire, French Empire." (a seat not named
/// holds none).
fn tokens_line(g: &CastleRisk, lang: Lang) -> String {
    let held: Vec<String> = (0..g.n())
        .filter(|&s| !g.players[s].tokens.is_empty())
        .map(|s| {
            let tokens: Vec<String> = g.players[s]
                .tokens
                .iter()
                .map(|e| words::group(*e, lang))
                .collect();
            format!("{} {}", g.name(s), tokens.join(", "))
        })
        .collect();
    format!(
        "{} {}.\n",
        lang.pick("Tokens:", "Jetons :"),
        if held.is_empty() {
            lang.pick("none", "aucun").to_string()
        } else {
            held.join(lang.pick("; ", " ; "))
        }
    )
}

/// "Hidden armies: Alice used in Rhine; Bruno committed ba3477b24b71." (a seat not named
/// has none).
fn hidden_line_public(g: &CastleRisk, lang: Lang) -> String {
    let told: Vec<String> = (0..g.n())
        .filter(|&s| !g.players[s].hidden.is_empty())
        .map(|s| {
            let hidden: Vec<String> = g.players[s]
                .hidden
                .iter()
                .map(|h| match (h.used, lang) {
                    (true, Lang::En) => format!("used in {}", tn(h.territory)),
                    (true, Lang::Fr) => format!("utilisées {}", words::en(h.territory)),
                    (false, _) => format!(
                        "{} {}",
                        lang.pick("committed", "engagement"),
                        &h.commitment[..12.min(h.commitment.len())]
                    ),
                })
                .collect();
            format!("{} {}", g.name(s), hidden.join(", "))
        })
        .collect();
    format!(
        "{} {}.\n",
        lang.pick("Hidden armies:", "Armées cachées :"),
        if told.is_empty() {
            lang.pick("none", "aucune").to_string()
        } else {
            told.join(lang.pick("; ", " ; "))
        }
    )
}

fn tn_in(t: T, lang: Lang) -> &'static str {
    words::tn(t, lang)
}

/// One empire (or independent group) in one paragraph: its header, then its territories
/// by holder, each with its armies and marks: "FRENCH EMPIRE (4 for all). Bot2: Paris* 1,
/// Marseille* 3. Bot3: Burgundy 2 (castle)." (`*` a port on the open sea, `^` on the
/// Black Sea: the legend after the last group); held by one, "... , all held by Bot2:
/// Paris* 1, ...".
fn group_table(g: &CastleRisk, gi: usize, lang: Lang) -> String {
    let grp = &map().board.groups[gi];
    let holder = grp.members.first().and_then(|t| g.board[*t].owner);
    let all = holder.is_some() && grp.members.iter().all(|t| g.board[*t].owner == holder);
    let bonus = if gi < EMPIRES.len() {
        lang.pick(" (4 for all)", " (4 pour l'empire entier)")
    } else {
        ""
    };
    let name = words::group(gi, lang).to_uppercase();
    let colon = lang.pick(":", " :");
    if all {
        let h = g.name(holder.unwrap_or(0));
        let list: Vec<String> = grp.members.iter().map(|&t| entry(g, t, lang)).collect();
        let held = match lang {
            Lang::En => format!(", all held by {h}"),
            Lang::Fr => format!(", tout à {h}"),
        };
        return format!("\n{name}{bonus}{held}{colon} {}.\n", list.join(", "));
    }
    // Holders in seat order, then the territories nobody holds.
    let holders = (0..g.n()).map(Some).chain([None]);
    let parts: Vec<String> = holders
        .filter_map(|h| {
            let list: Vec<String> = grp
                .members
                .iter()
                .filter(|t| g.board[**t].owner == h)
                .map(|&t| entry(g, t, lang))
                .collect();
            let who = match h {
                Some(s) => g.name(s).to_string(),
                None => lang.pick("nobody's", "à personne").to_string(),
            };
            (!list.is_empty()).then(|| format!("{who}{colon} {}.", list.join(", ")))
        })
        .collect();
    format!("\n{name}{bonus}. {}\n", parts.join(" "))
}

/// "Paris* 1", "Smolensk 9 (castle)", "Bulgaria^ 23 (castle of Bot1)": a territory in a
/// group's paragraph (its holder named before it).
fn entry(g: &CastleRisk, t: T, lang: Lang) -> String {
    let port = match map().sea[t] {
        Sea::None => "",
        Sea::Open => "*",
        Sea::Black => "^",
        Sea::Both => "*^",
    };
    let castle = match g.castle_owner_at(t) {
        Some(c) if g.board[t].owner == Some(c) => lang.pick(" (castle)", " (château)").to_string(),
        Some(c) => match lang {
            Lang::En => format!(" (castle of {})", g.name(c)),
            Lang::Fr => format!(" (château {})", fr::de(g.name(c))),
        },
        None => String::new(),
    };
    format!("{}{port} {}{castle}", tn_in(t, lang), g.board[t].armies)
}

/// Each standing order in words, and whether the player set it (else the default).
fn standing_text(g: &CastleRisk, s: Seat, lang: Lang) -> Vec<(String, bool)> {
    use crate::game::*;
    let st = &g.players[s].standing;
    let set_or = |set: bool| {
        if set {
            ""
        } else {
            lang.pick(" (default)", " (par défaut)")
        }
    };
    let dice = st.defend.unwrap_or(DEFAULT_DEFEND);
    let marshal = match (st.marshal.unwrap_or(DEFAULT_MARSHAL), lang) {
        (MarshalPolicy::Never, _) => lang.pick("never", "jamais").to_string(),
        (MarshalPolicy::Always, _) => lang.pick("always", "toujours").to_string(),
        (MarshalPolicy::When(n), Lang::En) => {
            format!("when the territory holds {n}+ armies or is the castle")
        }
        (MarshalPolicy::When(n), Lang::Fr) => {
            format!("quand le territoire a {n} armées ou plus, ou est le château")
        }
    };
    let counter = if st.counterspy.unwrap_or(DEFAULT_COUNTERSPY) {
        lang.pick("always", "toujours")
    } else {
        lang.pick("never", "jamais")
    };
    let reveal = match (st.reveal.unwrap_or(DEFAULT_REVEAL), lang) {
        (RevealPolicy::Never, _) => lang.pick("never", "jamais").to_string(),
        (RevealPolicy::OnAttack(n), Lang::En) => format!("when attacked and worth {n}+"),
        (RevealPolicy::OnAttack(n), Lang::Fr) => {
            format!("en cas d'attaque, si elles valent {n} ou plus")
        }
    };
    let annex = match &st.annex {
        None => lang
            .pick(
                "default (next to your territories)",
                "par défaut (à côté de vos territoires)",
            )
            .to_string(),
        Some(l) if l.is_empty() => "auto".to_string(),
        Some(l) => l
            .iter()
            .map(|t| tn_in(*t, lang))
            .collect::<Vec<_>>()
            .join(", "),
    };
    let reoccupy = match st.reoccupy {
        None => lang.pick("ask", "demander"),
        Some(true) => lang.pick("all", "tout"),
        Some(false) => lang.pick("none", "aucun"),
    };
    let general = if st.general_again.unwrap_or(DEFAULT_GENERAL_AGAIN) {
        lang.pick("yes (AGAIN)", "oui (ENCORE)")
    } else {
        lang.pick("no (ONCE)", "non (SEUL)")
    };
    let gs = set_or(st.general_again.is_some());
    let (d, m, c, r) = (
        set_or(st.defend.is_some()),
        set_or(st.marshal.is_some()),
        set_or(st.counterspy.is_some()),
        set_or(st.reveal.is_some()),
    );
    let mut lines = match lang {
        Lang::En => vec![
            format!("defend with {dice} dice{d}"),
            format!("Marshal: {marshal}{m}"),
            format!("counter-Spy: {counter}{c}"),
            format!("reveal hidden armies on defence: {reveal}{r}"),
            format!("annex: {annex}"),
            format!("re-occupy: {reoccupy}"),
            format!("a second General when one is beaten: {general}{gs}"),
        ],
        Lang::Fr => vec![
            format!("défendre avec {}{d}", fr::count(dice, "dé", "dés")),
            format!("Maréchal : {marshal}{m}"),
            format!("contre-Espion : {counter}{c}"),
            format!("dévoiler les armées cachées en défense : {reveal}{r}"),
            format!("annexion : {annex}"),
            format!("réoccupation : {reoccupy}"),
            format!("un autre Général quand l'un est battu : {general}{gs}"),
        ],
    };
    // Games of rules revision 0 replace a beaten General unasked: no such choice to show.
    if g.options.revision == 0 {
        lines.pop();
    }
    let set = [
        st.defend.is_some(),
        st.marshal.is_some(),
        st.counterspy.is_some(),
        st.reveal.is_some(),
        st.annex.is_some(),
        st.reoccupy.is_some(),
        st.general_again.is_some(),
    ];
    lines.into_iter().zip(set).collect()
}

/// What only `seat` may know.
pub fn private_view(g: &CastleRisk, s: Seat, lang: Lang) -> String {
    if s >= g.n() {
        return String::new();
    }
    // No heading naming the seat: the mail that carries the view says whose it is.
    let mut out = String::new();
    out.push_str(&format!(
        "{}{}\n",
        lang.pick("Hand: ", "Main : "),
        hand_text_in(&g.players[s].hand, lang)
    ));
    let engaged: Vec<&str> = g
        .in_play
        .iter()
        .filter(|(x, _)| *x == s)
        .map(|(_, c)| c.name_in(lang))
        .collect();
    if !engaged.is_empty() {
        out.push_str(&format!(
            "{}{}\n",
            lang.pick("Engaged on the table: ", "Engagées sur la table : "),
            engaged.join(", ")
        ));
    }
    for h in &g.players[s].hidden {
        out.push_str(&hidden_line(g, s, h, lang));
    }
    let truces: Vec<String> = g
        .truces
        .iter()
        .filter(|t| t.by == s || t.with == s)
        .map(|t| g.name(if t.by == s { t.with } else { t.by }).to_string())
        .collect();
    if !truces.is_empty() {
        out.push_str(&format!(
            "{}{}\n",
            lang.pick("Truces with: ", "Trêves avec : "),
            truces.join(", ")
        ));
    }
    // Once the game is over, the neighbours no longer matter. The board around the seat
    // in short (every neighbour of every territory: NEIGHBOURS).
    if g.outcome.is_none() {
        for l in crate::shape::compact_lines(g, s, lang) {
            out.push_str(&l);
            out.push('\n');
        }
    }
    // One line (a report a 6-player game sends stays short): on the first turn every
    // standing order, "(default)" where the player set none; later only those the player
    // set (HELP lists them all), so a report does not tell the defaults again and again.
    let standing = standing_text(g, s, lang);
    if g.turn <= 1 {
        out.push_str(lang.pick("Standing orders: ", "Consignes : "));
        out.push_str(
            &standing
                .into_iter()
                .map(|(t, _)| t)
                .collect::<Vec<_>>()
                .join(lang.pick("; ", " ; ")),
        );
        out.push('\n');
    } else {
        let set: Vec<String> = standing
            .into_iter()
            .filter(|(_, set)| *set)
            .map(|(t, _)| t)
            .collect();
        if !set.is_empty() {
            out.push_str(lang.pick(
                "Your standing orders (the others as by default): ",
                "Vos consignes (les autres par défaut) : ",
            ));
            out.push_str(&set.join(lang.pick("; ", " ; ")));
            out.push('\n');
        }
    }
    // What the seat is asked (and its choices) is the judge's to say, once, at the top of
    // its mail (Session::pending): the view is the seat's secret state only.
    out
}

fn hidden_line(g: &CastleRisk, s: Seat, h: &crate::game::Hidden, lang: Lang) -> String {
    let from = if h.chosen_by != s {
        match lang {
            Lang::En => format!(" (taken from {})", g.name(h.chosen_by)),
            Lang::Fr => format!(" (prises à {})", g.name(h.chosen_by)),
        }
    } else {
        String::new()
    };
    let can = !h.used && g.board[h.territory].owner == Some(s);
    match lang {
        Lang::En => format!(
            "Hidden armies{from}: {} ({}), worth {} now{}\n",
            tn(h.territory),
            if h.used { "used" } else { "unused" },
            g.hidden_value(),
            if can { "; you hold it: REVEAL" } else { "" }
        ),
        Lang::Fr => format!(
            "Armées cachées{from} : {} ({}), valent {} maintenant{}\n",
            tn_in(h.territory, lang),
            if h.used { "utilisées" } else { "inutilisées" },
            g.hidden_value(),
            if can {
                " ; vous l'occupez : DÉVOILER"
            } else {
                ""
            }
        ),
    }
}

/// The order help (ORDERS), in `lang`.
pub fn help(lang: Lang) -> String {
    lang.pick(HELP, HELP_FR).to_string()
}

pub const HELP: &str = "\
Castle Risk orders (one per line; English or French keywords; names are forgiving):
Setup
  CASTLE Paris                      put your castle in your drawn empire (CHATEAU)
  CLAIM Livonia                     claim a free territory (table claim)
  RANK Livonia, Poland, Moscow      your ranked list (draft claim); RANK alone = no preference
  PLACE 3 Paris, 2 Brittany         place armies (setup rounds of 5, blind, reinforcements, earnings)
  HIDE Livonia                      your secret hidden-army territory (CACHER)
Your turn
  REINFORCE 2                       play 2 Reinforcements cards (before the first attack) (RENFORT)
  TRUCE Bob                         play a Diplomat (before the first attack) (TREVE / DIPLOMATE)
  SPY Bob [DISCARD Admiral, General]  play a Spy; the first listed card Bob holds is discarded (ESPION)
  REVEAL [Livonia]                  reveal your hidden armies in a territory you hold (REVELER)
  ATTACK Livonia FROM Poland [UNTIL CONQUERED | UNTIL 3 LEFT | FOR 2 ROLLS] [WITH 2 DICE]
         [THEN MOVE 5 | MOVE ALL | LEAVE 2] [GENERAL [AGAIN|ONCE]]        (ATTAQUE ... DEPUIS ...)
  SAIL 6 FROM Marseille TO Naples [WITH 2 DICE] [GENERAL]     Admiral sea attack, to the end (AMIRAL)
  END                               end the turn and collect earnings (FIN)
After a castle capture
  OCCUPY Livonia [FROM Poland] | OCCUPY ALL | PASS            the victor re-occupies
  ANNEX Livonia [FROM Moscow]                                 the others annex in turn
Answers when asked (option ask=true)
  DEFEND 2 [MARSHAL] [REVEAL]       defend a whole attack
  COUNTERSPY | NO COUNTERSPY        answer a Spy
Standing orders (any time)
  SET DEFEND 1|2, SET MARSHAL ALWAYS|NEVER|WHEN 3+, SET COUNTERSPY ALWAYS|NEVER,
  SET REVEAL ON ATTACK|NEVER|WHEN 5+, SET ANNEX AUTO|Livonia, Poland, SET REOCCUPY ALL|NONE|ASK,
  SET GENERAL AGAIN|ONCE (another General when one is beaten in an attack; default ONCE),
  SET ASK (forget them all)
";

/// The order help in French: the French order words (the English ones are accepted too)
/// and the French names of the territories and cards.
pub const HELP_FR: &str = "\
Ordres de Castle Risk (un par ligne ; mots-clés français ou anglais, accents facultatifs ;
les noms de territoires en français ou en anglais, « la Pologne » ou « Pologne ») :
Mise en place
  CHÂTEAU Paris                       placez votre château dans l'empire tiré (CASTLE)
  PRENDRE Livonie                     prenez un territoire libre (CLAIM)
  CLASSEMENT Livonie, Pologne, Moscou votre classement (répartition) ; CLASSEMENT seul = sans préférence (RANK)
  PLACER 3 Paris, 2 Bretagne          placez des armées (mise en place par 5, à l'aveugle, renforts, nouvelles troupes) (PLACE)
  CACHER Livonie                      le territoire secret de vos armées cachées (HIDE)
Votre tour
  RENFORT 2                           jouez 2 cartes Renfort (avant la première attaque) (REINFORCE)
  TRÊVE Bob                           jouez un Diplomate (avant la première attaque) (TRUCE)
  ESPION Bob [DÉFAUSSER Amiral, Général]  jouez un Espion ; Bob défausse la première carte de la liste qu'il a (SPY)
  DÉVOILER [Livonie]                  dévoilez vos armées cachées dans un territoire que vous occupez (REVEAL)
  ATTAQUE Livonie DEPUIS Pologne [JUSQU'À CONQUÊTE | JUSQU'À 3 RESTANTS | POUR 2 LANCERS] [AVEC 2 DÉS]
          [PUIS DÉPLACER 5 | DÉPLACER TOUT | LAISSER 2] [GÉNÉRAL [ENCORE|SEUL]]    (ATTACK ... FROM ...)
  AMIRAL 6 DEPUIS Marseille VERS Naples [AVEC 2 DÉS] [GÉNÉRAL]      attaque par la mer, jusqu'au bout (SAIL)
  FIN                                 finissez le tour et recevez vos nouvelles troupes (END)
Après la prise d'un château
  OCCUPER Livonie [DEPUIS Pologne] | OCCUPER TOUT | PASSER        le vainqueur réoccupe (OCCUPY, PASS)
  ANNEXER Livonie [DEPUIS Moscou]                                 les autres annexent à tour de rôle (ANNEX)
Réponses quand on vous le demande (option ask=true)
  DÉFENDRE 2 [MARÉCHAL] [DÉVOILER]    défendez toute une attaque (DEFEND)
  CONTRE-ESPION | PAS DE CONTRE-ESPION   répondez à un Espion (COUNTERSPY)
Consignes (à tout moment) (SET)
  CONSIGNE DÉFENDRE 1|2, CONSIGNE MARÉCHAL TOUJOURS|JAMAIS|QUAND 3+, CONSIGNE CONTRE-ESPION TOUJOURS|JAMAIS,
  CONSIGNE DÉVOILER SUR ATTAQUE|JAMAIS|QUAND 5+, CONSIGNE ANNEXER AUTO|Livonie, Pologne,
  CONSIGNE RÉOCCUPER TOUT|AUCUN|DEMANDER,
  CONSIGNE GÉNÉRAL ENCORE|SEUL (un autre Général quand l'un est battu dans une attaque ; par défaut SEUL),
  CONSIGNE DEMANDER (les oublier toutes)
Cartes : Maréchal, Diplomate, Général, Amiral, Espion, Renfort.
";
