//! A small deterministic pseudo-random generator for made-up test data.

/// xorshift64 (shifts 13, 7, 17) over a seed mixed by one LCG step, so that
/// small seeds (0, 1, 2, …) give unrelated streams from the first draw.
/// Not for anything but tests and benchmarks.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        let state = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        // xorshift stays at zero once there; the LCG step reaches zero for one seed only.
        Rng(if state == 0 { 0x9E37_79B9_7F4A_7C15 } else { state })
    }

    /// The next 64 bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in `0..n` (`n` > 0), by modulo: fine for test data.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// One of `items`, which must not be empty.
    pub fn pick<'a, T: ?Sized>(&mut self, items: &[&'a T]) -> &'a T {
        items[self.below(items.len() as u64) as usize]
    }

    /// `len` characters drawn from `alphabet`, which must not be empty.
    pub fn string(&mut self, alphabet: &str, len: usize) -> String {
        let chars: Vec<char> = alphabet.chars().collect();
        (0..len).map(|_| chars[self.below(chars.len() as u64) as usize]).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::Rng;

    #[test]
    fn same_seed_same_stream_and_seeds_differ() {
        let a: Vec<u64> = (0..4)
            .map({
                let mut r = Rng::new(1);
                move |_| r.next_u64()
            })
            .collect();
        let mut r = Rng::new(1);
        assert_eq!(a, (0..4).map(|_| r.next_u64()).collect::<Vec<_>>());
        assert_ne!(Rng::new(1).next_u64(), Rng::new(2).next_u64());
        assert_eq!(Rng::new(7).string("ab", 12).len(), 12);
        assert!(Rng::new(7).string("x", 5).chars().all(|c| c == 'x'));
    }
}
