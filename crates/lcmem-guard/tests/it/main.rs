//! The instruction guard's integration tests, as one test binary.

mod cases;
mod corpus;
mod disguises;
mod no_panic;
mod normalize;
