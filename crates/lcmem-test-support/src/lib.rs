//! Shared helpers for lcmem's tests and benchmarks. Used only as a
//! dev-dependency; nothing here is part of the product.
//!
//! - [`session`]: builds v1 session files (docs/session-format.md).
//! - [`Rng`]: one small deterministic generator, for made-up data.
//! - [`TempDirs`]: a throwaway folder with a store home and a project.
//! - [`normalise`]: makes command output comparable across machines.

#![forbid(unsafe_code)]

mod normalise;
mod rng;
pub mod session;
mod temp;

pub use normalise::Normaliser;
pub use rng::Rng;
pub use session::SessionFile;
pub use temp::TempDirs;

/// Normalises `text` with the default rules and the given named paths; see
/// [`Normaliser`].
pub fn normalise(text: &str, paths: &[(&std::path::Path, &str)]) -> String {
    let mut normaliser = Normaliser::new();
    for (path, name) in paths {
        normaliser = normaliser.path(path, name);
    }
    normaliser.apply(text)
}
