//! Session format v1 written from an agent's records: what every agent's
//! reader ([`crate::agents`]) shares. The emitter (`emitter.rs`) writes the
//! lines and holds the header back until it is settled; `fields.rs` reads the
//! fields the agents have in common; `commit.rs` and `shell_files.rs` find
//! the files a command or a commit touched; `results.rs` keeps a tool's
//! output with its call; `presized.rs` bounds what a record may allocate;
//! `converted.rs` is what a conversion makes. None of it looks at the clock,
//! the file system or the store: conversion is a pure function of the
//! transcript's bytes (see [`crate::import`]).

pub(crate) mod commit;
pub(crate) mod converted;
pub(crate) mod emitter;
pub(crate) mod fields;
pub(crate) mod presized;
pub(crate) mod results;
pub(crate) mod shell_files;

pub use emitter::sanitize_id;
