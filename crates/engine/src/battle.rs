//! One exchange of Risk-family dice: highest against highest, then second against second;
//! ties go to the defender. Shared by Castle Risk and Risk.

use serde::{Deserialize, Serialize};

/// The outcome of comparing one roll.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Exchange {
    /// Attacker's faces, highest first, as rolled (before any bonus).
    pub attacker: Vec<u8>,
    /// Defender's faces, highest first, as rolled.
    pub defender: Vec<u8>,
    pub attacker_losses: u32,
    pub defender_losses: u32,
}

/// Compare dice. `attacker_bonus`/`defender_bonus` are added to that side's highest die only
/// (Castle Risk's General and Marshal). Pairs are compared while both sides have dice.
pub fn exchange(
    attacker: &[u8],
    defender: &[u8],
    attacker_bonus: u8,
    defender_bonus: u8,
) -> Exchange {
    let mut a = attacker.to_vec();
    let mut d = defender.to_vec();
    a.sort_unstable_by(|x, y| y.cmp(x));
    d.sort_unstable_by(|x, y| y.cmp(x));
    let (mut al, mut dl) = (0, 0);
    for i in 0..a.len().min(d.len()) {
        let av = a[i] + if i == 0 { attacker_bonus } else { 0 };
        let dv = d[i] + if i == 0 { defender_bonus } else { 0 };
        if av > dv {
            dl += 1;
        } else {
            al += 1;
        }
    }
    Exchange {
        attacker: a,
        defender: d,
        attacker_losses: al,
        defender_losses: dl,
    }
}

/// Most dice an attacker may roll from `armies` (must keep one more army than dice), capped.
pub fn max_attack_dice(armies: u32, cap: u32) -> u32 {
    armies.saturating_sub(1).min(cap)
}

/// Most dice a defender may roll with `armies` (2 needs at least 2), capped.
pub fn max_defence_dice(armies: u32, cap: u32) -> u32 {
    armies.min(cap)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_go_to_the_defender() {
        let e = exchange(&[6, 3], &[6, 3], 0, 0);
        assert_eq!((e.attacker_losses, e.defender_losses), (2, 0));
    }

    #[test]
    fn highest_against_highest_then_second_against_second() {
        // 6 beats 5; 2 loses to 4 (not 6 vs 4 and 2 vs 5 unsorted)
        let e = exchange(&[2, 6, 1], &[4, 5], 0, 0);
        assert_eq!(e.attacker, vec![6, 2, 1]);
        assert_eq!((e.attacker_losses, e.defender_losses), (1, 1));
    }

    #[test]
    fn only_pairs_are_compared() {
        let e = exchange(&[6, 6, 6], &[1], 0, 0);
        assert_eq!((e.attacker_losses, e.defender_losses), (0, 1));
    }

    #[test]
    fn bonus_applies_to_the_highest_die_only() {
        // General: 5+1 beats 5; second pair 4 vs 4 is a tie for the defender
        let e = exchange(&[5, 4], &[5, 4], 1, 0);
        assert_eq!((e.attacker_losses, e.defender_losses), (1, 1));
        let e = exchange(&[6, 1], &[5, 1], 0, 1); // Marshal: 5+1 ties 6
        assert_eq!((e.attacker_losses, e.defender_losses), (2, 0));
    }

    #[test]
    fn dice_limits() {
        assert_eq!(max_attack_dice(1, 3), 0);
        assert_eq!(max_attack_dice(3, 3), 2);
        assert_eq!(max_attack_dice(10, 2), 2);
        assert_eq!(max_defence_dice(1, 2), 1);
        assert_eq!(max_defence_dice(5, 2), 2);
    }
}
