//! The instruction guard's integration tests, as one test binary.

mod cases;
mod no_panic;
mod normalize;
