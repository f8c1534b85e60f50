//! What the game says to its players, in English and French: narration, views, the prompt
//! question and the order help. English is the reference (byte-for-byte what it was);
//! each French phrase stands next to its English one.

use crate::words::{self, colour_in, last_move_in, pawns_in};
use crate::Side;
use crate::{colour, moves, other, Castello, End, Event, BLACK, CASTLES_TO_WIN, PAWNS_TO_WIN, RED};
use castellan_engine::lang::fr;
use castellan_engine::{Lang, Seat};

impl Castello {
    /// The prompt's question (without the draw offer).
    pub(crate) fn question(&self, seat: Side, n_moves: usize, lang: Lang) -> String {
        let limit = crate::PROMPT_CHOICES;
        let mut q = match lang {
            Lang::En => format!(
                "Move {}: your move as {}. Move one pawn (a step, a first move of two, or jumps).",
                self.ply + 1,
                colour(seat)
            ),
            Lang::Fr => format!(
                "Coup {} : à vous de jouer avec {}. Déplacez un pion (d'une case, de deux cases \
                 au premier mouvement, ou par sauts).",
                self.ply + 1,
                words::les(seat)
            ),
        };
        if n_moves > limit {
            q.push_str(&match lang {
                Lang::En => {
                    format!(" {n_moves} legal moves; the choices show {limit}, captures first.")
                }
                Lang::Fr => format!(
                    " {n_moves} coups légaux ; les choix en montrent {limit}, les prises d'abord."
                ),
            });
        }
        q
    }

    /// One event, told to everyone (nothing in Castello is hidden).
    pub(crate) fn narrate_in(&self, event: &Event, lang: Lang) -> String {
        let c = |s: Side| colour_in(s, lang);
        match (event, lang) {
            (Event::Start { first, drawn }, _) => self.narrate_start(*first, *drawn, lang),
            (
                Event::Moved {
                    seat,
                    path,
                    captured,
                },
                _,
            ) => {
                let path = moves::path_text(path);
                let mut s = match lang {
                    Lang::En => format!("{} plays {path}", c(*seat)),
                    Lang::Fr => format!("{} joue {path}", c(*seat)),
                };
                if !captured.is_empty() {
                    let names: Vec<String> = captured.iter().map(|c| c.to_string()).collect();
                    let taken = pawns_in(captured.len(), other(*seat), lang);
                    s.push_str(&match lang {
                        Lang::En => format!(", taking {taken} ({})", names.join(", ")),
                        Lang::Fr => format!(" et prend {taken} ({})", names.join(", ")),
                    });
                }
                s.push('.');
                s
            }
            (Event::CastleTaken { seat, sq, total }, Lang::En) => format!(
                "{} takes the castle on {sq} ({total} of {CASTLES_TO_WIN}).",
                c(*seat)
            ),
            (Event::CastleTaken { seat, sq, total }, Lang::Fr) => format!(
                "{} conquiert le château en {sq} ({total} sur {CASTLES_TO_WIN}).",
                c(*seat)
            ),
            (Event::DrawOffered { seat }, Lang::En) => format!("{} offers a draw.", c(*seat)),
            (Event::DrawOffered { seat }, Lang::Fr) => format!("{} propose la nulle.", c(*seat)),
            (Event::DrawDeclined { seat }, Lang::En) => {
                format!("{} moves on: the draw offer is declined.", c(*seat))
            }
            (Event::DrawDeclined { seat }, Lang::Fr) => {
                format!("{} joue : la proposition de nulle est refusée.", c(*seat))
            }
            (Event::DrawAgreed, Lang::En) => "The players agree a draw.".into(),
            (Event::DrawAgreed, Lang::Fr) => "Les joueurs conviennent de la nulle.".into(),
            (Event::Resigned { seat }, Lang::En) => format!("{} resigns.", c(*seat)),
            (Event::Resigned { seat }, Lang::Fr) => format!("{} abandonne.", c(*seat)),
            (Event::Ended { winners, end }, _) => self.narrate_end(winners, *end, lang),
        }
    }

    fn narrate_start(&self, first: Side, drawn: bool, lang: Lang) -> String {
        match lang {
            Lang::En => format!(
                "Castello begins: {} (columns A-B) against {} (columns T-U); {} moves first{}.",
                self.name_in(RED, lang),
                self.name_in(BLACK, lang),
                colour(first),
                if drawn { " (drawn by lot)" } else { "" }
            ),
            Lang::Fr => format!(
                "La partie de Castello commence : {} (colonnes A-B) contre {} (colonnes T-U) ; \
                 {} joue en premier{}.",
                self.name_in(RED, lang),
                self.name_in(BLACK, lang),
                colour_in(first, lang),
                if drawn { " (tiré au sort)" } else { "" }
            ),
        }
    }

    fn narrate_end(&self, winners: &[Seat], end: End, lang: Lang) -> String {
        let reason = end.text(lang);
        let winner = winners
            .first()
            .and_then(|w| Side::of_seat(*w))
            .map(|w| self.name_in(w, lang));
        match (winner, lang) {
            (Some(w), Lang::En) => format!("Game over: {w} wins ({reason})."),
            (Some(w), Lang::Fr) => format!("Partie terminée : {w} gagne ({reason})."),
            (None, Lang::En) => format!("Game over: {reason}."),
            (None, Lang::Fr) => format!("Partie terminée : {reason}."),
        }
    }

    /// The board and the score, for everyone.
    pub(crate) fn public_view_in(&self, lang: Lang) -> String {
        let mut s = match (&self.result, lang) {
            (Some(o), Lang::En) => format!(
                "Castello, after {} moves: game over, {}.\n",
                self.ply,
                o.text(lang)
            ),
            (Some(o), Lang::Fr) => format!(
                "Castello, après {} : partie terminée, {}.\n",
                fr::count(self.ply, "coup", "coups"),
                o.text(lang)
            ),
            (None, Lang::En) => format!(
                "Castello, move {}: {} to move.\n",
                self.ply + 1,
                self.name_in(self.to_move, lang)
            ),
            (None, Lang::Fr) => format!(
                "Castello, coup {} : à {} de jouer.\n",
                self.ply + 1,
                self.name_in(self.to_move, lang)
            ),
        };
        s.push_str(&self.board_text_in(lang));
        s.push_str(lang.pick(
            "R r = red pawns, B b = black pawns (capital: has not moved yet, may still go two \
             squares), # = castle, | = section boundary.\n",
            "R r = pions rouges, N n = pions noirs (majuscule : pion qui n'a pas encore bougé et \
             peut encore avancer de deux cases), # = château, | = limite de section.\n",
        ));
        for seat in [RED, BLACK] {
            s.push_str(&self.score_line(seat, lang));
        }
        s.push_str(&self.public_footer(lang));
        s
    }

    /// "Red (Alice): 30 pawns on the board, has taken ...".
    fn score_line(&self, seat: Side, lang: Lang) -> String {
        let taken: Vec<String> = self
            .castles_taken(seat)
            .iter()
            .map(|c| c.to_string())
            .collect();
        let list = if taken.is_empty() {
            String::new()
        } else {
            format!(" ({})", taken.join(", "))
        };
        let (name, on_board) = (self.name_in(seat, lang), self.pawn_count(seat));
        let pawns = self.pawns_taken(seat);
        match lang {
            Lang::En => format!(
                "{name}: {on_board} pawns on the board, has taken {pawns} of {PAWNS_TO_WIN} enemy pawns and {} of {CASTLES_TO_WIN} castles{list}.\n",
                taken.len(),
            ),
            Lang::Fr => format!(
                "{name} : {} sur le tablier, a pris {} sur {PAWNS_TO_WIN} et {} sur \
                 {CASTLES_TO_WIN}{list}.\n",
                fr::count(on_board as i64, "pion", "pions"),
                fr::count(pawns, "pion adverse", "pions adverses"),
                fr::count(taken.len() as i64, "château", "châteaux"),
            ),
        }
    }

    /// Home castles, the draw counter, the last move and a standing draw offer.
    fn public_footer(&self, lang: Lang) -> String {
        let home = |seat: Side| {
            self.castles()
                .iter()
                .filter(|c| c.home == Some(seat) && c.taken_by.is_none())
                .map(|c| c.sq.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        let (quiet, limit) = (self.quiet(), self.options().move_limit);
        let mut s = match lang {
            Lang::En => format!(
                "Red's home castles (Red may not take them): {}. Black's home castles: {}.\n\
                 Moves without a capture: {quiet} of {limit} (then a draw).\n",
                home(RED),
                home(BLACK)
            ),
            Lang::Fr => format!(
                "Châteaux du domicile de Rouge (Rouge ne peut pas les prendre) : {}. Châteaux \
                 du domicile de Noir : {}.\nCoups sans prise : {quiet} sur {limit} (ensuite, \
                 partie nulle).\n",
                home(RED),
                home(BLACK)
            ),
        };
        if let Some(l) = &self.last {
            let l = last_move_in(l, lang);
            s.push_str(&lang.pick(
                format!("Last move: {l}.\n"),
                format!("Dernier coup : {l}.\n"),
            ));
        }
        if let Some(o) = self.draw_offer() {
            s.push_str(&lang.pick(
                format!("{} offers a draw.\n", colour(o)),
                format!("{} propose la nulle.\n", colour_in(o, lang)),
            ));
        }
        s
    }

    /// What the seat reads: whose move, a draw offer, and its legal moves when it is to move.
    pub(crate) fn private_view_in(&self, seat: Seat, lang: Lang) -> String {
        let Some(me) = [RED, BLACK].into_iter().find(|s| *s as Seat == seat) else {
            return String::new();
        };
        let mut s = lang.pick(
            format!("You play {}.\n", self.name_in(me, lang)),
            format!("Vous êtes {}.\n", self.name_in(me, lang)),
        );
        if self.result.is_some() {
            s.push_str(lang.pick("The game is over.\n", "La partie est terminée.\n"));
            return s;
        }
        let them = other(me);
        if self.draw_offer() == Some(them) {
            s.push_str(&lang.pick(
                format!(
                    "{} offers you a draw: write ACCEPT DRAW, or move to decline.\n",
                    colour(them)
                ),
                format!(
                    "{} vous propose la nulle : écrivez ACCEPTE NULLE, ou jouez un coup pour \
                     refuser.\n",
                    colour_in(them, lang)
                ),
            ));
        }
        if self.draw_offer() == Some(me) {
            s.push_str(lang.pick(
                "Your draw offer stands until your opponent moves.\n",
                "Votre proposition de nulle tient jusqu'au prochain coup de votre adversaire.\n",
            ));
        }
        if self.to_move() != me {
            s.push_str(&lang.pick(
                format!(
                    "{} is to move; your turn comes after theirs.\n",
                    colour(self.to_move())
                ),
                format!(
                    "C'est à {} de jouer ; votre tour vient ensuite.\n",
                    colour_in(self.to_move(), lang)
                ),
            ));
            return s;
        }
        // The legal moves are the prompt's choices, which the judge lists once at the top
        // of the mail (Session::pending); the view only says how many there are.
        let n = self.legal_moves(me).len();
        s.push_str(&lang.pick(
            format!("It is your move: {n} legal move(s).\n"),
            format!("C'est à vous de jouer : {n} coup(s) légal(aux).\n"),
        ));
        s
    }
}

/// The ORDERS help.
pub(crate) fn order_help(lang: Lang) -> String {
    match lang {
        Lang::En => "Castello orders (one per line):\n\
         E4-E5            move the pawn on E4 one square (any of the 8 directions)\n\
         E4-E6            a pawn's first move may go two squares in a straight line\n\
         E4-E2-C2-A2-C4   jumps over adjacent pawns (either colour, never a castle) to the\n\
                          empty square beyond; enemy pawns jumped are taken; stop whenever\n\
                          you like; the move ends after the fifth capture\n\
         RESIGN           give up the game\n\
         OFFER DRAW       offer a draw (it stands until your opponent moves)\n\
         ACCEPT DRAW      accept your opponent's offer\n\
         Squares are a column A-U and a row 1-15; lowercase, spaces and x work too \
         (e4 e2 c2, E4xE2xC2)."
            .into(),
        Lang::Fr => [
            "Ordres de Castello (un par ligne) :",
            "E4-E5            déplace le pion de E4 d'une case (dans l'une des 8 directions)",
            "E4-E6            premier mouvement d'un pion : deux cases en ligne droite",
            "E4-E2-C2-A2-C4   sauts par-dessus des pions voisins (de l'une ou l'autre couleur,",
            "                 jamais un château) vers la case libre juste derrière ; les pions",
            "                 adverses sautés sont pris ; arrêtez-vous quand vous voulez ; le",
            "                 coup s'achève après la cinquième prise",
            "ABANDON          abandonner la partie",
            "PROPOSE NULLE    proposer la nulle (elle tient jusqu'au prochain coup adverse)",
            "ACCEPTE NULLE    accepter la nulle proposée par votre adversaire",
            "Une case est une colonne A-U et une rangée 1-15 ; minuscules, espaces et x sont",
            "acceptés (e4 e2 c2, E4xE2xC2), ainsi qu'un JOUE en tête (JOUE E4-E5). Les ordres",
            "s'écrivent aussi en anglais (RESIGN, OFFER DRAW, ACCEPT DRAW, MOVE).",
        ]
        .join("\n"),
    }
}
