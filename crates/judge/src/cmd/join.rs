//! JOIN game-id password [AS Name]: take an open seat.

use crate::auth::*;
use crate::cmd::*;
use crate::mails::Event;
use crate::model::*;
use crate::run::*;

impl Run<'_> {
    pub(crate) fn join(
        &mut self,
        from: &str,
        id: &str,
        password: &str,
        name: Option<String>,
    ) -> Result<(), StoreError> {
        let Some(mut g) = self.take(id)? else {
            self.section(
                "JOIN refused",
                format!("There is no game \"{id}\". Send LIST for the games."),
            );
            return Ok(());
        };
        let refuse = if g.rec.status != Status::Forming {
            Some(format!("{} has already started.", g.rec.id))
        } else if g.rec.open_seats() == 0 || g.rec.join_password_hash.is_empty() {
            Some(format!("{} has no open seat.", g.rec.id))
        } else if hash_pw(&g.rec.salt, password) != g.rec.join_password_hash {
            Some(format!(
                "Wrong join password for {}; ask its game master.",
                g.rec.id
            ))
        } else if g.rec.seat_of(from).is_some() {
            Some(format!("You already have a seat in {}.", g.rec.id))
        } else {
            None
        };
        if let Some(r) = refuse {
            self.section("JOIN refused", format!("{r} Nothing changed."));
            self.put(g);
            return Ok(());
        }
        let name = name
            .or_else(|| from.split('@').next().map(capitalise))
            .unwrap_or_else(|| "Player".into());
        if g.rec
            .seats
            .iter()
            .any(|s| s.address.is_some() && lower(&s.name) == lower(&name))
        {
            self.section(
                "JOIN refused",
                format!(
                    "The name {name} is taken in {}: write JOIN {} password AS OtherName",
                    g.rec.id, g.rec.id
                ),
            );
            self.put(g);
            return Ok(());
        }
        let pw = self.random_word("password", 8);
        let token = self.random_word("token", 6);
        let salt = g.rec.salt.clone();
        let Some(seat) = g.rec.seats.iter_mut().find(|s| s.address.is_none()) else {
            self.put(g);
            return Ok(());
        };
        seat.name = name.clone();
        seat.address = Some(from.to_string());
        seat.password_hash = hash_pw(&salt, &pw);
        seat.token = token.clone();
        seat.bot = false;
        g.dirty = true;
        let rec = g.rec.clone();
        self.welcome(&rec, &name, from, &pw, &token);
        let id = rec.id.clone();
        self.glog(&id, "join", format!("{name} <{from}>"));
        self.section(
            format!("JOIN {id}"),
            format!(
                "You have a seat in {id} as {name}. Your password and token come in a separate mail.{}",
                if g.rec.open_seats() == 0 { " Every seat is taken: the game starts." } else { "" }
            ),
        );
        if g.rec.open_seats() == 0 {
            if let Err(e) = self.start(&mut g) {
                self.section(format!("{id} cannot start"), e);
            }
        }
        let gm = g.rec.gm.clone();
        if gm != from {
            let event = Event::Joined {
                name: name.clone(),
                address: from.to_string(),
                open_left: g.rec.open_seats(),
            };
            self.notify(&g.rec, &[gm], event);
        }
        self.touched.push((id, None));
        self.put(g);
        Ok(())
    }
}

/// JOIN game-id password [AS Name]
pub(crate) fn parse(a: &Args) -> Result<Command, CmdError> {
    match a.words.as_slice() {
        [g, p] => Ok(Command::Join {
            game: g.to_lowercase(),
            password: p.to_string(),
            name: None,
        }),
        [g, p, as_, n] if as_.eq_ignore_ascii_case("as") || as_.eq_ignore_ascii_case("comme") => {
            Ok(Command::Join {
                game: g.to_lowercase(),
                password: p.to_string(),
                name: Some(n.to_string()),
            })
        }
        _ => Err(refuse(
            "JOIN needs the game id and its join password",
            "write: JOIN castle-7 password AS YourName",
        )),
    }
}
