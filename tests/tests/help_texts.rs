//! The help line of a leak names a fix that compiles and is right for how the
//! value is used: `using` only where it discharges the obligation, and not
//! for a value the method hands back when nothing fails.

use rlc_core::rules::{Diagnostic, RuleId};
use rlc_sharp::driver::{RunOptions, run};

fn check(source: &str) -> Vec<Diagnostic> {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("Code.cs"), source).expect("write source");
    let opts = RunOptions {
        paths: vec![dir.path().to_path_buf()],
        infer: true,
        ..Default::default()
    };
    run(&opts).expect("run").diagnostics
}

fn help_of(diags: &[Diagnostic], rule: RuleId) -> String {
    let found: Vec<&Diagnostic> = diags.iter().filter(|d| d.rule == rule).collect();
    assert_eq!(found.len(), 1, "{diags:#?}");
    found[0].help.clone().unwrap_or_default()
}

#[test]
fn a_disposable_local_is_declared_with_using() {
    let diags = check(
        "using System.IO;\nstatic class C { static int M(string p) { var fs = File.OpenRead(p); return fs.ReadByte(); } }\n",
    );
    assert_eq!(
        help_of(&diags, RuleId::ResourceLeak),
        "declare it with `using`: `using var fs = ...;`"
    );
}

#[test]
fn an_object_whose_must_call_method_is_not_dispose_is_told_to_call_it() {
    let diags = check(
        "using System.IO;\n\
         sealed class Service { private readonly FileStream _log; public Service(string p) { _log = new FileStream(p, FileMode.Append); } public void Stop() { _log.Dispose(); } }\n\
         static class Host { static void Run(string p) { var s = new Service(p); } }\n",
    );
    let help = help_of(&diags, RuleId::ResourceLeak);
    assert_eq!(help, "call `s.Stop()` when it is no longer needed");
}

#[test]
fn a_value_returned_on_success_is_released_before_the_exception_leaves() {
    let diags = check(
        "using System; using System.IO;\n\
         static class C { static FileStream Open(string p) { var fs = File.OpenRead(p); if (fs.Length == 0) throw new InvalidOperationException(); return fs; } }\n",
    );
    let help = help_of(&diags, RuleId::ResourceLeakOnException);
    assert!(
        help.contains("`using` would release it too early"),
        "{help}"
    );
    assert!(
        help.contains("call `Dispose()` before the exception leaves the method"),
        "{help}"
    );
}

#[test]
fn a_value_disposed_on_success_is_released_in_finally() {
    let diags = check(
        "using System; using System.IO;\n\
         static class C { static int Read(string p) { var fs = File.OpenRead(p); if (fs.Length == 0) throw new InvalidOperationException(); var b = fs.ReadByte(); fs.Dispose(); return b; } }\n",
    );
    let help = help_of(&diags, RuleId::ResourceLeakOnException);
    assert!(
        help.starts_with("dispose it in a `finally` block"),
        "{help}"
    );
}

#[test]
fn a_class_with_its_own_dispose_async_is_told_to_use_it() {
    let diags = check(
        "using System; using System.IO; using System.Threading.Tasks;\n\
         public sealed class Client { private readonly FileStream _log = File.OpenWrite(\"log\");\n\
         public Task DisposeAsync() { Console.WriteLine(); return Task.CompletedTask; } }\n",
    );
    let help = help_of(&diags, RuleId::OwningFieldNotDisposed);
    assert_eq!(
        help,
        "dispose the field in `DisposeAsync()` on every path, and declare `IAsyncDisposable` so that callers must call it"
    );
}

#[test]
fn a_field_released_only_asynchronously_asks_for_iasyncdisposable() {
    let diags = check(
        "using System; using System.Threading.Tasks;\n\
         public sealed class Session : IAsyncDisposable { public ValueTask DisposeAsync() { Console.WriteLine(); return default; } }\n\
         public sealed class Holder { private readonly Session _session = new Session(); }\n",
    );
    let help = help_of(&diags, RuleId::OwningFieldNotDisposed);
    assert!(help.starts_with("implement `IAsyncDisposable`"), "{help}");
    assert!(help.contains("await _session.DisposeAsync()"), "{help}");
}

#[test]
fn an_owning_field_of_a_type_that_releases_nothing_is_a_warning_that_says_so() {
    let diags = check(
        "using System; using System.IO;\n\
         sealed class Scope : IDisposable { public void Dispose() { } }\n\
         sealed class Holder : IDisposable { private Scope _scope = new Scope(); private FileStream _fs; \
         public void Restart(string p) { _scope = new Scope(); _fs = File.OpenRead(p); } \
         public void Dispose() { _scope.Dispose(); _fs?.Dispose(); } }\n",
    );
    let overwrites: Vec<&Diagnostic> = diags
        .iter()
        .filter(|d| d.rule == RuleId::ResourceOverwritten)
        .collect();
    assert_eq!(overwrites.len(), 2, "{diags:#?}");
    let (scope, fs): (Vec<&Diagnostic>, Vec<&Diagnostic>) = overwrites
        .iter()
        .partition(|d| d.message.contains("`_scope`"));
    let (scope, fs) = (scope[0], fs[0]);
    assert_eq!(scope.severity, rlc_core::rules::Severity::Warning);
    assert!(
        scope
            .message
            .ends_with("; the disposal of `Scope` releases nothing today"),
        "{}",
        scope.message
    );
    assert!(
        scope
            .help
            .as_deref()
            .unwrap_or_default()
            .contains("accept the `[MustCall]` (no obligation) that `rlc-sharp infer` proposes"),
        "{:?}",
        scope.help
    );
    assert_eq!(fs.severity, rlc_core::rules::Severity::Error);
    assert!(!fs.message.contains("releases nothing"), "{}", fs.message);
}
