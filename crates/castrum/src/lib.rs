//! castrum: work in progress.
