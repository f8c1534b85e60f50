//! docs/commands.md showed `hidden-army=true`, which CREATE refuses. Every
//! CREATE (CRÉER, CREER) example of docs/commands.md and docs/commandes.md, in a code span
//! or a code block, is sent to a judge running every game: none is refused.

use castellan_judge::{Env, Inbound, Judge, JudgeConfig, MemoryStore, Templates};

/// The CREATE lines of a Markdown file: code spans and code-block lines that start with
/// the command word.
fn create_examples(markdown: &str) -> Vec<String> {
    let is_create = |s: &str| {
        let w = s.split_whitespace().next().unwrap_or("").to_uppercase();
        matches!(w.as_str(), "CREATE" | "CRÉER" | "CREER")
    };
    let mut out = Vec::new();
    let mut in_block = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
            continue;
        }
        if in_block {
            if is_create(line.trim()) {
                out.push(line.trim().to_string());
            }
            continue;
        }
        for (i, span) in line.split('`').enumerate() {
            // Odd pieces are inside backticks; "CREATE" alone names the command.
            if i % 2 == 1 && is_create(span) && span.split_whitespace().count() > 1 {
                out.push(span.trim().to_string());
            }
        }
    }
    out
}

#[test]
fn every_create_example_in_the_docs_is_accepted() {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut tried = 0;
    for doc in ["docs/commands.md", "docs/commandes.md"] {
        let text = std::fs::read_to_string(format!("{root}/{doc}")).unwrap();
        let examples = create_examples(&text);
        assert!(!examples.is_empty(), "{doc}: no CREATE example found");
        for (n, line) in examples.iter().enumerate() {
            let judge = Judge::new(
                JudgeConfig {
                    address: "judge@example.org".into(),
                    domain: "example.org".into(),
                    password_memory_kib: 8,
                    password_iterations: 1,
                    confirm_addresses: false,
                    ..JudgeConfig::default()
                },
                castellan::games::all(),
                Templates::builtin(),
            );
            let store = MemoryStore::new();
            let mail = Inbound {
                message_id: format!("<doc-{n}@example.org>"),
                from: "gm@example.org".into(),
                to: vec!["judge@example.org".into()],
                subject: "new game".into(),
                body: line.clone(),
                ..Default::default()
            };
            let now = 1_736_877_600;
            let c = judge
                .handle(
                    &store,
                    &mail,
                    &Env {
                        now,
                        entropy: [7; 32],
                    },
                )
                .unwrap();
            let reply = c
                .outbox
                .iter()
                .find(|m| m.to == "gm@example.org" && m.in_reply_to.is_some())
                .unwrap_or_else(|| panic!("{doc}: no reply to {line}"));
            assert!(
                !reply.body.contains("refused") && !reply.body.contains("refusé"),
                "{doc}: the example {line:?} is refused:\n{}",
                reply.body
            );
            assert!(!c.games.is_empty(), "{doc}: {line:?} created no game");
            tried += 1;
        }
    }
    assert!(tried >= 4, "only {tried} examples");
}
