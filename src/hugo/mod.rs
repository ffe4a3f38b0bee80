//! Hugo's wing: what Hugo means, whatever the stage that asks. So far its rules by release
//! ([`version`]), Go's time layouts as Hugo uses them for front-matter dates and permalink
//! tokens ([`golayout`]), and the grammar of a `[permalinks]` pattern ([`permalink_tokens`]).
//! Each uses nothing of ours above the vocabulary, so the config readers and the router can
//! both ask them without a circle.

pub mod golayout;
pub mod permalink_tokens;
pub mod version;
