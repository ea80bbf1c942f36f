//! RLC0011 resource-leak-releases-only-managed: what RLC0001–RLC0005 report
//! (a value lost on some path, an owning field no must-call method disposes,
//! an overwritten value, elements nobody disposes), for a type whose disposal,
//! as a written spec states (the library model's `releases_only_managed`, or
//! the config's), releases only managed state: buffers rented from a pool, a
//! wait handle created only on request. The garbage collector reclaims what is
//! lost, so the finding is kept, at a lower level, with what is at stake.

use crate::program::{Program, Provenance, TypeId};
use crate::rules::{Keyed, RuleId, SpecFact};

/// The finding another rule made, told as the harmless loss it is: `ty` is
/// the type the spec is about, `what` what its disposal releases.
pub(super) fn demote(
    program: &Program,
    (mut d, resource): Keyed,
    ty: TypeId,
    what: &str,
    provenance: &Provenance,
) -> Keyed {
    let name = program.type_name(Some(ty)).to_string();
    let short = name.rsplit('.').next().unwrap_or(&name).to_string();
    d.rule = RuleId::ResourceLeakReleasesOnlyManaged;
    d.severity = d.rule.default_severity();
    d.facts.push(SpecFact::new(
        format!("the disposal of `{name}` releases only managed state: {what}"),
        provenance.clone(),
    ));
    d.notes.push(format!(
        "losing a `{short}` is harmless as the code stands: the garbage collector reclaims what its disposal would release"
    ));
    (d, resource)
}
