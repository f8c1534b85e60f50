//! The wording of every mail: minijinja templates, one per mail kind and language, in
//! `crates/judge/templates/LANG/KIND.txt`, compiled in with `include_str!` (so the crate
//! packages with them). The daemon reads its `templates_dir` at start-up and hands the
//! files to [`Templates::with_overrides`] under the same relative paths (`fr/report.txt`;
//! a path without a language, like `report.txt` or `answers/join.txt`, means the English one), so a game master can reword without
//! recompiling. Undefined keys are errors (`SemiStrict`): a template that fails to render
//! falls back to the built-in one, and the judge logs it ([`Rendered::problem`]).

use castellan_engine::Lang;
use minijinja::{Environment, UndefinedBehavior};
use serde::Serialize;

macro_rules! both {
    ($name:literal) => {
        [
            (
                concat!("en/", $name),
                include_str!(concat!("../templates/en/", $name)),
            ),
            (
                concat!("fr/", $name),
                include_str!(concat!("../templates/fr/", $name)),
            ),
        ]
    };
}

/// The kinds of mail, each a template per language.
pub const KINDS: [&str; 25] = [
    "reply.txt",
    "report.txt",
    "private.txt",
    "welcome.txt",
    "reminder.txt",
    "notice.txt",
    "press.txt",
    "help.txt",
    "subject.txt",
    "outcome.txt",
    "answers/join.txt",
    "answers/observe.txt",
    "answers/press.txt",
    "answers/seat.txt",
    "answers/auth.txt",
    "answers/intake.txt",
    "answers/gm.txt",
    "answers/orders.txt",
    "answers/create.txt",
    "answers/info.txt",
    "answers/stop.txt",
    "confirm.txt",
    "answers/record.txt",
    "answers/campaign.txt",
    "standings.txt",
];

/// Built-in templates: (path under templates/, source).
pub fn defaults() -> Vec<(&'static str, &'static str)> {
    [
        both!("reply.txt"),
        both!("report.txt"),
        both!("private.txt"),
        both!("welcome.txt"),
        both!("reminder.txt"),
        both!("notice.txt"),
        both!("press.txt"),
        both!("help.txt"),
        both!("subject.txt"),
        both!("outcome.txt"),
        both!("answers/join.txt"),
        both!("answers/observe.txt"),
        both!("answers/press.txt"),
        both!("answers/seat.txt"),
        both!("answers/auth.txt"),
        both!("answers/intake.txt"),
        both!("answers/gm.txt"),
        both!("answers/orders.txt"),
        both!("answers/create.txt"),
        both!("answers/info.txt"),
        both!("answers/stop.txt"),
        both!("confirm.txt"),
        both!("answers/record.txt"),
        both!("answers/campaign.txt"),
        both!("standings.txt"),
    ]
    .concat()
}

#[derive(Clone, Debug)]
pub struct Templates {
    env: Environment<'static>,
    builtin: Environment<'static>,
}

/// A rendered template, and what went wrong on the way if anything did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rendered {
    pub text: String,
    /// An override (or the built-in template) failed; the text came from the fallback.
    pub problem: Option<String>,
}

fn environment(files: &[(String, String)]) -> Result<Environment<'static>, String> {
    let mut env = Environment::new();
    env.set_keep_trailing_newline(true);
    env.set_undefined_behavior(UndefinedBehavior::SemiStrict);
    // Counts with their noun, never "(s)": `{{ n | en_count("line", "lines") }}` ("1 line",
    // "0 lines") and `{{ n | fr_count("ligne", "lignes") }}` ("0 ligne", "2 lignes"), by
    // the rule of each language (castellan_engine::lang).
    env.add_filter("en_count", |n: i64, one: String, many: String| {
        castellan_engine::lang::en::count(n, &one, &many)
    });
    env.add_filter("fr_count", |n: i64, one: String, many: String| {
        castellan_engine::lang::fr::count(n, &one, &many)
    });
    for (name, src) in files {
        env.add_template_owned(name.clone(), src.clone())
            .map_err(|e| format!("template {name}: {e}"))?;
    }
    Ok(env)
}

/// Where an override file goes: `fr/report.txt` as it is, a flat `report.txt` in English.
fn override_path(name: &str) -> String {
    if name.starts_with("en/") || name.starts_with("fr/") {
        name.to_string()
    } else {
        format!("en/{name}")
    }
}

fn default_files() -> Vec<(String, String)> {
    defaults()
        .iter()
        .map(|(n, s)| (n.to_string(), s.to_string()))
        .collect()
}

impl Default for Templates {
    fn default() -> Templates {
        Templates::builtin()
    }
}

impl Templates {
    /// The built-in wording.
    pub fn builtin() -> Templates {
        let env = environment(&default_files()).expect("the built-in templates compile (tested)");
        Templates {
            builtin: env.clone(),
            env,
        }
    }

    /// The built-in wording with some templates replaced: `(path, source)`, e.g.
    /// `("fr/report.txt", "...")`; a flat `("report.txt", ..)` is the English one. An
    /// unknown path or a syntax error is refused with a message.
    pub fn with_overrides(files: Vec<(String, String)>) -> Result<Templates, String> {
        let mut all = default_files();
        for (name, src) in files {
            let path = override_path(&name);
            let Some(slot) = all.iter_mut().find(|(n, _)| *n == path) else {
                let known: Vec<String> = defaults().iter().map(|(n, _)| n.to_string()).collect();
                return Err(format!(
                    "unknown template \"{name}\"; the templates are: {}",
                    known.join(", ")
                ));
            };
            slot.1 = src;
        }
        let env = environment(&all)?;
        Ok(Templates {
            env,
            builtin: Templates::builtin().builtin,
        })
    }

    /// Like [`Templates::with_overrides`], for a running service: an override that is
    /// unknown or does not compile is left out (its built-in wording is used) and named in
    /// the returned problems, which the caller logs. Never fails.
    pub fn with_overrides_lenient(files: Vec<(String, String)>) -> (Templates, Vec<String>) {
        let builtin = default_files();
        let mut problems = Vec::new();
        let mut good = Vec::new();
        for (name, src) in files {
            let path = override_path(&name);
            match builtin.iter().find(|(n, _)| *n == path) {
                // The same words as the built-in one (a checkout's own folder): nothing to do.
                Some((_, b)) if *b == src => {}
                Some(_) => match environment(&[(path, src.clone())]) {
                    Ok(_) => good.push((name, src)),
                    Err(e) => problems.push(format!("{e}; the built-in {name} is used instead")),
                },
                None => problems.push(format!(
                    "unknown template \"{name}\"; the built-in wording is used"
                )),
            }
        }
        match Templates::with_overrides(good) {
            Ok(t) => (t, problems),
            Err(e) => {
                problems.push(format!("{e}; every built-in template is used instead"));
                (Templates::builtin(), problems)
            }
        }
    }

    /// Render the English `name` with `ctx` (see [`Templates::render_in`]).
    pub fn render<S: Serialize>(&self, name: &str, ctx: &S) -> String {
        self.render_in(Lang::En, name, ctx).text
    }

    /// Render `name` ("report.txt") in `lang` with `ctx`; an override that fails falls
    /// back to the built-in template, and if that fails too, to a plain dump (a mail is
    /// never lost to wording). What failed is in [`Rendered::problem`].
    pub fn render_in<S: Serialize>(&self, lang: Lang, name: &str, ctx: &S) -> Rendered {
        let path = format!("{}/{name}", lang.code());
        let value = minijinja::Value::from_serialize(ctx);
        let go = |env: &Environment<'static>| {
            env.get_template(&path)
                .and_then(|t| t.render(&value))
                .map_err(|e| format!("{e:#}"))
        };
        match go(&self.env) {
            Ok(s) => Rendered {
                text: tidy(&s),
                problem: None,
            },
            Err(first) => match go(&self.builtin) {
                Ok(s) => Rendered {
                    text: tidy(&s),
                    problem: Some(format!(
                        "template {path} failed, the built-in one was used: {first}"
                    )),
                },
                Err(e) => Rendered {
                    text: format!(
                        "(template {path} failed: {e})\n{}",
                        serde_json::to_string_pretty(
                            &serde_json::to_value(ctx).unwrap_or_default()
                        )
                        .unwrap_or_default()
                    ),
                    problem: Some(format!("template {path} and its built-in both failed: {e}")),
                },
            },
        }
    }
}

/// Trailing spaces off, at most one blank line in a row, one final newline.
fn tidy(s: &str) -> String {
    let mut out = String::new();
    let mut blank = 0;
    for line in s.lines() {
        // The signature separator keeps its space ("-- ").
        let l = if line == "-- " { line } else { line.trim_end() };
        if l.is_empty() {
            blank += 1;
            if blank > 1 || out.is_empty() {
                continue;
            }
        } else {
            blank = 0;
        }
        out.push_str(l);
        out.push('\n');
    }
    while out.ends_with("\n\n") {
        out.pop();
    }
    out
}

#[cfg(test)]
mod lenient_tests {
    use super::*;

    /// "A broken override falls back to the built-in one and says so": a template
    /// that does not compile, and one that does not exist, are left out and named; a good
    /// override beside them is kept.
    #[test]
    fn a_broken_override_is_left_out_named_and_the_others_kept() {
        let (t, problems) = Templates::with_overrides_lenient(vec![
            ("fr/report.txt".into(), "{% if %}".into()),
            ("nosuch.txt".into(), "x".into()),
            ("press.txt".into(), "PRESS OVERRIDDEN {{ from }}\n".into()),
        ]);
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems[0].contains("fr/report.txt"), "{problems:?}");
        assert!(problems[1].contains("nosuch.txt"), "{problems:?}");
        let out = t.render("press.txt", &serde_json::json!({"from": "Anna"}));
        assert!(out.starts_with("PRESS OVERRIDDEN Anna"), "{out}");
    }
}
