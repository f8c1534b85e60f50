//! The public view (the board, the score, the draw counter, the last move) and a seat's
//! private view, in English or French.

use crate::geom::{COLS, ROWS};
use crate::words::{colour, colour_in};
use crate::{Castello, Cell, Side, BLACK, CASTLES_TO_WIN, PAWNS_TO_WIN, RED};
use castellan_engine::lang::fr;
use castellan_engine::{Lang, Seat};

impl Castello {
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
        for seat in Side::BOTH {
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
            let l = l.text_in(lang);
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
        let Some(me) = Side::of_seat(seat) else {
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
        let them = me.other();
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

    /// "Red (Alice)" / "Rouge (Alice)".
    pub(crate) fn name_in(&self, seat: Side, lang: Lang) -> String {
        match self.players.get(seat.index()) {
            Some(n) => format!("{} ({n})", colour_in(seat, lang)),
            None => colour_in(seat, lang).to_string(),
        }
    }

    /// The text board with coordinates.
    pub fn board_text(&self) -> String {
        self.board_text_in(Lang::En)
    }

    /// The text board with coordinates; in French black pawns are `N`/`n` (noir).
    pub fn board_text_in(&self, lang: Lang) -> String {
        let mark = |c: Cell| match (lang, crate::game::glyph(c)) {
            (Lang::Fr, 'B') => 'N',
            (Lang::Fr, 'b') => 'n',
            (_, g) => g,
        };
        let mut s = String::new();
        let header: String = {
            let mut h = String::from("     ");
            for c in 0..COLS {
                if c == 7 || c == 14 {
                    h.push_str("| ");
                }
                h.push((b'A' + c as u8) as char);
                h.push(' ');
            }
            h.trim_end().to_string()
        };
        s.push_str(&header);
        s.push('\n');
        for r in (0..ROWS).rev() {
            s.push_str(&format!("{:>3}  ", r + 1));
            for c in 0..COLS {
                if c == 7 || c == 14 {
                    s.push_str("| ");
                }
                s.push(mark(self.cells[r * COLS + c]));
                s.push(' ');
            }
            s.push_str(&format!("{}\n", r + 1));
        }
        s.push_str(&header);
        s.push('\n');
        s
    }
}
