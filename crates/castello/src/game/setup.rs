//! Setting a game up: the published start position, the options checked, and positions
//! from a diagram for tests and analysis.

use super::*;
use crate::layout;
use castellan_engine::words::{refusal, Hints};
use castellan_engine::{DiceBox, OrderError};

impl Castello {
    /// A game at the published start position.
    pub fn new(players: &[String], options: &Options, first: Side) -> Result<Castello, String> {
        let l = layout::published()?;
        let cells = l
            .cells
            .iter()
            .map(|c| match c {
                layout::Start::Empty => Cell::Empty,
                layout::Start::Castle => Cell::Castle,
                layout::Start::Pawn(s) => Cell::Pawn {
                    seat: *s,
                    moved: false,
                },
            })
            .collect();
        let castles = l
            .castles
            .iter()
            .map(|c| Castle {
                sq: c.sq,
                home: c.home,
                centre: c.centre,
                taken_by: None,
            })
            .collect();
        let mut g = Castello {
            options: options.clone(),
            players: players.to_vec(),
            cells,
            castles,
            first,
            to_move: first,
            ply: 0,
            quiet: 0,
            seen: Vec::new(),
            pawns_taken: [0, 0],
            draw_offer: None,
            last: None,
            last_path: Vec::new(),
            last_captured: Vec::new(),
            result: None,
            default_memo: std::sync::OnceLock::new(),
        };
        g.seen.push(g.position_hash());
        Ok(g)
    }

    /// A position set up from a diagram (15 rows, row 15 first; `R`/`r` red pawn not yet
    /// moved / moved, `B`/`b` black, `#` castle, `.` empty; spaces and `|` ignored), with
    /// `to_move` to play. Castles keep their published sections; a published castle square
    /// shown empty counts as taken by nobody and is simply gone. For tests and analysis.
    pub fn from_diagram(
        rows: &[&str],
        to_move: Side,
        options: &Options,
    ) -> Result<Castello, String> {
        let rows: Vec<String> = rows.iter().map(|s| s.to_string()).collect();
        let cells = board_rows::parse_rows(&rows)?;
        let l = layout::published()?;
        let mut castles = Vec::new();
        for c in &l.castles {
            if cells[c.sq.idx()] == Cell::Castle {
                castles.push(Castle {
                    sq: c.sq,
                    home: c.home,
                    centre: c.centre,
                    taken_by: None,
                });
            }
        }
        for (i, c) in cells.iter().enumerate() {
            if *c == Cell::Castle && !castles.iter().any(|k| k.sq.idx() == i) {
                return Err(format!("{} is not a castle square", Sq::from_idx(i)));
            }
        }
        let mut g = Castello::new(&["Red".into(), "Black".into()], options, to_move)?;
        g.cells = cells;
        g.castles = castles;
        g.to_move = to_move;
        g.seen = vec![g.position_hash()];
        Ok(g)
    }

    /// Mark the castle on `s` as already taken by `seat` (test set-ups: "Black has already
    /// taken one castle of the enemy home"). The square must not hold a castle any more in
    /// the diagram; the castle is added with its published section.
    pub fn with_castle_taken(mut self, s: Sq, seat: Side) -> Result<Castello, String> {
        self.default_memo = std::sync::OnceLock::new();
        let l = layout::published()?;
        let spec = l
            .castles
            .iter()
            .find(|c| c.sq == s)
            .ok_or_else(|| format!("{s} is not a castle square"))?;
        self.castles.retain(|c| c.sq != s);
        self.castles.push(Castle {
            sq: s,
            home: spec.home,
            centre: spec.centre,
            taken_by: Some(seat),
        });
        if self.cells[s.idx()] == Cell::Castle {
            self.cells[s.idx()] = Cell::Empty;
        }
        Ok(self)
    }

    /// Set the count of pawns `seat` has captured (test set-ups).
    pub fn with_pawns_taken(mut self, seat: Side, n: u32) -> Castello {
        self.default_memo = std::sync::OnceLock::new();
        self.pawns_taken[seat.index()] = n;
        self
    }

    /// Set the moves-without-capture counter (test set-ups).
    pub fn with_quiet_moves(mut self, n: u32) -> Castello {
        self.default_memo = std::sync::OnceLock::new();
        self.quiet = n;
        self
    }

    fn check_options(options: &Options) -> Result<(), OrderError> {
        if !(10..=1000).contains(&options.move_limit) {
            let n = options.move_limit;
            return Err(refusal(
                format!("move_limit {n} is out of range"),
                format!("move_limit {n} est hors limites"),
            )
            .hints(
                "move_limit is a number of moves from 10 to 1000, e.g. move_limit=100",
                "move_limit est un nombre de coups de 10 à 1000, par exemple move_limit=100",
            ));
        }
        if options.repetition == 1 || options.repetition > 10 {
            let n = options.repetition;
            return Err(refusal(
                format!("repetition {n} is out of range"),
                format!("repetition {n} est hors limites"),
            )
            .hints(
                "repetition is 0 (off) or 2 to 10, e.g. repetition=3",
                "repetition vaut 0 (désactivée) ou de 2 à 10, par exemple repetition=3",
            ));
        }
        Ok(())
    }

    /// A new game: the options checked, who moves first settled (`first=random`: one
    /// public draw), the published start.
    pub(crate) fn start(
        players: &[String],
        options: &Options,
        dice: &mut DiceBox,
    ) -> Result<(Castello, Vec<Event>), OrderError> {
        if players.len() != 2 {
            return Err(refusal(
                "Castello is played by exactly 2 players",
                "Castello se joue à 2 joueurs exactement",
            ));
        }
        Castello::check_options(options)?;
        let (first, drawn) = match options.first {
            First::Red => (RED, false),
            First::Black => (BLACK, false),
            First::Random => (Side::BOTH[dice.public_below(2)], true),
        };
        let g = Castello::new(players, options, first)
            .map_err(|e| refusal(e.clone(), format!("données du tablier invalides : {e}")))?;
        Ok((g, vec![Event::Start { first, drawn }]))
    }
}
