//! Test support for the integration tests.
