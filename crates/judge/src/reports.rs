//! The reports after a game moved: the public one, and each seat's private view.

use crate::clock::{format_long, format_short};
use crate::mails::*;
use crate::model::*;
use crate::run::*;
use castellan_engine::Narration;
use serde_json::json;

impl Run<'_> {
    /// Public report to everyone, private mails to each player.
    pub(crate) fn report(&mut self, g: &mut Loaded) {
        let id = g.rec.id.clone();
        let Some(session) = g.session.as_mut() else {
            return;
        };
        let finished = g.rec.status == Status::Finished;
        let n: Narration = session.narrate_since(g.rec.reported, castellan_engine::Lang::En);
        let turn = session.turn();
        // Turns before the current one are over: reveal their seeds.
        let upto = if finished {
            turn
        } else {
            turn.saturating_sub(1)
        };
        let mut revealed = Vec::new();
        for t in (g.rec.revealed + 1)..=upto {
            revealed.push(json!({"turn": t, "seed": session.dice().turn_seed(t).hex()}));
        }
        if revealed.is_empty() && g.rec.revealed > 0 {
            let t = g.rec.revealed;
            revealed.push(json!({"turn": t, "seed": session.dice().turn_seed(t).hex()}));
        }
        let revealed_last = upto.max(g.rec.revealed);
        g.rec.revealed = revealed_last;
        let commitment = session.dice().commitment_for(turn).hex();
        let secret_commitment = session.dice().secret_commitment().hex();
        let secret_key = if finished {
            Some(session.dice().secret_key().hex())
        } else {
            None
        };
        let awaiting = session.awaiting();
        let waiting_names: Vec<String> = awaiting.iter().map(|s| seat_name(&g.rec, *s)).collect();
        let deadline = g.rec.deadline;
        let players: Vec<String> = g
            .rec
            .seats
            .iter()
            .map(|s| {
                let mut p = s.name.clone();
                if s.resigned {
                    p.push_str(" (resigned)");
                } else if s.bot {
                    p.push_str(" (bot)");
                }
                p
            })
            .collect();
        let outcome = g.rec.ended.clone().unwrap_or_default();
        let rolls: Vec<_> = n
            .rolls
            .iter()
            .map(|r| json!({"turn": r.turn, "index": r.index, "sides": r.sides, "value": r.value}))
            .collect();
        let ctx = json!({
            "game_id": id, "game": g.rec.game, "turn": turn, "happened": n.public,
            "rolls": rolls, "map": session.public_view(castellan_engine::Lang::En), "awaiting": waiting_names,
            "deadline": deadline.map(format_long), "finished": finished, "outcome": outcome,
            "secret_key": secret_key, "secret_commitment": secret_commitment,
            "commitment": commitment, "revealed": revealed,
            "revealed_last": if revealed_last > 0 { Some(revealed_last) } else { None },
            "next_turn": turn, "players": players,
        });
        let public = self.render("report.txt", &ctx);
        let subject = if finished {
            format!("[{id}] Game over: {outcome}")
        } else {
            format!(
                "[{id}] Turn {turn}: {} to move{}",
                if waiting_names.is_empty() {
                    "nobody".to_string()
                } else {
                    waiting_names.join(", ")
                },
                deadline
                    .map(|d| format!(", deadline {}", format_short(d)))
                    .unwrap_or_default()
            )
        };
        for to in Self::recipients(&g.rec) {
            self.mails.push(Draft {
                to,
                subject: subject.clone(),
                body: public.clone(),
                in_reply_to: Some(self.j.thread_root(&id)),
                references: vec![self.j.thread_root(&id)],
                headers: Vec::new(),
            });
        }
        // Private mails: only to the seat's own address, one mail each.
        let pending = session.pending(castellan_engine::Lang::En);
        for (seat, s) in g.rec.seats.iter().enumerate() {
            let Some(addr) = &s.address else { continue };
            if s.resigned {
                continue;
            }
            let mine = n.private_for(seat);
            let prompts: Vec<_> = pending
                .iter()
                .filter(|p| p.seat == seat)
                .map(prompt_json)
                .collect();
            if mine.is_empty() && prompts.is_empty() && !g.force_private && !finished {
                continue;
            }
            let body = self.render(
                "private.txt",
                &json!({"game_id": id, "name": s.name, "turn": turn, "happened": mine,
                        "view": session.private_view(seat, castellan_engine::Lang::En), "prompts": prompts,
                        "deadline": deadline.map(format_long)}),
            );
            let subject = if prompts.is_empty() {
                format!("[{id} #{}] Turn {turn}: your view", s.token)
            } else {
                format!(
                    "[{id} #{}] Turn {turn}: your move{}",
                    s.token,
                    deadline
                        .map(|d| format!(", deadline {}", format_short(d)))
                        .unwrap_or_default()
                )
            };
            self.mails.push(Draft {
                to: addr.clone(),
                subject,
                body,
                in_reply_to: Some(self.j.thread_root(&id)),
                references: vec![self.j.thread_root(&id)],
                headers: Vec::new(),
            });
        }
        g.rec.reported = session.history_len();
        g.rec.final_sent = finished;
        g.force_private = false;
        g.dirty = true;
    }
}
