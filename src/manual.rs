//! `castellan manpage` and `castellan completions SHELL`: the man page (clap_mangen) and
//! the shell completions (clap_complete), made from the command line's own definition so
//! that they never drift from it. The Debian package ships both (scripts/build-deb.sh).

use crate::cli::Cli;
use clap::CommandFactory;
use std::io::Write;

/// The man page castellan(1), in roff, into `out`.
pub fn manpage(out: &mut dyn Write) -> std::io::Result<()> {
    let cmd = Cli::command();
    clap_mangen::Man::new(cmd.clone()).render(out)?;
    // The subcommands each get a SUBCOMMAND section's line from clap_mangen; the files and
    // environment the judge reads are said here.
    out.write_all(
        br#".SH ENVIRONMENT
.TP
\fBCASTELLAN_CONFIG\fR
the configuration file when \fB\-\-config\fR is not given.
.TP
\fBCASTELLAN_LOG\fR
the log filter (default \fBinfo\fR; the storage library's logs only when it names \fBsled\fR).
.TP
\fBCASTELLAN_LOG_FILE\fR
a file the logs are appended to, instead of stderr (syslog for \fBingest\fR).
.SH FILES
.TP
\fI/etc/castellan/castellan.yaml\fR
the configuration (docs/config.md).
.TP
\fI/etc/castellan/templates/\fR
the mail templates an operator may reword.
.TP
\fI/var/lib/castellan/\fR
the database, the journal, the Maildir inbox and the backups.
.SH SEE ALSO
/usr/share/doc/castellan/operating.md, /usr/share/doc/castellan/config.md,
/usr/share/doc/castellan/commands.md
"#,
    )
}

/// The completions for `shell`, into `out`.
pub fn completions(shell: clap_complete::Shell, out: &mut dyn Write) -> std::io::Result<()> {
    let mut cmd = Cli::command();
    let mut text = Vec::new();
    clap_complete::generate(shell, &mut cmd, "castellan", &mut text);
    out.write_all(&text)
}
