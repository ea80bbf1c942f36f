//! Project discovery (to be written).
