//! risk: work in progress.
