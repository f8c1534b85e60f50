//! The judge's command words: one [`Keyword`] per command, its English and French words
//! given by one exhaustive match ([`Keyword::words`]), so a word cannot be a keyword
//! without a meaning, nor a command without its words.

/// A judge command, as its first word names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keyword {
    Help,
    List,
    Create,
    Join,
    Game,
    Password,
    Status,
    Map,
    Neighbours,
    Orders,
    Check,
    History,
    Press,
    EndPress,
    Observe,
    Resign,
    Vacation,
    Verify,
    Start,
    Pause,
    Resume,
    Extend,
    Replace,
    Kick,
    End,
    /// SIGNOFF, QUIT: words some people end a mail with; never a command (the lines
    /// after the last command are not read: intake.rs).
    SignOff,
    Set,
    Language,
    Stop,
    Process,
    Deadline,
    Record,
    Campaign,
    Standings,
    /// GET RULES, GET DICE: HELP ORDERS and HELP DICE as other judges spell them; GET
    /// followed by anything else is no command.
    Get,
}

use Keyword::*;

impl Keyword {
    /// Every keyword, in the order of its variants (a test holds them to it).
    pub const ALL: [Keyword; 35] = [
        Help, List, Create, Join, Game, Password, Status, Map, Neighbours, Orders, Check, History,
        Press, EndPress, Observe, Resign, Vacation, Verify, Start, Pause, Resume, Extend, Replace,
        Kick, End, SignOff, Set, Language, Stop, Process, Deadline, Record, Campaign, Standings,
        Get,
    ];

    /// The keyword's English words, then its French ones (accepted whatever the reader's
    /// language; docs/commandes.md).
    pub fn words(self) -> (&'static [&'static str], &'static [&'static str]) {
        match self {
            Help => (&["HELP"], &["AIDE"]),
            List => (&["LIST"], &["LISTE"]),
            Create => (&["CREATE"], &["CREER", "CRÉER"]),
            Join => (&["JOIN"], &["REJOINDRE"]),
            Game => (&["GAME"], &["PARTIE"]),
            Password => (&["PASSWORD"], &["MOTDEPASSE"]),
            Status => (&["STATUS"], &["ETAT", "ÉTAT"]),
            Map => (&["MAP"], &["CARTE"]),
            Neighbours => (&["NEIGHBOURS", "NEIGHBORS"], &["VOISINS"]),
            Orders => (&["ORDERS"], &["ORDRES"]),
            Check => (&["CHECK"], &["VERIFIER", "VÉRIFIER"]),
            History => (&["HISTORY"], &["HISTORIQUE"]),
            Press => (&["PRESS"], &["PRESSE"]),
            EndPress => (&["ENDPRESS"], &["FINPRESSE"]),
            Observe => (&["OBSERVE"], &["OBSERVER"]),
            Resign => (&["RESIGN"], &["ABANDON"]),
            Vacation => (&["VACATION"], &["VACANCES"]),
            Verify => (&["VERIFY"], &["AUDIT"]),
            Start => (&["START"], &["DEMARRER", "DÉMARRER"]),
            Pause => (&["PAUSE"], &[]),
            Resume => (&["RESUME"], &["REPRENDRE"]),
            Extend => (&["EXTEND"], &["PROLONGER"]),
            Replace => (&["REPLACE"], &["REMPLACER"]),
            Kick => (&["KICK"], &["EXCLURE"]),
            End => (&["END"], &["FIN"]),
            SignOff => (&["SIGNOFF", "QUIT"], &[]),
            Set => (&["SET"], &["REGLER", "RÉGLER"]),
            Language => (&["LANGUAGE"], &["LANGUE"]),
            Stop => (&["STOP", "UNSUBSCRIBE"], &["DESABONNER", "DÉSABONNER"]),
            Process => (&["PROCESS"], &["TRAITER"]),
            Deadline => (&["DEADLINE"], &["ECHEANCE", "ÉCHÉANCE"]),
            Record => (&["RECORD"], &["BILAN"]),
            Campaign => (&["CAMPAIGN"], &["CAMPAGNE"]),
            Standings => (&["STANDINGS"], &["PALMARES", "PALMARÈS"]),
            Get => (&["GET"], &[]),
        }
    }

    /// The keyword a command word stands for (any case, a trailing colon allowed), and
    /// whether the word was French.
    pub fn read(word: &str) -> Option<(Keyword, bool)> {
        let w = word.to_uppercase();
        let w = w.trim_end_matches(':');
        Keyword::ALL.iter().find_map(|k| {
            let (en, fr) = k.words();
            if en.contains(&w) {
                Some((*k, false))
            } else if fr.contains(&w) {
                Some((*k, true))
            } else {
                None
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`Keyword::ALL`] holds every variant once, in order (so every keyword is read),
    /// each has an English word, and no word names two keywords.
    #[test]
    fn every_keyword_is_read_by_its_words_and_no_word_names_two() {
        for (i, k) in Keyword::ALL.iter().enumerate() {
            assert_eq!(*k as usize, i, "{k:?} out of place in ALL");
        }
        assert_eq!(
            Keyword::ALL.len(),
            Get as usize + 1,
            "a keyword missing from ALL"
        );
        let mut words = std::collections::BTreeSet::new();
        for k in Keyword::ALL {
            let (en, fr) = k.words();
            assert!(!en.is_empty(), "{k:?} has no English word");
            for w in en.iter().chain(fr.iter()) {
                assert!(words.insert(*w), "{w} names two keywords");
                assert_eq!(w.to_uppercase(), *w, "{w} is written in capitals");
            }
            assert_eq!(Keyword::read(en[0]), Some((k, false)));
            assert_eq!(Keyword::read(&en[0].to_lowercase()), Some((k, false)));
            for w in fr {
                assert_eq!(Keyword::read(w), Some((k, true)), "{w}");
            }
        }
        assert_eq!(Keyword::read("ÉTAT:"), Some((Status, true)));
        assert_eq!(Keyword::read("ATTACK"), None);
    }
}
