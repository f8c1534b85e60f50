//! castle-risk: work in progress.
