//! Token counts with a real BPE: o200k, whose vocabulary ships inside the
//! tiktoken-rs crate, so counting needs no network. Loaded only by
//! consolidation, never on the `lcmem digest` path, and once per process.

use std::sync::OnceLock;

use crate::error::{Error, Result};

pub struct Tokenizer(tiktoken_rs::CoreBPE);

static O200K: OnceLock<std::result::Result<Tokenizer, String>> = OnceLock::new();

impl Tokenizer {
    pub fn o200k() -> Result<&'static Tokenizer> {
        O200K
            .get_or_init(|| tiktoken_rs::o200k_base().map(Tokenizer).map_err(|e| e.to_string()))
            .as_ref()
            .map_err(|e| Error::Tokenizer(e.to_string()))
    }

    pub fn count(&self, text: &str) -> usize {
        self.0.encode_ordinary(text).len()
    }
}
