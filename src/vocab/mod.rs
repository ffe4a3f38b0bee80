//! The vocabulary every stage may use, which uses nothing of ours: the protocol's limits and
//! namespaces, its values (`changefreq`, `priority`, W3C dates, language tags), errors and
//! where they come from (a config file's value by its file and line), bounded reading and
//! safe creation of files, and how messages write numbers, lists and "did you mean".

pub mod config_text;
pub mod crawl_hints;
pub mod date;
pub mod error;
pub mod fsread;
pub mod fswrite;
pub mod langtag;
pub mod limits;
pub mod loc;
pub mod prose;
pub mod protocol;
pub mod suggest;
pub mod zoneinfo;
