//! The async runtime of `serve` and of the commands that send mail.

use crate::error::ShellError;

/// A multi-threaded tokio runtime with its timers and I/O.
pub fn runtime() -> Result<tokio::runtime::Runtime, ShellError> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|source| ShellError::Setup {
            what: "cannot start the async runtime",
            source,
        })
}
