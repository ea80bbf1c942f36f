//! Suppressions: removes the findings a user silenced, after the check.
//!
//! The mechanisms, in the order they are tried (a finding is counted under the
//! first that removes it):
//! - the config's `[rules]` levels (`off` removes; other levels re-grade);
//! - `#pragma warning disable` / `restore` with rule ids or names (none = all);
//! - `[SuppressMessage("rlc-sharp", "RLC0001")]` on a member, an accessor or a
//!   type (any part of a partial type);
//! - `[assembly: SuppressMessage("rlc-sharp", "RLC0001", Scope = ..., Target = ...)]`
//!   anywhere in the same project (usually `GlobalSuppressions.cs`), with Roslyn's
//!   documentation-comment ids as targets.
//!
//! Targets are matched against declarations as written, without the semantic
//! model: a parameter written `Stream` matches `System.IO.Stream` in a target, and
//! namespaces, nesting, generic arity and parameter shapes must agree.
//!
//! Suppressions written for other analyzers of the same bugs (`CA2000`,
//! `IDISP001`, ReSharper's `NotDisposedResource`, ...) count too, unless
//! turned off: in pragmas, in `[SuppressMessage]` (any category, as Roslyn
//! matches by id) and in ReSharper's `// ReSharper disable` comments; see
//! [`foreign`].

use std::collections::BTreeMap;

use rlc_core::FileId;
use rlc_core::rules::{Diagnostic, Severity};
use rlc_core::rules::{Rule, RuleId, rule};
use rustc_hash::FxHashMap;
use serde::Serialize;

use crate::hir::{
    Accessor, AccessorKind, AttrValue, Attribute, FileSyntax, Member, MemberKind, ParamModifier,
    PragmaWarning, TypeDecl, TypeDeclId, TypeRef,
};
use crate::index::{Index, Origin};

mod foreign;

pub use foreign::Tool;
use foreign::{ReSharperRegion, resharper_regions, tool_for};

/// A rule's level as the config sets it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Off,
    Note,
    Warning,
    Error,
}

impl Level {
    /// The spellings the config accepts, most severe first.
    pub const NAMES: [&'static str; 4] = ["error", "warning", "note", "off"];

    pub fn parse(s: &str) -> Option<Level> {
        Some(match s {
            "error" => Level::Error,
            "warning" => Level::Warning,
            "note" => Level::Note,
            "off" => Level::Off,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Level::Off => "off",
            Level::Note => "note",
            Level::Warning => "warning",
            Level::Error => "error",
        }
    }

    /// The severity findings get; `None` for `off`.
    pub fn severity(self) -> Option<Severity> {
        match self {
            Level::Off => None,
            Level::Note => Some(Severity::Note),
            Level::Warning => Some(Severity::Warning),
            Level::Error => Some(Severity::Error),
        }
    }
}

/// Levels per rule id (`RLC0001`).
pub type RuleLevels = BTreeMap<RuleId, Level>;

/// A parsed source file and the project it is compiled into.
#[derive(Copy, Clone, Debug)]
pub struct SourceUnit<'a> {
    pub file: FileId,
    /// `[assembly: SuppressMessage]` and partial types apply across a project.
    pub project: u32,
    pub syntax: &'a FileSyntax,
    /// The decoded text, where ReSharper's comments are read.
    pub text: &'a str,
}

/// The project sources of an index (the library model cannot suppress anything).
pub fn source_units(index: &Index) -> Vec<SourceUnit<'_>> {
    index
        .files
        .iter()
        .filter_map(|f| match f.origin {
            Origin::Project(project) => Some(SourceUnit {
                file: f.source.id,
                project,
                syntax: &f.syntax,
                text: &f.source.text,
            }),
            Origin::Library => None,
        })
        .collect()
}

/// How many findings each mechanism removed.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SuppressionCounts {
    /// Rules set to `off` in the config.
    pub config: usize,
    /// Rules set to `none` or `silent` in `.editorconfig` or `.globalconfig`.
    pub editorconfig: usize,
    /// `#pragma warning disable` of rlc-sharp's rules.
    pub pragma: usize,
    /// `[SuppressMessage]` of rlc-sharp's rules on a type, member or accessor.
    pub attribute: usize,
    /// `[assembly: SuppressMessage]` of rlc-sharp's rules.
    pub global: usize,
    /// Suppressions of `CA2000` and `CA2213` (pragmas and attributes).
    pub net_analyzers: usize,
    /// Suppressions of IDisposableAnalyzers' `IDISP` rules.
    pub idisposable_analyzers: usize,
    /// ReSharper's `// ReSharper disable` comments and `[SuppressMessage("ReSharper", ...)]`.
    pub resharper: usize,
}

impl SuppressionCounts {
    pub fn total(&self) -> usize {
        self.config
            + self.editorconfig
            + self.pragma
            + self.attribute
            + self.global
            + self.net_analyzers
            + self.idisposable_analyzers
            + self.resharper
    }

    fn count(&mut self, by: By) {
        *match by {
            By::Own(Mechanism::Pragma) => &mut self.pragma,
            By::Own(Mechanism::Attribute) => &mut self.attribute,
            By::Own(Mechanism::Global) => &mut self.global,
            By::Tool(Tool::NetAnalyzers) => &mut self.net_analyzers,
            By::Tool(Tool::IDisposableAnalyzers) => &mut self.idisposable_analyzers,
            By::Tool(Tool::ReSharper) => &mut self.resharper,
        } += 1;
    }
}

/// Where a level comes from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum LevelOrigin {
    /// `rlc-sharp.toml`'s `[rules]`.
    Config,
    /// `.editorconfig` or `.globalconfig`.
    EditorConfig,
}

/// How [`apply_with`] decides.
pub struct Options<'a> {
    /// The level set for a finding, if any, and by what.
    pub level: &'a dyn Fn(&Diagnostic) -> Option<(Level, LevelOrigin)>,
    /// Whether suppressions written for other analyzers count.
    pub foreign: bool,
}

/// Which suppression in the sources removed a finding.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum By {
    /// One written for rlc-sharp's rules.
    Own(Mechanism),
    /// One written for another analyzer of the same bug.
    Tool(Tool),
}

/// How a suppression is written.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mechanism {
    Pragma,
    Attribute,
    Global,
}

/// What removed a finding: a level `off` (or `none`/`silent`), or a
/// suppression in the sources.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Suppression {
    Level(LevelOrigin),
    Source(By),
}

/// The findings left after suppression, with their final severity.
#[derive(Clone, Debug)]
pub struct Suppressed {
    pub kept: Vec<Diagnostic>,
    pub counts: SuppressionCounts,
}

impl SuppressionCounts {
    /// Counts one finding `suppression` removed.
    pub fn add(&mut self, suppression: Suppression) {
        match suppression {
            Suppression::Level(LevelOrigin::Config) => self.config += 1,
            Suppression::Level(LevelOrigin::EditorConfig) => self.editorconfig += 1,
            Suppression::Source(by) => self.count(by),
        }
    }
}

/// Applies the config's levels and the suppressions written in the sources.
/// Findings in files that are not among `units` (project files, the config) are
/// only subject to the levels.
pub fn apply(
    diagnostics: Vec<Diagnostic>,
    units: &[SourceUnit<'_>],
    levels: &RuleLevels,
) -> Suppressed {
    let level = |d: &Diagnostic| levels.get(&d.rule).map(|l| (*l, LevelOrigin::Config));
    apply_with(
        diagnostics,
        units,
        &Options {
            level: &level,
            foreign: true,
        },
    )
}

/// [`apply`] with the levels and switches of `options`.
pub fn apply_with(
    diagnostics: Vec<Diagnostic>,
    units: &[SourceUnit<'_>],
    options: &Options<'_>,
) -> Suppressed {
    let mut counts = SuppressionCounts::default();
    let mut kept = Vec::with_capacity(diagnostics.len());
    for (d, suppressed) in classify_with(diagnostics, units, options) {
        match suppressed {
            Some(suppression) => counts.add(suppression),
            None => kept.push(d),
        }
    }
    Suppressed { kept, counts }
}

/// [`apply`] finding by finding: each with its level applied and the first
/// mechanism that suppresses it, if one does.
pub fn classify(
    diagnostics: Vec<Diagnostic>,
    units: &[SourceUnit<'_>],
    levels: &RuleLevels,
) -> Vec<(Diagnostic, Option<Suppression>)> {
    let level = |d: &Diagnostic| levels.get(&d.rule).map(|l| (*l, LevelOrigin::Config));
    classify_with(
        diagnostics,
        units,
        &Options {
            level: &level,
            foreign: true,
        },
    )
}

/// [`apply_with`] finding by finding, as [`classify`].
pub fn classify_with(
    diagnostics: Vec<Diagnostic>,
    units: &[SourceUnit<'_>],
    options: &Options<'_>,
) -> Vec<(Diagnostic, Option<Suppression>)> {
    let by_file: FxHashMap<FileId, &SourceUnit<'_>> = units.iter().map(|u| (u.file, u)).collect();
    let projects = ProjectSuppressions::collect(units, options.foreign);
    // Read where findings are, once per file.
    let mut resharper: FxHashMap<FileId, Vec<ReSharperRegion>> = FxHashMap::default();
    let mut out = Vec::with_capacity(diagnostics.len());
    for mut d in diagnostics {
        if let Some((level, origin)) = (options.level)(&d) {
            match level.severity() {
                Some(severity) => d.severity = severity,
                None => {
                    out.push((d, Some(Suppression::Level(origin))));
                    continue;
                }
            }
        }
        let (Some(unit), Some(r)) = (by_file.get(&d.primary.span.file), Some(d.rule.rule())) else {
            out.push((d, None));
            continue;
        };
        let offset = d.primary.span.start;
        if let Some(by) = pragma_disables(&unit.syntax.pragmas, r, offset, options.foreign) {
            out.push((d, Some(Suppression::Source(by))));
            continue;
        }
        let place = Place::of(unit.syntax, offset);
        let project = projects.get(&unit.project);
        let attribute = place
            .local_attrs()
            .find_map(|a| suppresses(a, r, options.foreign))
            .or_else(|| {
                project.and_then(|p| {
                    place
                        .type_names
                        .iter()
                        .find_map(|t| p.type_suppresses(t, r))
                })
            });
        if let Some(by) = attribute {
            out.push((d, Some(Suppression::Source(by))));
            continue;
        }
        if let Some(by) = project.and_then(|p| {
            p.globals
                .iter()
                .find(|g| g.rule == r.id && g.target.covers(&place))
                .map(|g| g.by)
        }) {
            out.push((d, Some(Suppression::Source(by))));
            continue;
        }
        if options.foreign
            && resharper
                .entry(unit.file)
                .or_insert_with(|| resharper_regions(unit.text))
                .iter()
                .any(|region| region.covers(offset, r.id))
        {
            out.push((d, Some(Suppression::Source(By::Tool(Tool::ReSharper)))));
            continue;
        }
        out.push((d, None));
    }
    out
}

/// Whether `#pragma warning` directives before `offset` leave `rule` disabled,
/// and by what. A directive naming the rule overrides an earlier one naming
/// none, as in C#; with `foreign`, ids of other analyzers for the same bug
/// count as the rule's.
fn pragma_disables(
    pragmas: &[PragmaWarning],
    rule: &Rule,
    offset: u32,
    foreign: bool,
) -> Option<By> {
    let mut ordered: Vec<&PragmaWarning> = pragmas.iter().filter(|p| p.offset < offset).collect();
    ordered.sort_by_key(|p| p.offset);
    let mut all = false;
    let mut this_rule = None;
    // Per foreign id as written (upper case): whether it is disabled.
    let mut others: Vec<(String, Tool, bool)> = Vec::new();
    for p in ordered {
        if p.ids.is_empty() {
            all = p.disable;
            this_rule = None;
            others.clear();
            continue;
        }
        for id in &p.ids {
            if names(id, rule) {
                this_rule = Some(p.disable);
            } else if let Some(tool) = tool_for(id, rule.id).filter(|_| foreign) {
                let id = id.to_ascii_uppercase();
                match others.iter_mut().find(|(o, ..)| *o == id) {
                    Some(entry) => entry.2 = p.disable,
                    None => others.push((id, tool, p.disable)),
                }
            }
        }
    }
    if this_rule.unwrap_or(all) {
        return Some(By::Own(Mechanism::Pragma));
    }
    others
        .iter()
        .find(|(.., disabled)| *disabled)
        .map(|(_, tool, _)| By::Tool(*tool))
}

/// `RLC0001`, `resource-leak`, or Roslyn's `RLC0001:resource-leak` form.
fn names(written: &str, r: &Rule) -> bool {
    let id = written.split_once(':').map_or(written, |(id, _)| id).trim();
    rule(id)
        .or_else(|| rule(written.trim()))
        .is_some_and(|found| found.id == r.id)
}

/// A `SuppressMessage` attribute that silences a rule of ours.
struct SuppressMessage<'a> {
    rule: RuleId,
    by: By,
    scope: Option<&'a str>,
    target: Option<&'a str>,
}

/// What a `SuppressMessage` attribute silences: our rules by category
/// `rlc-sharp`, and with `foreign` the rules whose bug another analyzer's
/// check id names (Roslyn matches those by id, whatever the category).
fn suppress_messages(attr: &Attribute, foreign: bool) -> Vec<SuppressMessage<'_>> {
    let Some(s) = suppress_message(attr) else {
        return Vec::new();
    };
    if let Some(rule) = s.rule {
        return vec![SuppressMessage {
            rule: rule.id,
            by: By::Own(Mechanism::Attribute),
            scope: s.scope,
            target: s.target,
        }];
    }
    if !foreign {
        return Vec::new();
    }
    rlc_core::rules::RULES
        .iter()
        .filter_map(|r| {
            Some(SuppressMessage {
                rule: r.id,
                by: By::Tool(tool_for(s.check_id, r.id)?),
                scope: s.scope,
                target: s.target,
            })
        })
        .collect()
}

/// A `SuppressMessage` attribute as written.
struct Written<'a> {
    /// Ours, when the category is rlc-sharp's.
    rule: Option<&'static Rule>,
    check_id: &'a str,
    scope: Option<&'a str>,
    target: Option<&'a str>,
}

fn suppress_message(attr: &Attribute) -> Option<Written<'_>> {
    if !matches!(
        attr.simple_name(),
        "SuppressMessage" | "UnconditionalSuppressMessage"
    ) {
        return None;
    }
    let named = |name: &str| {
        attr.args
            .iter()
            .find(|a| {
                a.name
                    .as_deref()
                    .is_some_and(|n| n.eq_ignore_ascii_case(name))
            })
            .and_then(|a| as_str(&a.value))
    };
    let mut positional = attr
        .args
        .iter()
        .filter(|a| a.name.is_none())
        .map(|a| as_str(&a.value));
    let category = positional.next().flatten().or_else(|| named("category"))?;
    let check_id = positional.next().flatten().or_else(|| named("checkId"))?;
    let ours =
        category.eq_ignore_ascii_case("rlc-sharp") || category.eq_ignore_ascii_case("RlcSharp");
    let id = check_id
        .split_once(':')
        .map_or(check_id, |(id, _)| id)
        .trim();
    Some(Written {
        rule: ours
            .then(|| rule(id).or_else(|| rule(check_id.trim())))
            .flatten(),
        check_id,
        scope: named("Scope"),
        target: named("Target"),
    })
}

fn as_str(v: &AttrValue) -> Option<&str> {
    match v {
        AttrValue::Str(s) => Some(s),
        _ => None,
    }
}

/// Whether the attribute on a member silences `r`, and by what.
fn suppresses(attr: &Attribute, r: &Rule, foreign: bool) -> Option<By> {
    suppress_messages(attr, foreign)
        .into_iter()
        .find(|s| s.rule == r.id)
        .map(|s| s.by)
}

/// The declarations around a finding.
struct Place<'a> {
    /// Namespace segments.
    namespace: Vec<&'a str>,
    /// Enclosing type declarations, outermost first.
    types: Vec<&'a TypeDecl>,
    /// Their documentation-id names (`N.Outer`1.Inner`), outermost first.
    type_names: Vec<String>,
    member: Option<&'a Member>,
    accessor: Option<&'a Accessor>,
}

impl<'a> Place<'a> {
    fn of(syntax: &'a FileSyntax, offset: u32) -> Place<'a> {
        let innermost = syntax
            .types
            .iter()
            .enumerate()
            .filter(|(_, t)| t.range.contains(offset))
            .min_by_key(|(_, t)| t.range.end - t.range.start)
            .map(|(i, _)| TypeDeclId(i as u32));
        let types = innermost
            .map(|id| type_chain(syntax, id))
            .unwrap_or_default();
        let scope = match types.first() {
            Some(outer) => Some(outer.scope),
            None => syntax
                .scopes
                .iter()
                .enumerate()
                .filter(|(_, s)| s.range.contains(offset))
                // A file-scoped namespace can span as much as the file: prefer the later (inner) scope.
                .min_by_key(|&(i, s)| (s.range.end - s.range.start, std::cmp::Reverse(i)))
                .map(|(i, _)| crate::hir::ScopeId(i as u32)),
        };
        let member = types
            .last()
            .and_then(|t| t.members.iter().find(|m| m.range.contains(offset)));
        let accessor = member.and_then(|m| m.accessors.iter().find(|a| a.range.contains(offset)));
        let namespace = scope.map(|s| namespace_of(syntax, s)).unwrap_or_default();
        let type_names = (1..=types.len())
            .map(|n| qualified_type_name(&namespace, &types[..n]))
            .collect();
        Place {
            namespace,
            types,
            type_names,
            member,
            accessor,
        }
    }

    /// Attributes written on the enclosing member and accessor.
    fn local_attrs(&self) -> impl Iterator<Item = &'a Attribute> {
        let member = self.member.map(|m| m.attrs.as_slice()).unwrap_or_default();
        let accessor = self
            .accessor
            .map(|a| a.attrs.as_slice())
            .unwrap_or_default();
        member.iter().chain(accessor)
    }

    /// Type parameter names of the enclosing types, outermost first (`` `0 ``, `` `1 ``...).
    fn type_params(&self) -> Vec<&'a str> {
        self.types
            .iter()
            .flat_map(|t| t.type_params.iter().map(|p| p.name.as_str()))
            .collect()
    }
}

/// A type declaration and its enclosing types, outermost first.
fn type_chain(syntax: &FileSyntax, innermost: TypeDeclId) -> Vec<&TypeDecl> {
    let mut chain = Vec::new();
    let mut next = Some(innermost);
    // Bounded in case a hand-built or damaged tree has a parent cycle.
    while let Some(id) = next.filter(|_| chain.len() <= syntax.types.len()) {
        let Some(t) = syntax.types.get(id.0 as usize) else {
            break;
        };
        chain.push(t);
        next = t.parent;
    }
    chain.reverse();
    chain
}

fn namespace_of(syntax: &FileSyntax, scope: crate::hir::ScopeId) -> Vec<&str> {
    let mut scopes = Vec::new();
    let mut next = Some(scope);
    while let Some(id) = next.filter(|_| scopes.len() <= syntax.scopes.len()) {
        let Some(s) = syntax.scopes.get(id.0 as usize) else {
            break;
        };
        scopes.push(s);
        next = s.parent;
    }
    scopes
        .iter()
        .rev()
        .flat_map(|s| s.name.iter().map(|n| n.as_str()))
        .collect()
}

fn qualified_type_name(namespace: &[&str], types: &[&TypeDecl]) -> String {
    let mut parts: Vec<String> = namespace.iter().map(|s| s.to_string()).collect();
    parts.extend(types.iter().map(|t| type_segment(t)));
    parts.join(".")
}

fn type_segment(t: &TypeDecl) -> String {
    match t.type_params.len() {
        0 => t.name.to_string(),
        n => format!("{}`{n}", t.name),
    }
}

/// What each project suppresses by name rather than by position.
#[derive(Default)]
struct ProjectSuppressions {
    /// Rules suppressed on some part of a type, by documentation-id type name.
    types: FxHashMap<String, Vec<(RuleId, By)>>,
    globals: Vec<GlobalSuppression>,
}

impl ProjectSuppressions {
    fn collect(units: &[SourceUnit<'_>], foreign: bool) -> FxHashMap<u32, ProjectSuppressions> {
        let mut out: FxHashMap<u32, ProjectSuppressions> = FxHashMap::default();
        for unit in units {
            let syntax = unit.syntax;
            for (i, t) in syntax.types.iter().enumerate() {
                let rules: Vec<(RuleId, By)> = t
                    .attrs
                    .iter()
                    .flat_map(|a| suppress_messages(a, foreign))
                    .map(|s| (s.rule, s.by))
                    .collect();
                if rules.is_empty() {
                    continue;
                }
                let chain = type_chain(syntax, TypeDeclId(i as u32));
                let namespace = chain
                    .first()
                    .map(|outer| namespace_of(syntax, outer.scope))
                    .unwrap_or_default();
                let project = out.entry(unit.project).or_default();
                project
                    .types
                    .entry(qualified_type_name(&namespace, &chain))
                    .or_default()
                    .extend(rules);
            }
            let globals = syntax
                .global_attrs
                .iter()
                .flat_map(|a| suppress_messages(a, foreign))
                .filter_map(|s| {
                    Some(GlobalSuppression {
                        rule: s.rule,
                        by: match s.by {
                            By::Own(_) => By::Own(Mechanism::Global),
                            tool => tool,
                        },
                        target: GlobalTarget::parse(s.scope, s.target)?,
                    })
                });
            let globals: Vec<GlobalSuppression> = globals.collect();
            if !globals.is_empty() {
                out.entry(unit.project).or_default().globals.extend(globals);
            }
        }
        out
    }

    fn type_suppresses(&self, type_name: &str, r: &Rule) -> Option<By> {
        self.types
            .get(type_name)?
            .iter()
            .find(|(rule, _)| *rule == r.id)
            .map(|(_, by)| *by)
    }
}

struct GlobalSuppression {
    rule: RuleId,
    by: By,
    target: GlobalTarget,
}

enum GlobalTarget {
    /// No target: the whole project.
    Everywhere,
    /// `Scope = "namespaceanddescendants"`.
    Namespace(String),
    /// `~T:N.Type`: the type, its members and nested types.
    Type(String),
    /// `~M:`, `~P:`, `~F:`, `~E:`.
    Member(DocId),
}

impl GlobalTarget {
    /// Roslyn's reading of `Scope` and `Target`; `None` for combinations that
    /// cannot cover a finding (`namespace` covers only the namespace itself).
    fn parse(scope: Option<&str>, target: Option<&str>) -> Option<GlobalTarget> {
        let scope = scope.map(str::to_ascii_lowercase);
        let Some(target) = target else {
            return matches!(scope.as_deref(), None | Some("module"))
                .then_some(GlobalTarget::Everywhere);
        };
        let target = target.trim().trim_start_matches('~');
        match scope.as_deref() {
            Some("namespaceanddescendants") => {
                let name = target.strip_prefix("N:").unwrap_or(target);
                Some(GlobalTarget::Namespace(name.to_string()))
            }
            Some("type" | "member") => {
                let (kind, rest) = target.split_once(':')?;
                match kind {
                    "T" => Some(GlobalTarget::Type(rest.to_string())),
                    "M" | "P" | "F" | "E" => {
                        DocId::parse(kind.chars().next()?, rest).map(GlobalTarget::Member)
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    fn covers(&self, place: &Place<'_>) -> bool {
        match self {
            GlobalTarget::Everywhere => true,
            GlobalTarget::Namespace(ns) => {
                let here = place.namespace.join(".");
                here == *ns
                    || here
                        .strip_prefix(ns.as_str())
                        .is_some_and(|rest| rest.starts_with('.'))
            }
            GlobalTarget::Type(name) => place.type_names.contains(name),
            GlobalTarget::Member(id) => id.matches(place),
        }
    }
}

/// A parsed member documentation id: `M:N.C.Open(System.String,`0@)`.
struct DocId {
    /// `M`, `P`, `F` or `E`.
    kind: char,
    /// Namespace, type and member segments; the member segment may hold an
    /// explicit interface (`System#IDisposable#Dispose`).
    path: Vec<String>,
    /// `None` when the id has no parameter list.
    params: Option<Vec<DocType>>,
    /// A conversion operator's `~ReturnType`.
    ret: Option<DocType>,
}

impl DocId {
    fn parse(kind: char, text: &str) -> Option<DocId> {
        let mut p = DocParser {
            s: text.as_bytes(),
            i: 0,
        };
        let path = p.path();
        if path.is_empty() {
            return None;
        }
        let params = if p.eat(b'(') {
            let mut list = Vec::new();
            if !p.eat(b')') {
                loop {
                    list.push(p.ty());
                    if p.eat(b')') {
                        break;
                    }
                    if !p.eat(b',') {
                        return None;
                    }
                }
            }
            Some(list)
        } else {
            None
        };
        let ret = p.eat(b'~').then(|| p.ty());
        p.at_end().then_some(DocId {
            kind,
            path,
            params,
            ret,
        })
    }

    fn matches(&self, place: &Place<'_>) -> bool {
        let Some(member) = place.member else {
            return false;
        };
        let Some((last, owner)) = self.path.split_last() else {
            return false;
        };
        let ours = place
            .namespace
            .iter()
            .map(|s| s.to_string())
            .chain(place.types.iter().map(|t| type_segment(t)));
        if !owner.iter().cloned().eq(ours) {
            return false;
        }
        let cx = TypeParams {
            of_types: place.type_params(),
            of_method: member.type_params.iter().map(|p| p.name.as_str()).collect(),
        };
        let as_member = self.kind == member_kind(member)
            && member_name_matches(last, member, &member_segment(member))
            && self.params_match(&member_params(member), &cx)
            && self.ret_matches(member, &cx);
        let as_accessor = place.accessor.is_some_and(|a| {
            self.kind == 'M'
                && member_name_matches(last, member, &accessor_segment(a, member))
                && self.params_match(&accessor_params(a, member), &cx)
        });
        as_member || as_accessor
    }

    fn params_match(
        &self,
        ours: &[(Option<&TypeRef>, ParamModifier)],
        cx: &TypeParams<'_>,
    ) -> bool {
        match &self.params {
            None => ours.is_empty(),
            Some(theirs) => {
                theirs.len() == ours.len()
                    && theirs.iter().zip(ours).all(|(d, (ty, modifier))| {
                        let Some(ty) = ty else { return true };
                        match modifier {
                            ParamModifier::Ref
                            | ParamModifier::Out
                            | ParamModifier::In
                            | ParamModifier::RefReadonly => {
                                matches!(d, DocType::ByRef(inner) if type_matches(ty, inner, cx))
                            }
                            _ => type_matches(ty, d, cx),
                        }
                    })
            }
        }
    }

    fn ret_matches(&self, member: &Member, cx: &TypeParams<'_>) -> bool {
        match (&self.ret, &member.ty) {
            (Some(d), Some(ty)) if member.kind == MemberKind::Conversion => type_matches(ty, d, cx),
            _ => true,
        }
    }
}

fn member_kind(m: &Member) -> char {
    match m.kind {
        MemberKind::Field | MemberKind::Constant | MemberKind::EnumMember => 'F',
        MemberKind::Property | MemberKind::Indexer => 'P',
        MemberKind::Event => 'E',
        MemberKind::Method
        | MemberKind::Constructor
        | MemberKind::StaticConstructor
        | MemberKind::Finalizer
        | MemberKind::Operator
        | MemberKind::Conversion
        | MemberKind::DelegateInvoke
        | MemberKind::LocalFunction => 'M',
    }
}

/// The member's name as a documentation id spells it (`#ctor`, `Item`, ``M``1``).
fn member_segment(m: &Member) -> String {
    let name = match m.kind {
        MemberKind::Constructor => "#ctor",
        MemberKind::StaticConstructor => "#cctor",
        MemberKind::Finalizer => "Finalize",
        MemberKind::Indexer => "Item",
        MemberKind::DelegateInvoke => "Invoke",
        _ => m.name.as_str(),
    };
    match m.type_params.len() {
        0 => name.to_string(),
        n => format!("{name}``{n}"),
    }
}

fn accessor_segment(a: &Accessor, m: &Member) -> String {
    let prefix = match a.kind {
        AccessorKind::Get => "get_",
        AccessorKind::Set | AccessorKind::Init => "set_",
        AccessorKind::Add => "add_",
        AccessorKind::Remove => "remove_",
    };
    format!("{prefix}{}", member_segment(m))
}

/// Compares the last segment of a target with a member name; an explicit
/// interface implementation (`System#IDisposable#Dispose`) matches when the
/// interface as written is a suffix of the target's.
fn member_name_matches(target: &str, m: &Member, name: &str) -> bool {
    let theirs: Vec<&str> = match target.strip_prefix('#') {
        // `#ctor`, `#cctor`.
        Some(_) => vec![target],
        None => split_outside_braces(target, b'#')
            .into_iter()
            .map(|part| part.split_once('{').map_or(part, |(name, _)| name))
            .collect(),
    };
    let ours: Vec<&str> = match &m.explicit_interface {
        Some(TypeRef::Path { segments, .. }) => segments
            .iter()
            .map(|s| s.name.as_str())
            .chain([name])
            .collect(),
        _ => vec![name],
    };
    if ours.len() == 1 {
        theirs == ours
    } else {
        theirs.ends_with(&ours)
    }
}

fn member_params(m: &Member) -> Vec<(Option<&TypeRef>, ParamModifier)> {
    m.params
        .iter()
        .map(|p| (p.ty.as_ref(), p.modifier))
        .collect()
}

/// Accessors take the indexer's parameters, and setters and event accessors the value.
fn accessor_params<'m>(a: &Accessor, m: &'m Member) -> Vec<(Option<&'m TypeRef>, ParamModifier)> {
    let mut params = member_params(m);
    if a.kind != AccessorKind::Get {
        params.push((m.ty.as_ref(), ParamModifier::None));
    }
    params
}

/// A type in a documentation id.
#[derive(Debug, PartialEq)]
enum DocType {
    /// `System.Collections.Generic.List{System.String}`: segments with type arguments.
    Named(Vec<(String, Vec<DocType>)>),
    /// `` `0 ``: a type parameter of an enclosing type.
    TypeParam(usize),
    /// ``` ``0 ```: a type parameter of the method.
    MethodTypeParam(usize),
    Array(Box<DocType>, usize),
    Pointer(Box<DocType>),
    /// `T@`: a `ref`, `out` or `in` parameter.
    ByRef(Box<DocType>),
    /// Something this parser does not read (function pointers, modifiers): matches any type.
    Unknown,
}

struct DocParser<'a> {
    s: &'a [u8],
    i: usize,
}

impl DocParser<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn eat(&mut self, b: u8) -> bool {
        let hit = self.peek() == Some(b);
        if hit {
            self.i += 1;
        }
        hit
    }

    fn at_end(&self) -> bool {
        self.i >= self.s.len()
    }

    /// A run of bytes up to a delimiter; `#` belongs to explicit interface names.
    fn ident(&mut self) -> String {
        let start = self.i;
        while self.peek().is_some_and(|b| !b"`.,{}()[]*@~".contains(&b)) {
            self.i += 1;
        }
        String::from_utf8_lossy(&self.s[start..self.i]).into_owned()
    }

    /// The dotted name before a parameter list; braces (in explicit interface
    /// names) may hold dots.
    fn path(&mut self) -> Vec<String> {
        let start = self.i;
        let mut depth = 0usize;
        while let Some(b) = self.peek() {
            match b {
                b'{' => depth += 1,
                b'}' => depth = depth.saturating_sub(1),
                b'(' | b'~' if depth == 0 => break,
                _ => {}
            }
            self.i += 1;
        }
        let text = String::from_utf8_lossy(&self.s[start..self.i]).into_owned();
        if text.is_empty() {
            return Vec::new();
        }
        split_outside_braces(&text, b'.')
            .into_iter()
            .map(str::to_string)
            .collect()
    }

    fn number(&mut self) -> Option<usize> {
        let start = self.i;
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.i += 1;
        }
        std::str::from_utf8(&self.s[start..self.i])
            .ok()?
            .parse()
            .ok()
    }

    fn ty(&mut self) -> DocType {
        // `=FUNC:` function pointers.
        if self.peek() == Some(b'=') {
            return self.skip_unknown();
        }
        let mut ty = if self.eat(b'`') {
            let method = self.eat(b'`');
            match (self.number(), method) {
                (Some(n), true) => DocType::MethodTypeParam(n),
                (Some(n), false) => DocType::TypeParam(n),
                (None, _) => return DocType::Unknown,
            }
        } else {
            let mut segments = Vec::new();
            loop {
                let name = self.ident();
                if name.is_empty() {
                    return self.skip_unknown();
                }
                let mut args = Vec::new();
                if self.eat(b'{') {
                    loop {
                        args.push(self.ty());
                        if self.eat(b'}') {
                            break;
                        }
                        if !self.eat(b',') {
                            return self.skip_unknown();
                        }
                    }
                }
                segments.push((name, args));
                if !self.eat(b'.') {
                    break;
                }
            }
            DocType::Named(segments)
        };
        loop {
            if self.eat(b'[') {
                let mut rank = 1;
                while let Some(b) = self.peek().filter(|&b| b != b']') {
                    rank += usize::from(b == b',');
                    self.i += 1;
                }
                if !self.eat(b']') {
                    return DocType::Unknown;
                }
                ty = DocType::Array(Box::new(ty), rank);
            } else if self.eat(b'*') {
                ty = DocType::Pointer(Box::new(ty));
            } else if self.eat(b'@') {
                ty = DocType::ByRef(Box::new(ty));
            } else {
                return ty;
            }
        }
    }

    /// Skips to the end of the current parameter, for types this parser does not read.
    fn skip_unknown(&mut self) -> DocType {
        let mut depth = 0usize;
        while let Some(b) = self.peek() {
            match b {
                b'{' | b'(' | b'[' => depth += 1,
                b'}' | b')' | b']' if depth > 0 => depth -= 1,
                b',' | b')' | b'}' if depth == 0 => break,
                _ => {}
            }
            self.i += 1;
        }
        DocType::Unknown
    }
}

fn split_outside_braces(s: &str, sep: u8) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    for (i, b) in s.bytes().enumerate() {
        match b {
            b'{' => depth += 1,
            b'}' => depth = depth.saturating_sub(1),
            _ if b == sep && depth == 0 => {
                parts.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&s[start..]);
    parts
}

/// Type parameter names in scope of a member, for `` `n `` and ``` ``n ```.
struct TypeParams<'a> {
    of_types: Vec<&'a str>,
    of_method: Vec<&'a str>,
}

/// Whether a type as written can be the type a documentation id names. Names
/// written without their namespace match by suffix (`Stream` ~ `System.IO.Stream`).
fn type_matches(written: &TypeRef, doc: &DocType, cx: &TypeParams<'_>) -> bool {
    if *doc == DocType::Unknown {
        return true;
    }
    match written {
        TypeRef::Predefined(p) => doc_is(
            doc,
            p.clr_name().unwrap_or(match p {
                crate::hir::Predefined::Void => "System.Void",
                _ => "System.Object",
            }),
        ),
        TypeRef::Path { segments, .. } => {
            if let [only] = &segments[..]
                && only.args.is_empty()
            {
                let name = only.name.as_str();
                if let Some(i) = cx.of_method.iter().position(|p| *p == name) {
                    return *doc == DocType::MethodTypeParam(i);
                }
                if let Some(i) = cx.of_types.iter().rposition(|p| *p == name) {
                    return *doc == DocType::TypeParam(i);
                }
            }
            let DocType::Named(theirs) = doc else {
                return false;
            };
            segments.len() <= theirs.len()
                && segments
                    .iter()
                    .rev()
                    .zip(theirs.iter().rev())
                    .all(|(ours, (name, args))| {
                        ours.name == name.as_str()
                            && ours.args.len() == args.len()
                            && ours
                                .args
                                .iter()
                                .zip(args)
                                .all(|(o, t)| type_matches(o, t, cx))
                    })
        }
        TypeRef::Array(elem, rank) => {
            matches!(doc, DocType::Array(d, r) if *r == usize::from(*rank) && type_matches(elem, d, cx))
        }
        TypeRef::Nullable(inner) => match doc {
            DocType::Named(segs) if named_is(segs, "System.Nullable", 1) => segs
                .last()
                .and_then(|(_, args)| args.first())
                .is_some_and(|arg| type_matches(inner, arg, cx)),
            // A nullable reference type is the type itself.
            _ => type_matches(inner, doc, cx),
        },
        TypeRef::Tuple(elems) => match doc {
            DocType::Named(segs) if named_is(segs, "System.ValueTuple", elems.len()) => {
                segs.last().is_some_and(|(_, args)| {
                    elems
                        .iter()
                        .zip(args)
                        .all(|((e, _), a)| type_matches(e, a, cx))
                })
            }
            _ => false,
        },
        TypeRef::Pointer(inner) => matches!(doc, DocType::Pointer(d) if type_matches(inner, d, cx)),
        TypeRef::Ref(inner) => matches!(doc, DocType::ByRef(d) if type_matches(inner, d, cx)),
        TypeRef::FunctionPointer | TypeRef::Var | TypeRef::Error => true,
    }
}

/// Whether `doc` is the non-generic type `full_name`.
fn doc_is(doc: &DocType, full_name: &str) -> bool {
    matches!(doc, DocType::Named(segs) if named_is(segs, full_name, 0))
}

fn named_is(segs: &[(String, Vec<DocType>)], full_name: &str, last_arity: usize) -> bool {
    let names = full_name.split('.');
    segs.len() == names.clone().count()
        && segs.iter().map(|(n, _)| n.as_str()).eq(names)
        && segs.iter().rev().skip(1).all(|(_, args)| args.is_empty())
        && segs
            .last()
            .is_some_and(|(_, args)| args.len() == last_arity)
}

#[cfg(test)]
mod tests;
