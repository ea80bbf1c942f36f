//! RLC9002 project-note: something in a project, solution or configuration
//! file (or an entry of the library model) could not be evaluated and was
//! skipped: an unknown MSBuild SDK, a missing referenced project, a malformed
//! element. Raised by project discovery and loading; see [`super::input_note`].
