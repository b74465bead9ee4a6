//! Secrets made here: the page's token and the key that keeps tombstones
//! from naming what was forgotten.

use std::io::Read;

/// 32 hex digits (128 bits) from the system's randomness.
pub fn random_hex() -> String {
    let mut bytes = [0u8; 16];
    let read = std::fs::File::open("/dev/urandom").and_then(|mut f| f.read_exact(&mut bytes));
    if read.is_err() {
        // No /dev/urandom: std's randomly keyed hasher (seeded from the
        // system once a thread, and keyed afresh for each half).
        use std::hash::{BuildHasher, Hasher};
        for (i, half) in bytes.chunks_mut(8).enumerate() {
            let mut h = std::collections::hash_map::RandomState::new().build_hasher();
            h.write_usize(i);
            half.copy_from_slice(&h.finish().to_le_bytes());
        }
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn two_draws_differ_and_are_hex() {
        let (a, b) = (super::random_hex(), super::random_hex());
        assert_ne!(a, b);
        assert!(a.len() == 32 && a.bytes().all(|c| c.is_ascii_hexdigit()), "{a}");
    }
}
