//! The benchmark's report as text.

use super::BenchReport;

fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / 1048576.0)
}

fn kib(k: Option<u64>) -> String {
    k.map(|k| format!("{:.1} MiB", k as f64 / 1024.0))
        .unwrap_or_else(|| "unknown".into())
}

impl BenchReport {
    pub fn text(&self) -> String {
        let mut out = self.tables_text();
        self.long_game_text(&mut out);
        out += &format!(
            "largest stored value: {} bytes ({} tree, {}); bench process peak RSS {}\n",
            self.largest_value_bytes,
            self.largest_value_tree,
            self.largest_value_run,
            kib(self.peak_rss_kib),
        );
        self.stored_games_text(&mut out);
        if !self.engine.is_empty() {
            out += "engine only (bots, no mail, no store):\n";
            for e in &self.engine {
                out += &format!(
                    "  {:<12} {} players: {:>8.1} games/s, {:>10.0} orders/s ({} games)\n",
                    e.game, e.players, e.games_per_sec, e.orders_per_sec, e.games
                );
            }
        }
        out
    }

    /// The end-to-end runs: a line a table count, then each one's phases and mail budget.
    fn tables_text(&self) -> String {
        let mut out = format!(
            "end to end ({} with {} players, sled flushed per pass; mails/s of service = order \
             mails / time inside the service passes, bots' thinking kept out):\n",
            self.game, self.players
        );
        out += &format!(
            "  {:>6} {:>8} {:>9} {:>10} {:>10} {:>8} {:>10} {:>8} {:>8} {:>8} {:>8} {:>8} {:>9}\n",
            "tables",
            "mails in",
            "mails out",
            "mails/s",
            "mails/s",
            "service",
            "ms/mail",
            "pass",
            "pass",
            "latency",
            "latency",
            "latency",
            "database"
        );
        out +=
            &format!(
            "  {:>6} {:>8} {:>9} {:>10} {:>10} {:>8} {:>10} {:>8} {:>8} {:>8} {:>8} {:>8} {:>9}\n",
            "", "", "", "(service)", "(wall)", "s", "(service)", "p50 ms", "p99 ms", "p50 ms",
            "p99 ms", "max ms", ""
        );
        for t in &self.tables {
            out += &format!(
                "  {:>6} {:>8} {:>9} {:>10.1} {:>10.1} {:>8.2} {:>10.2} {:>8.2} {:>8.2} {:>8.2} {:>8.2} {:>8.2} {:>9}\n",
                t.tables,
                t.mails_in,
                t.mails_out,
                t.mails_per_sec_service,
                t.mails_per_sec_wall,
                t.service_seconds,
                t.service_ms_per_mail,
                t.pass_ms_p50,
                t.pass_ms_p99,
                t.latency_ms_p50,
                t.latency_ms_p99,
                t.latency_ms_max,
                mib(t.database_bytes),
            );
        }
        out += "  (wall: bots' thinking and game creation included; latency: delivery into the \
                inbox to the end of the pass that answered it)\n";
        for t in &self.tables {
            out += &format!(
                "  {} table(s), ms a mail by phase: inbox {:.2} (handled, durable, acknowledged: \
                 {:.1} mails/s), tick {:.2}, outbox {:.2}; CPU {:.2} ms a mail, {:.2} cores busy\n",
                t.tables,
                t.inbox_ms_per_mail,
                t.mails_per_sec_inbox,
                t.tick_ms_per_mail,
                t.outbox_ms_per_mail,
                t.service_cpu_ms_per_mail,
                t.service_cores_busy
            );
            let st = &t.inbox_steps;
            out += &format!(
                "    inbox by step, ms a mail: read {:.2}, journal {:.2}, judge and commit {:.2} \
                 (group commits {:.2}, waiting for the journal's fsync {:.2}), waiting for \
                 the writers {:.2}, flush {:.2}, acknowledgement {:.2}; {} batches\n",
                st.read,
                st.journal,
                st.judge_and_commit,
                st.commit,
                st.journal_wait,
                st.writers,
                st.flush,
                st.acknowledge,
                st.batches
            );
        }
        self.disk_text(&mut out);
        for t in &self.tables {
            out += &format!(
                "  mail budget, {} table(s): {:.1} mails a player a round; longest turn mail {} lines, deadline by line {}\n",
                t.tables,
                t.mail.per_player_per_round,
                t.mail.longest_report_lines,
                t.mail.latest_deadline_line,
            );
        }
        out
    }

    /// What the passes cost the disk, a line a table count.
    fn disk_text(&self, out: &mut String) {
        for t in &self.tables {
            let d = &t.disk;
            *out += &format!(
                "  disk, {} table(s): {:.2} device flushes a batch ({:.2} a mail; Castellan's own \
                 fsync, fdatasync and syncfs, not sled's), database grew {:.1} KiB a mail, the \
                 process wrote {} a mail (/proc/self/io write_bytes); database {} for {} live \
                 ({:.2}x)\n",
                t.tables,
                d.device_flushes_per_batch,
                d.device_flushes_per_mail,
                d.database_growth_bytes_per_mail / 1024.0,
                d.process_write_bytes_per_mail
                    .map(|b| format!("{:.1} KiB", b / 1024.0))
                    .unwrap_or_else(|| "unknown".into()),
                mib(t.database_bytes),
                mib(t.live_bytes),
                d.database_over_live,
            );
        }
    }

    /// The long game: service time per mail early and late.
    fn long_game_text(&self, out: &mut String) {
        if let Some(l) = &self.long_game {
            let turns = |t: Option<[u32; 2]>| {
                t.map(|[a, b]| format!("turns {a}-{b}"))
                    .unwrap_or_else(|| "no turns".into())
            };
            let ms = |m: Option<f64>| {
                m.map(|m| format!("{m:.2} ms"))
                    .unwrap_or_else(|| "n/a".into())
            };
            *out += &format!(
                "long game ({} with {} players, {}; one table, one mail a pass; {} mails, reached turn {}{}):\n\
                 \x20 service time per mail, early ({}): {} over {} mails\n\
                 \x20 service time per mail, late  ({}{}): {} over {} mails\n",
                l.game,
                l.players,
                l.options.join(" "),
                l.mails_in,
                l.final_turn,
                if l.over { ", game over" } else { "" },
                turns(self.early_turns_measured),
                ms(self.service_ms_per_mail_early),
                l.early_mails,
                turns(self.late_turns_measured),
                if self.late_turns_measured.is_some_and(|[a, _]| a < l.late_turn_target) {
                    format!(
                        "; the game ended before turn {}: its last turns",
                        l.late_turn_target
                    )
                } else {
                    String::new()
                },
                ms(self.service_ms_per_mail_late),
                l.late_mails,
            );
        }
    }

    /// The stored games: start-up, backup and one pass of a big database.
    fn stored_games_text(&self, out: &mut String) {
        if let Some(g) = &self.stored_games {
            *out += &format!(
                "stored games ({} in a fresh folder, filled in {:.1} s, database {}):\n\
                 \x20 `serve --once` in a child process: start-up + one empty pass {:.0} ms, peak RSS {} ({})\n\
                 \x20 games due at its start: {}; deadline mails it wrote: {}\n\
                 \x20 `castellan backup` of them (what a rolling backup costs): {:.0} ms, peak RSS {}\n\
                 \x20 `serve --once` with one mail waiting: STOP {:.0} ms, a mail to judge+TOKEN@ {:.0} ms, CREATE {:.0} ms\n\
                 \x20 one `/metrics` scrape: {:.2} ms\n",
                g.games,
                g.fill_seconds,
                mib(g.database_bytes),
                g.startup_and_empty_pass_ms,
                kib(g.peak_rss_kib),
                g.peak_rss_source,
                g.due,
                g.deadline_mails
                    .map(|n| n.to_string())
                    .unwrap_or_else(|| "unknown".into()),
                g.backup_ms,
                kib(g.backup_peak_rss_kib),
                g.stop_mail_pass_ms,
                g.token_mail_pass_ms,
                g.create_mail_pass_ms,
                g.metrics_scrape_ms,
            );
        }
    }
}
