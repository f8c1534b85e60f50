//! castello: work in progress.
