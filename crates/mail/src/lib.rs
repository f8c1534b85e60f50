//! mail: work in progress.
