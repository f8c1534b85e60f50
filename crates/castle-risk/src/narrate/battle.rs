//! An attack, told event by event: its declaration, the cards engaged, each roll, its end.

use super::*;

impl Teller<'_> {
    pub(super) fn battle(&self, e: &Event) -> String {
        let l = self.lang;
        match e {
            Event::AttackDeclared {
                seat,
                from,
                to,
                ship: Some(k),
            } => self.pick(
                format!(
                    "{} plays an Admiral: {} from {} to attack {}.",
                    self.n(*seat),
                    super::runs::sail(*k),
                    tn(*from, l),
                    tn(*to, l)
                ),
                format!(
                    "{} joue un Amiral : {} par la mer {} pour attaquer {}.",
                    self.n(*seat),
                    super::runs::partent(*k),
                    words::de(*from),
                    words::le(*to)
                ),
            ),
            Event::AttackDeclared {
                seat,
                from,
                to,
                ship: None,
            } => self.pick(
                format!(
                    "{} attacks {} from {}.",
                    self.n(*seat),
                    tn(*to, l),
                    tn(*from, l)
                ),
                format!(
                    "{} attaque {} depuis {}.",
                    self.n(*seat),
                    words::le(*to),
                    words::le(*from)
                ),
            ),
            Event::GeneralEngaged { seat } => self.pick(
                format!(
                    "{} engages a General (+1 on the highest die).",
                    self.n(*seat)
                ),
                format!(
                    "{} engage un Général (+1 au dé le plus fort).",
                    self.n(*seat)
                ),
            ),
            Event::MarshalEngaged { seat } => self.pick(
                format!(
                    "{} engages a Marshal (+1 on the highest die).",
                    self.n(*seat)
                ),
                format!(
                    "{} engage un Maréchal (+1 au dé le plus fort).",
                    self.n(*seat)
                ),
            ),
            _ => self.battle_dice(e),
        }
    }

    fn battle_dice(&self, e: &Event) -> String {
        let l = self.lang;
        match e {
            Event::Battle {
                attacker_losses: a,
                defender_losses: d,
                ..
            } => {
                let roll = super::runs::roll_text(e, l);
                self.pick(
                    format!("  {roll}: attacker loses {a}, defender loses {d}."),
                    format!("  {roll} : l'attaquant perd {a}, le défenseur perd {d}."),
                )
            }
            Event::GeneralLost { seat } => self.pick(
                format!("{}'s General is beaten and discarded.", self.n(*seat)),
                format!("Le Général {} est battu et défaussé.", self.de(*seat)),
            ),
            Event::MarshalLost { seat } => self.pick(
                format!("{}'s Marshal is beaten and discarded.", self.n(*seat)),
                format!("Le Maréchal {} est battu et défaussé.", self.de(*seat)),
            ),
            Event::DiceFewer {
                from,
                asked,
                rolled,
                armies,
                ship,
            } => {
                let (why, pourquoi) = if *ship {
                    (
                        format!("{armies} aboard"),
                        format!("{} à bord", armees(*armies)),
                    )
                } else {
                    (
                        format!("{} has {armies}", tn(*from, l)),
                        format!("{} {}", armees(*armies), words::en(*from)),
                    )
                };
                let (die, de) = if *rolled == 1 {
                    ("die", "dé")
                } else {
                    ("dice", "dés")
                };
                self.pick(
                    format!("  {rolled} {die} now, not the {asked} asked: {why}."),
                    format!("  {rolled} {de} désormais, et non les {asked} demandés : {pourquoi}."),
                )
            }
            _ => self.battle_end(e),
        }
    }

    fn battle_end(&self, e: &Event) -> String {
        let l = self.lang;
        match e {
            Event::AttackStopped {
                from,
                to,
                left,
                defenders,
            } => self.pick(
                format!(
                    "The attack stops: {} holds {left}, {} holds {defenders}.",
                    tn(*from, l),
                    tn(*to, l)
                ),
                format!(
                    "L'attaque s'arrête ; il reste {} {} et {} {}.",
                    armees(*left),
                    words::en(*from),
                    armees(*defenders),
                    words::en(*to)
                ),
            ),
            Event::Conquered {
                seat,
                to,
                moved,
                by_sea,
                ..
            } => self.pick(
                format!(
                    "{} conquers {} and moves in {}{}.",
                    self.n(*seat),
                    tn(*to, l),
                    castellan_engine::lang::en::count(*moved, "army", "armies"),
                    if *by_sea { " from the ship" } else { "" }
                ),
                format!(
                    "{} conquiert {} et y fait entrer {}{}.",
                    self.n(*seat),
                    words::le(*to),
                    armees(*moved),
                    if *by_sea { " depuis le navire" } else { "" }
                ),
            ),
            Event::AdmiralLost { seat, to } => self.pick(
                format!(
                    "{}'s fleet is destroyed before {}: the Admiral is discarded.",
                    self.n(*seat),
                    tn(*to, l)
                ),
                format!(
                    "La flotte {} est détruite devant {} : l'Amiral est défaussé.",
                    self.de(*seat),
                    words::le(*to)
                ),
            ),
            Event::AdmiralBack { seat } => self.pick(
                format!("{}'s Admiral returns to hand.", self.n(*seat)),
                format!("L'Amiral {} revient dans sa main.", self.de(*seat)),
            ),
            _ => String::new(),
        }
    }
}
