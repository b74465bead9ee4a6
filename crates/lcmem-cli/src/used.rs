//! What a recall answer means for the digest: the sessions it returned are
//! in use again, and keep their place longer. `lcmem recall` and the page's
//! search both record it.

use lcmem::Store;
use lcmem::recall::{Hit, HitKind};

/// Records the sessions of `hits` (journal entries and turns, not facts) as used at `now`.
pub fn record(store: &Store, hits: &[Hit], now: jiff::Timestamp) -> lcmem::Result<usize> {
    let used: Vec<String> = hits.iter().filter(|h| h.kind != HitKind::Fact).map(|h| h.session.clone()).collect();
    lcmem::seal::record_use(store, &used, now)
}
