//! Everything the binary owns: the command line, the terminal and the process.

pub mod alloc;
pub mod args;
pub mod commands;
pub mod diff_report;
pub mod json;
pub mod out;
pub mod print;
pub mod progress;
