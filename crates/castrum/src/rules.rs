//! The rules: setting up, checking an order (nothing changes), applying it.
//!
//! `check` (rules/check.rs) looks at everything first; `exec` then mutates and never fails, so `apply`
//! changes nothing when it returns `Err`.

use crate::text::{bi, order_text_in, Write};
use crate::*;
use castellan_engine::lang::fr;
use castellan_engine::{Lang, Prompt, PromptKind};

mod check;

fn remove_one(v: &mut Vec<Card>, c: Card) -> bool {
    if let Some(i) = v.iter().position(|x| *x == c) {
        v.remove(i);
        true
    } else {
        false
    }
}

/// True if `hand` holds every card of `cards` (as a multiset).
pub fn holds_all(hand: &[Card], cards: &[Card]) -> bool {
    let mut h = hand.to_vec();
    cards.iter().all(|c| remove_one(&mut h, *c))
}

impl Castrum {
    /// Set a game up with a given deck (the standard one is `data/deck.yaml`).
    pub fn with_deck(
        players: &[String],
        options: &Options,
        deck: &Deck,
        dice: &mut DiceBox,
    ) -> Result<(Castrum, Vec<Event>), OrderError> {
        let n = players.len();
        if !(2..=4).contains(&n) {
            return Err(bi(
                format!("Castrum is played by 2 to 4 players, not {n}"),
                format!("Castrum se joue à 2, 3 ou 4 joueurs, pas {n}"),
            ));
        }
        if (deck.total() as usize) < HAND * n {
            return Err(bi(
                "the deck is too small to deal the hands",
                "le paquet est trop petit pour distribuer les mains",
            ));
        }
        if options.victory == Victory::Timed && options.rounds == 0 {
            return Err(bi(
                "a timed game needs at least one round",
                "une partie programmée dure au moins un tour de table",
            )
            .write("rounds=15", "rounds=15"));
        }
        let mut g = Castrum {
            players: players.to_vec(),
            options: options.clone(),
            hands: vec![Vec::new(); n],
            sites: vec![Site::default(); n],
            pile: deck.cards(),
            under: Vec::new(),
            first: 0,
            current: 0,
            round: 1,
            dice_turn: 1,
            turn_state: TurnState::default(),
            phase: Phase::Turn,
            in_force: None,
            defend: vec![options.defend; n],
            works: vec![Vec::new(); n],
            outcome: None,
        };
        let mut events = Vec::new();
        // "Chaque joueur lance le dé et celui qui réalise le meilleur score débute."
        let mut contenders: Vec<Seat> = (0..n).collect();
        let mut rolls = Vec::new();
        for _ in 0..50 {
            let r: Vec<(Seat, u8)> = contenders
                .iter()
                .map(|s| (*s, dice.roll(6).value))
                .collect();
            let best = r.iter().map(|(_, v)| *v).max().unwrap_or(0);
            contenders = r
                .iter()
                .filter(|(_, v)| *v == best)
                .map(|(s, _)| *s)
                .collect();
            rolls.push(r);
            if contenders.len() == 1 {
                break;
            }
        }
        let first = contenders.first().copied().unwrap_or(0);
        events.push(Event::FirstPlayer { rolls, seat: first });
        for s in 0..n {
            events.extend(g.draw(s, HAND, dice));
        }
        g.first = first;
        events.extend(g.begin_turn(first, dice));
        Ok((g, events))
    }

    pub fn seats(&self) -> usize {
        self.players.len()
    }

    pub fn name(&self, seat: Seat) -> &str {
        self.players.get(seat).map(|s| s.as_str()).unwrap_or("?")
    }

    /// Every card of the game, wherever it is (always the deck's total).
    pub fn card_count(&self) -> usize {
        let pending = match &self.phase {
            Phase::Defence(_) => 1,
            _ => 0,
        };
        self.hands.iter().map(|h| h.len()).sum::<usize>()
            + self
                .sites
                .iter()
                .map(|s| s.cards.len() + usize::from(s.mage.is_some()))
                .sum::<usize>()
            + self.pile.len()
            + self.under.len()
            + pending
    }

    pub fn pile_size(&self) -> usize {
        self.pile.len() + self.under.len()
    }

    pub fn blocked(&self, seat: Seat) -> bool {
        self.sites
            .get(seat)
            .map(|s| s.mage.is_some())
            .unwrap_or(false)
    }

    /// Draw up to `k` cards for `seat` from the secret stream.
    fn draw(&mut self, seat: Seat, k: usize, dice: &mut DiceBox) -> Vec<Event> {
        let mut ev = Vec::new();
        let mut got = Vec::new();
        for _ in 0..k {
            if self.pile.is_empty() && !self.under.is_empty() {
                ev.push(Event::Reshuffled {
                    cards: self.under.len(),
                });
                self.pile.append(&mut self.under);
            }
            if self.pile.is_empty() {
                break;
            }
            let i = dice.secret_below(self.pile.len());
            got.push(self.pile.swap_remove(i));
        }
        if !got.is_empty() {
            self.hands[seat].extend(got.iter().copied());
            ev.push(Event::Drew { seat, cards: got });
        }
        ev
    }

    fn refill(&mut self, seat: Seat, dice: &mut DiceBox) -> Vec<Event> {
        let k = HAND.saturating_sub(self.hands[seat].len());
        self.draw(seat, k, dice)
    }

    /// Put the cards under the pile and shuffle the whole pile.
    fn shuffle_in(&mut self) {
        self.pile.append(&mut self.under);
    }

    fn begin_turn(&mut self, seat: Seat, dice: &mut DiceBox) -> Vec<Event> {
        let mut ev = Vec::new();
        self.dice_turn += 1;
        self.current = seat;
        self.turn_state = TurnState::default();
        self.phase = Phase::Turn;
        ev.push(Event::TurnBegins {
            seat,
            round: self.round,
        });
        // "la carte Mage reste sur le chantier cible jusqu'au tour suivant de celui qui l'a posée"
        for v in 0..self.seats() {
            if self.sites[v].mage == Some(seat) {
                self.sites[v].mage = None;
                self.under.push(Card::Mage);
                ev.push(Event::MageLeaves {
                    caster: seat,
                    victim: v,
                });
            }
        }
        // "Veillez à bien avoir toujours 5 cartes dans votre jeu"
        ev.extend(self.refill(seat, dice));
        ev
    }

    // ------------------------------------------------------------------ applying

    /// Apply a checked order. Never fails; call [`Castrum::check`] first.
    pub fn exec(&mut self, seat: Seat, order: &Order, dice: &mut DiceBox) -> Vec<Event> {
        let mut ev = Vec::new();
        match order {
            Order::SetDefend(p) => {
                self.defend[seat] = *p;
                ev.push(Event::StandingSet {
                    seat,
                    standing: Standing::Defend(*p),
                });
            }
            Order::SetWorks(v) => {
                self.works[seat] = v.clone();
                ev.push(Event::StandingSet {
                    seat,
                    standing: Standing::Works(v.clone()),
                });
            }
            Order::Defend => {
                if let Phase::Defence(att) = self.phase.clone() {
                    ev.extend(self.defend_now(&att, dice));
                    self.phase = Phase::Turn;
                }
            }
            Order::Accept => {
                if let Phase::Defence(att) = self.phase.clone() {
                    self.phase = Phase::Turn;
                    ev.extend(self.resolve(&att, dice));
                }
            }
            Order::Give(c) => {
                if remove_one(&mut self.sites[seat].cards, *c) {
                    self.under.push(*c);
                    ev.push(Event::Gave { seat, card: *c });
                }
                if let Phase::Works(owed) = &mut self.phase {
                    owed.retain(|s| *s != seat);
                    if owed.is_empty() {
                        let first = self.first;
                        ev.extend(self.begin_turn(first, dice));
                    }
                }
            }
            Order::Play { card, target, aim } => {
                remove_one(&mut self.hands[seat], *card);
                self.turn_state.played += 1;
                if *card == Card::Roue {
                    self.turn_state.wheel = true;
                    self.under.push(Card::Roue);
                    ev.push(Event::Wheel { seat });
                } else if card.is_material() {
                    self.sites[seat].cards.push(*card);
                    ev.push(Event::Placed { seat, card: *card });
                } else {
                    self.turn_state.attacked = true;
                    // Rules revision 2: an attack meets what the victim holds (a defence
                    // card, their standing answer), which the attacker cannot see; it counts
                    // as a hidden draw whatever they hold, so neither CHECK nor a refused
                    // mail tells it (docs/rules/dice.md).
                    if self.options.revision >= 2 {
                        dice.secret_below(2);
                    }
                    let att = Attack {
                        attacker: seat,
                        victim: target.unwrap_or(0),
                        card: *card,
                        aim: if *card == Card::Sorciere { *aim } else { None },
                    };
                    ev.push(Event::Attacked {
                        attacker: seat,
                        victim: att.victim,
                        card: *card,
                        aim: att.aim,
                    });
                    let holds = self.hands[att.victim].contains(&att.defence_card());
                    match self.defend[att.victim] {
                        DefendPolicy::Always if holds => ev.extend(self.defend_now(&att, dice)),
                        DefendPolicy::Always | DefendPolicy::Never => {
                            ev.extend(self.resolve(&att, dice))
                        }
                        DefendPolicy::Ask => self.phase = Phase::Defence(att),
                    }
                }
            }
            Order::Discard(cards) => {
                for c in cards {
                    if remove_one(&mut self.hands[seat], *c) {
                        self.under.push(*c);
                    }
                }
                ev.push(Event::Discarded {
                    seat,
                    cards: cards.clone(),
                });
                ev.extend(self.end_turn(dice));
            }
            Order::Build(piece) => ev.extend(self.build(seat, *piece)),
            Order::Exchange(card) => {
                // Rules revision 2: the pile's make-up is hidden (it depends on the hands),
                // so an exchange is a hidden draw and is never refused for it; with fewer
                // than two simple cards in the pile the x2 card stays on the site.
                if self.options.revision >= 2 {
                    dice.secret_below(2);
                    if self.simple_in_pile(*card) < 2 {
                        ev.push(Event::ExchangeFailed { seat, card: *card });
                        return ev;
                    }
                }
                if remove_one(&mut self.sites[seat].cards, *card) {
                    let simple = card.simple();
                    let mut taken = 0;
                    while taken < 2 {
                        if !remove_one(&mut self.pile, simple)
                            && !remove_one(&mut self.under, simple)
                        {
                            break;
                        }
                        self.sites[seat].cards.push(simple);
                        taken += 1;
                    }
                    self.under.push(*card);
                    self.shuffle_in();
                    ev.push(Event::Exchanged { seat, card: *card });
                }
            }
            Order::End => ev.extend(self.end_turn(dice)),
        }
        ev
    }

    fn defend_now(&mut self, att: &Attack, dice: &mut DiceBox) -> Vec<Event> {
        let def = att.defence_card();
        let mut ev = Vec::new();
        remove_one(&mut self.hands[att.victim], def);
        // "les deux cartes sont placées sous la pioche qui est ensuite mélangée"
        self.under.push(att.card);
        self.under.push(def);
        self.shuffle_in();
        ev.push(Event::Defended {
            victim: att.victim,
            defence: def,
            attack: att.card,
        });
        // "N'oubliez pas de reconstituer votre main avant que le joueur suivant ne commence"
        ev.extend(self.refill(att.victim, dice));
        ev
    }

    /// The attack hits (no defence).
    fn resolve(&mut self, att: &Attack, dice: &mut DiceBox) -> Vec<Event> {
        let mut ev = Vec::new();
        let v = att.victim;
        match att.card {
            Card::Incendie => {
                match self.options.mode {
                    Mode::Family => {
                        let cards = std::mem::take(&mut self.sites[v].cards);
                        for c in cards {
                            let die = dice.roll(6).value;
                            let lost = die.is_multiple_of(2);
                            if lost {
                                self.under.push(c);
                            } else {
                                self.sites[v].cards.push(c);
                            }
                            ev.push(Event::FireDie {
                                victim: v,
                                card: c,
                                die,
                                lost,
                            });
                        }
                    }
                    Mode::Expert => {
                        let lots = self.sites[v].cards.len() / 3;
                        let mut lost = Vec::new();
                        for _ in 0..lots {
                            let n = self.sites[v].cards.len();
                            if n == 0 {
                                break;
                            }
                            let i = dice.public_below(n.min(255));
                            let c = self.sites[v].cards.remove(i);
                            self.under.push(c);
                            lost.push(c);
                        }
                        ev.push(Event::FireLots {
                            victim: v,
                            lots,
                            lost,
                        });
                    }
                }
                self.under.push(Card::Incendie);
            }
            Card::Sorciere => {
                let aim = att.aim.unwrap_or(Card::Structores);
                let die = match self.options.mode {
                    Mode::Family => Some(dice.roll(6).value),
                    Mode::Expert => None,
                };
                let destroyed = die.map(|d| d.is_multiple_of(2)).unwrap_or(true)
                    && remove_one(&mut self.sites[v].cards, aim);
                if destroyed {
                    self.under.push(aim);
                }
                ev.push(Event::Witch {
                    victim: v,
                    card: aim,
                    die,
                    destroyed,
                });
                self.under.push(Card::Sorciere);
            }
            Card::PiecesOr => {
                if remove_one(&mut self.sites[v].cards, Card::Structores) {
                    self.sites[att.attacker].cards.push(Card::Structores);
                    ev.push(Event::Stolen {
                        attacker: att.attacker,
                        victim: v,
                    });
                }
                self.under.push(Card::PiecesOr);
            }
            Card::Mage => {
                self.sites[v].mage = Some(att.attacker);
                ev.push(Event::Blocked {
                    caster: att.attacker,
                    victim: v,
                });
            }
            other => self.under.push(other),
        }
        ev
    }

    /// Which site cards pay for `piece`: x2 cards first, then simple ones, one more x2 if
    /// the simple ones fall short (its second unit is lost).
    pub fn payment(&self, seat: Seat, piece: Piece) -> Vec<Card> {
        let (s, l, r) = piece.cost();
        let site = &self.sites[seat];
        let mut used = Vec::new();
        for _ in 0..s {
            used.push(Card::Structores);
        }
        for (simple, double, need) in [
            (Card::Lapides, Card::LapidesX2, l),
            (Card::Rustici, Card::RusticiX2, r),
        ] {
            let d = site.count(double) as u32;
            let sc = site.count(simple) as u32;
            let mut dbl = d.min(need / 2);
            let mut rest = need - 2 * dbl;
            let simple_used = rest.min(sc);
            rest -= simple_used;
            if rest > 0 && dbl < d {
                dbl += 1;
            }
            for _ in 0..dbl {
                used.push(double);
            }
            for _ in 0..simple_used {
                used.push(simple);
            }
        }
        used
    }

    fn build(&mut self, seat: Seat, piece: Piece) -> Vec<Event> {
        let used = self.payment(seat, piece);
        for c in &used {
            if remove_one(&mut self.sites[seat].cards, *c) {
                self.under.push(*c);
            }
        }
        let site = &mut self.sites[seat];
        match piece {
            Piece::Wall => site.walls += 1,
            Piece::Tower => site.towers += 1,
        }
        let mut ev = vec![Event::Built {
            seat,
            piece,
            used,
            walls: site.walls,
            towers: site.towers,
        }];
        if site.complete() {
            ev.push(self.finish(vec![seat], End::Castle));
        }
        ev
    }

    fn finish(&mut self, winners: Vec<Seat>, end: End) -> Event {
        self.outcome = Some(Finish {
            winners: winners.clone(),
            end,
        });
        self.phase = Phase::Over;
        Event::Won { winners, end }
    }

    fn end_turn(&mut self, dice: &mut DiceBox) -> Vec<Event> {
        let seat = self.current;
        let mut ev = self.refill(seat, dice);
        ev.push(Event::TurnEnds { seat });
        let next = (seat + 1) % self.seats();
        if next == self.first {
            ev.extend(self.end_round(dice));
        } else {
            ev.extend(self.begin_turn(next, dice));
        }
        ev
    }

    /// Score the sites: the best win (`end` says why the game stops, with their points).
    fn score(&mut self, end: impl Fn(u32) -> End) -> Vec<Event> {
        let points: Vec<u32> = self.sites.iter().map(|s| s.points()).collect();
        let best = points.iter().copied().max().unwrap_or(0);
        let winners: Vec<Seat> = (0..self.seats()).filter(|s| points[*s] == best).collect();
        vec![Event::Scores { points }, self.finish(winners, end(best))]
    }

    fn end_round(&mut self, dice: &mut DiceBox) -> Vec<Event> {
        if self.options.victory == Victory::Timed && self.round >= self.options.rounds {
            let rounds = self.options.rounds;
            return self.score(|points| End::RoundsOver { rounds, points });
        }
        if self.options.victory == Victory::Classic && self.round >= CLASSIC_ROUND_LIMIT {
            let rounds = CLASSIC_ROUND_LIMIT;
            return self.score(|points| End::RoundLimit { rounds, points });
        }
        let mut ev = Vec::new();
        let die = dice.roll(6).value;
        let h = Happening::from_die(die);
        ev.push(Event::EventDie {
            round: self.round,
            die,
            happening: h,
        });
        self.round += 1;
        ev.extend(self.happen(h, dice));
        ev
    }

    /// Put the round event `h` in force and carry out its immediate effects, then start
    /// the next round (unless "for the works" waits for players).
    pub fn happen(&mut self, h: Happening, dice: &mut DiceBox) -> Vec<Event> {
        let mut ev = Vec::new();
        self.in_force = Some(h);
        match h {
            Happening::Plague => {
                for s in 0..self.seats() {
                    let lost = self.plague(s);
                    if !lost.is_empty() {
                        ev.push(Event::Plague { seat: s, lost });
                    }
                }
            }
            Happening::FeastOfFools => {
                let n = self.seats();
                let old = std::mem::take(&mut self.hands);
                let mut new = vec![Vec::new(); n];
                for (i, h) in old.into_iter().enumerate() {
                    new[(i + 1) % n] = h;
                }
                self.hands = new;
                ev.push(Event::HandsPassed);
                for s in 0..n {
                    ev.push(Event::Received {
                        seat: s,
                        from: (s + n - 1) % n,
                        cards: self.hands[s].clone(),
                    });
                }
            }
            Happening::ForTheWorks => {
                let mut owed = Vec::new();
                for s in 0..self.seats() {
                    if self.sites[s].cards.is_empty() {
                        continue;
                    }
                    let pref = self.works[s]
                        .iter()
                        .find(|c| self.sites[s].cards.contains(c))
                        .copied();
                    match pref {
                        Some(c) => {
                            remove_one(&mut self.sites[s].cards, c);
                            self.under.push(c);
                            ev.push(Event::Gave { seat: s, card: c });
                        }
                        None => owed.push(s),
                    }
                }
                if !owed.is_empty() {
                    self.phase = Phase::Works(owed);
                    return ev;
                }
            }
            _ => {}
        }
        let first = self.first;
        ev.extend(self.begin_turn(first, dice));
        ev
    }

    /// "L'épidémie détruit une carte Rustici et Structures sur deux. Chaque joueur rassemble
    /// ses cartes Rustici et Structores et en retire une sur deux." The two kinds are gathered
    /// into one pile and half of it (rounded down) is removed: half of each kind, and when
    /// both counts are odd one card more, of the kind left with more cards (Rustici on a
    /// tie). A Rustici x2 is one card; simple Rustici go before x2 ones.
    fn plague(&mut self, s: Seat) -> Vec<Card> {
        let site = &mut self.sites[s];
        let r = site.count(Card::Rustici) + site.count(Card::RusticiX2);
        let st = site.count(Card::Structores);
        let due = (r + st) / 2;
        let (mut lose_r, mut lose_s) = (r / 2, st / 2);
        if lose_r + lose_s < due && self.options.revision >= 1 {
            if r - lose_r >= st - lose_s {
                lose_r += 1;
            } else {
                lose_s += 1;
            }
        }
        let mut lost = Vec::new();
        for _ in 0..lose_r {
            let c = if site.cards.contains(&Card::Rustici) {
                Card::Rustici
            } else {
                Card::RusticiX2
            };
            if remove_one(&mut site.cards, c) {
                lost.push(c);
            }
        }
        for _ in 0..lose_s {
            if remove_one(&mut site.cards, Card::Structores) {
                lost.push(Card::Structores);
            }
        }
        self.under.extend(lost.iter().copied());
        lost
    }

    // ------------------------------------------------------------------ prompts

    /// Orders worth offering `seat` now (every one passes [`Castrum::check`]).
    pub fn legal_orders(&self, seat: Seat) -> Vec<Order> {
        let mut out = Vec::new();
        match &self.phase {
            Phase::Over => {}
            Phase::Defence(_) => {
                out.push(Order::Defend);
                out.push(Order::Accept);
            }
            Phase::Works(_) => {
                let mut seen = Vec::new();
                for c in &self.sites[seat].cards {
                    if !seen.contains(c) {
                        seen.push(*c);
                        out.push(Order::Give(*c));
                    }
                }
            }
            Phase::Turn => {
                out.push(Order::Build(Piece::Tower));
                out.push(Order::Build(Piece::Wall));
                for c in [Card::LapidesX2, Card::RusticiX2] {
                    out.push(Order::Exchange(c));
                }
                let mut distinct: Vec<Card> = self.hands[seat].clone();
                distinct.sort();
                distinct.dedup();
                for &c in &distinct {
                    if c.is_attack() {
                        for t in (0..self.seats()).filter(|t| *t != seat) {
                            if c == Card::Sorciere {
                                let mut aims = self.sites[t].cards.clone();
                                aims.sort();
                                aims.dedup();
                                for a in aims {
                                    out.push(Order::Play {
                                        card: c,
                                        target: Some(t),
                                        aim: Some(a),
                                    });
                                }
                            } else {
                                out.push(Order::Play {
                                    card: c,
                                    target: Some(t),
                                    aim: None,
                                });
                            }
                        }
                    } else {
                        out.push(Order::Play {
                            card: c,
                            target: None,
                            aim: None,
                        });
                    }
                }
                for &c in &distinct {
                    out.push(Order::Discard(vec![c]));
                }
                out.push(Order::End);
            }
        }
        out.retain(|o| self.check(seat, o).is_ok());
        out
    }

    /// The documented default (deadline passed): see docs/rules/castrum.md.
    pub fn default_for(&self, seat: Seat) -> Order {
        match &self.phase {
            Phase::Defence(att) => {
                if self.hands[seat].contains(&att.defence_card()) {
                    Order::Defend
                } else {
                    Order::Accept
                }
            }
            Phase::Works(_) => {
                for c in [
                    Card::Rustici,
                    Card::Lapides,
                    Card::RusticiX2,
                    Card::LapidesX2,
                    Card::Structores,
                ] {
                    if self.sites[seat].cards.contains(&c) {
                        return Order::Give(c);
                    }
                }
                Order::Give(
                    self.sites[seat]
                        .cards
                        .first()
                        .copied()
                        .unwrap_or(Card::Rustici),
                )
            }
            _ => {
                for p in [Piece::Tower, Piece::Wall] {
                    if self.check(seat, &Order::Build(p)).is_ok() {
                        return Order::Build(p);
                    }
                }
                if self.turn_state.played == 0 && !self.blocked(seat) {
                    let mut hand = self.hands[seat].clone();
                    hand.sort();
                    for c in hand.iter().filter(|c| c.is_material()) {
                        let o = Order::Play {
                            card: *c,
                            target: None,
                            aim: None,
                        };
                        if self.check(seat, &o).is_ok() {
                            return o;
                        }
                    }
                    // Discard one card of the type held most (ties: deck order).
                    let mut best: Option<(usize, Card)> = None;
                    for c in &hand {
                        let k = hand.iter().filter(|x| *x == c).count();
                        if best.map(|(bk, _)| k > bk).unwrap_or(true) {
                            best = Some((k, *c));
                        }
                    }
                    if let Some((_, c)) = best {
                        return Order::Discard(vec![c]);
                    }
                }
                Order::End
            }
        }
    }

    pub(crate) fn prompts(&self, lang: Lang) -> Vec<Prompt> {
        let mk = |seat: Seat, kind: PromptKind, question: String, standing: Option<Order>| {
            let choices: Vec<String> = self
                .legal_orders(seat)
                .iter()
                .take(24)
                .map(|o| order_text_in(self, o, lang))
                .collect();
            Prompt {
                seat,
                kind,
                question,
                choices,
                default: order_text_in(self, &self.default_for(seat), lang),
                standing: standing.map(|o| order_text_in(self, &o, lang)),
            }
        };
        match &self.phase {
            Phase::Over => vec![],
            Phase::Turn => {
                let s = self.current;
                vec![mk(s, PromptKind::Turn, self.turn_question(lang), None)]
            }
            Phase::Defence(att) => {
                let q = self.defence_question(att, lang);
                let standing = Order::SetDefend(DefendPolicy::Always);
                vec![mk(att.victim, PromptKind::Defend, q, Some(standing))]
            }
            Phase::Works(owed) => owed
                .iter()
                .map(|s| {
                    let q = lang.pick(
                        "For the works: give up one card of your site.",
                        "Pour les œuvres : cédez une carte de votre chantier.",
                    );
                    let standing = Order::SetWorks(vec![Card::Rustici, Card::Lapides]);
                    mk(*s, PromptKind::Works, q.to_string(), Some(standing))
                })
                .collect(),
        }
    }

    fn turn_question(&self, lang: Lang) -> String {
        let played = self.turn_state.played;
        match lang {
            Lang::En if self.blocked(self.current) => {
                "Your turn: your site is blocked by a Mage; you may DISCARD 1 to 3 cards or END."
                    .to_string()
            }
            Lang::En if played == 0 => {
                "Your turn: play 1 or 2 cards (or the Roue de Carrier and 3 building cards), or discard 1 to 3; BUILD whenever your site holds a wall or a tower; END when done.".to_string()
            }
            Lang::En => format!(
                "Your turn goes on: {played} card(s) played; play more, BUILD, or END."
            ),
            Lang::Fr if self.blocked(self.current) => {
                "À vous de jouer : votre chantier est bloqué par un Mage ; vous pouvez DÉFAUSSER 1 à 3 cartes ou FIN."
                    .to_string()
            }
            Lang::Fr if played == 0 => {
                "À vous de jouer : jouez 1 ou 2 cartes (ou la Roue de Carrier et 3 cartes de construction), ou défaussez-en 1 à 3 ; CONSTRUIRE dès que votre chantier réunit une muraille ou une tour ; FIN quand vous avez terminé.".to_string()
            }
            Lang::Fr => format!(
                "Votre tour continue : {} ; jouez-en d'autres, CONSTRUIRE ou FIN.",
                fr::count(played, "carte jouée", "cartes jouées")
            ),
        }
    }

    fn defence_question(&self, att: &Attack, lang: Lang) -> String {
        let (attacker, card, def) = (
            self.name(att.attacker),
            att.card.name(),
            att.defence_card().name(),
        );
        match lang {
            Lang::En => format!(
                "{attacker} plays {card} on your site{}. Answer at once: DEFEND (with {def}) or ACCEPT.",
                att.aim
                    .map(|a| format!(" (aiming at your {})", a.name()))
                    .unwrap_or_default(),
            ),
            Lang::Fr => format!(
                "{attacker} joue une carte {card} sur votre chantier{}. Répondez tout de suite : DÉFENDRE (avec {def}) ou ACCEPTER.",
                att.aim
                    .map(|a| format!(" (en visant votre carte {})", a.name()))
                    .unwrap_or_default(),
            ),
        }
    }
}

impl Attack {
    pub fn defence_card(&self) -> Card {
        self.card.defence().unwrap_or(Card::Gardes)
    }
}

/// "Lapides, Lapides, Mage"
pub fn list(cards: &[Card]) -> String {
    list_in(cards, Lang::En)
}

/// "Lapides, Lapides, Mage"; "(none)" / "(aucune)".
pub fn list_in(cards: &[Card], lang: Lang) -> String {
    if cards.is_empty() {
        return lang.pick("(none)", "(aucune)").into();
    }
    cards
        .iter()
        .map(|c| c.name())
        .collect::<Vec<_>>()
        .join(", ")
}
