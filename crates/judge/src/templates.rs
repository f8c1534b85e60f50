//! The wording of every mail: minijinja templates, one per mail kind. The defaults are
//! compiled in from templates/*.txt; the daemon reads templates/ at run time and hands
//! the files to [`Templates::with_overrides`], so a game master can reword without
//! recompiling. A template that fails to render falls back to the built-in one.

use minijinja::Environment;
use serde::Serialize;

/// Built-in templates: (file name, source).
pub const DEFAULTS: [(&str, &str); 8] = [
    ("reply.txt", include_str!("../../../templates/reply.txt")),
    ("report.txt", include_str!("../../../templates/report.txt")),
    (
        "private.txt",
        include_str!("../../../templates/private.txt"),
    ),
    (
        "welcome.txt",
        include_str!("../../../templates/welcome.txt"),
    ),
    (
        "reminder.txt",
        include_str!("../../../templates/reminder.txt"),
    ),
    ("notice.txt", include_str!("../../../templates/notice.txt")),
    ("press.txt", include_str!("../../../templates/press.txt")),
    ("help.txt", include_str!("../../../templates/help.txt")),
];

#[derive(Clone, Debug)]
pub struct Templates {
    env: Environment<'static>,
    builtin: Environment<'static>,
}

fn environment(files: &[(String, String)]) -> Result<Environment<'static>, String> {
    let mut env = Environment::new();
    env.set_keep_trailing_newline(true);
    for (name, src) in files {
        env.add_template_owned(name.clone(), src.clone())
            .map_err(|e| format!("template {name}: {e}"))?;
    }
    Ok(env)
}

impl Default for Templates {
    fn default() -> Templates {
        Templates::builtin()
    }
}

impl Templates {
    /// The built-in wording.
    pub fn builtin() -> Templates {
        let files: Vec<(String, String)> = DEFAULTS
            .iter()
            .map(|(n, s)| (n.to_string(), s.to_string()))
            .collect();
        let env = environment(&files).expect("the built-in templates compile (tested)");
        Templates {
            builtin: env.clone(),
            env,
        }
    }

    /// The built-in wording with some templates replaced: `(file name, source)`, e.g.
    /// `("report.txt", "...")`. An unknown name or a syntax error is refused with a message.
    pub fn with_overrides(files: Vec<(String, String)>) -> Result<Templates, String> {
        let mut all: Vec<(String, String)> = DEFAULTS
            .iter()
            .map(|(n, s)| (n.to_string(), s.to_string()))
            .collect();
        for (name, src) in files {
            let Some(slot) = all.iter_mut().find(|(n, _)| *n == name) else {
                let known: Vec<&str> = DEFAULTS.iter().map(|(n, _)| *n).collect();
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

    /// Render `name` with `ctx`; an override that fails falls back to the built-in
    /// template, and if that fails too, to a plain dump (a mail is never lost to wording).
    pub fn render<S: Serialize>(&self, name: &str, ctx: &S) -> String {
        let value = minijinja::Value::from_serialize(ctx);
        let go = |env: &Environment<'static>| {
            env.get_template(name)
                .and_then(|t| t.render(&value))
                .map_err(|e| e.to_string())
        };
        match go(&self.env).or_else(|_| go(&self.builtin)) {
            Ok(s) => tidy(&s),
            Err(e) => format!(
                "(template {name} failed: {e})\n{}",
                serde_json::to_string_pretty(&serde_json::to_value(ctx).unwrap_or_default())
                    .unwrap_or_default()
            ),
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
