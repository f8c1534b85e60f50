//! The mail templates: the built-in ones, overridden by the `*.txt` files of templates/.

use crate::error::ShellError;
use castellan_judge::Templates;
use std::path::{Path, PathBuf};

/// Read templates/ at run time: every `*.txt` file overrides the built-in template of the
/// same relative path (`report.txt` or `en/report.txt` English, `fr/report.txt` French,
/// `fr/answers/join.txt`), so a game master can reword mails without recompiling.
pub fn load_templates(dir: &Path) -> Result<Templates, ShellError> {
    let mut files = Vec::new();
    read_templates(dir, "", &mut files)?;
    Templates::with_overrides(files).map_err(ShellError::Templates)
}

/// How many template files `dir` holds, in its language folders too (what
/// [`load_templates`] reads).
pub fn template_files(dir: &Path) -> Result<usize, ShellError> {
    let mut files = Vec::new();
    read_templates(dir, "", &mut files)?;
    Ok(files.len())
}

/// [`load_templates`] for the running service: a template that does not compile is left
/// out (the built-in wording is used) and logged, so one bad edit never stops the judge.
pub fn load_templates_lenient(dir: &Path) -> Result<Templates, ShellError> {
    let mut files = Vec::new();
    read_templates(dir, "", &mut files)?;
    let (templates, problems) = Templates::with_overrides_lenient(files);
    for p in problems {
        tracing::warn!("templates in {}: {p}", dir.display());
    }
    Ok(templates)
}

fn read_templates(
    dir: &Path,
    prefix: &str,
    files: &mut Vec<(String, String)>,
) -> Result<(), ShellError> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Ok(());
    };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        let name = p
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string();
        if p.is_dir() && prefix.matches('/').count() < 2 {
            read_templates(&p, &format!("{prefix}{name}/"), files)?;
        } else if p.is_file() && p.extension().and_then(|e| e.to_str()) == Some("txt") {
            let text = std::fs::read_to_string(&p).map_err(|e| ShellError::io(&p, e))?;
            files.push((format!("{prefix}{name}"), text));
        }
    }
    Ok(())
}
