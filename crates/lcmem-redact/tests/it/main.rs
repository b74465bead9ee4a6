//! The redactor's integration tests, as one test binary; `common` builds the
//! synthetic secrets they use.

mod code;
mod common;
mod disguised;
mod families;
mod keep;
mod pem;
mod props;
mod vendors;
