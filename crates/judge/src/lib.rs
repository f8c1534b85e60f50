//! judge: work in progress.
