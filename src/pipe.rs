//! Output piped into `head` or a pager that is closed early ends quietly.
//!
//! Rust ignores SIGPIPE, so a write to a closed pipe is an error, and `println!` turns that
//! error into a panic ("failed printing to stdout: Broken pipe", exit 101). Every command
//! prints through `println!`; rather than let the signal kill the process (which would also
//! kill `serve` or `ingest` when a sendmail child closes its stdin early), the panic hook
//! recognises that one panic and ends the process as a killed-by-SIGPIPE program is seen
//! by a shell: exit status 141 (128 + 13), nothing on stderr. Every other panic goes to the
//! default hook as before.

/// Exit status of a program ended by SIGPIPE, as shells report it.
pub const EXIT_BROKEN_PIPE: i32 = 128 + 13;

/// Is this panic message `println!`'s (or `eprintln!`'s) failure on a closed pipe?
pub fn is_broken_pipe(message: &str) -> bool {
    (message.starts_with("failed printing to stdout")
        || message.starts_with("failed printing to stderr"))
        && (message.contains("Broken pipe") || message.contains("os error 32"))
}

/// Install the hook (once, first thing in `main`).
pub fn end_quietly_on_broken_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if is_broken_pipe(message) {
            std::process::exit(EXIT_BROKEN_PIPE);
        }
        default(info);
    }));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_closed_pipe_panic_is_recognised() {
        assert!(is_broken_pipe(
            "failed printing to stdout: Broken pipe (os error 32)"
        ));
        assert!(is_broken_pipe(
            "failed printing to stderr: Broken pipe (os error 32)"
        ));
        assert!(!is_broken_pipe(
            "failed printing to stdout: No space left on device (os error 28)"
        ));
        assert!(!is_broken_pipe("index out of bounds: Broken pipe"));
    }
}
