//! rlc-sharp as a library: the check pipeline and its outputs, used by the
//! `rlc-sharp` binary and by the integration tests.

pub mod driver;
