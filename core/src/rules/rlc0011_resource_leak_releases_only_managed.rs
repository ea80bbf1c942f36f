//! RLC0011 resource-leak-releases-only-managed: what RLC0001–RLC0005 report
//! (a value lost on some path, an owning field no must-call method disposes,
//! an overwritten value, elements nobody disposes), for a type whose disposal,
//! as a written spec states (the library model's `releases_only_managed`, or
//! the config's), releases only managed state: buffers rented from a pool, a
//! wait handle created only on request. The garbage collector reclaims what is
//! lost, so the finding is kept, at a lower level, with what is at stake.

use crate::program::{Harmless, Program, Provenance, TypeId};
use crate::rules::{Keyed, RuleId, SpecFact};

/// The finding another rule made, told as the harmless loss it is when a
/// written spec says the lost type's disposal releases only managed state
/// (`harmless` is the must-call type's); any other finding as it was.
pub(super) fn demote_if_managed(
    program: &Program,
    (mut d, resource): Keyed,
    harmless: Option<&(Harmless, TypeId, Provenance)>,
) -> Keyed {
    let Some((Harmless::ReleasesOnlyManaged { what }, ty, provenance)) = harmless else {
        return (d, resource);
    };
    let name = program.type_name(Some(*ty)).to_string();
    let short = program.get_ty(*ty).map_or(name.as_str(), |t| t.short_name());
    d.rule = RuleId::ResourceLeakReleasesOnlyManaged;
    d.severity = d.rule.default_severity();
    d.notes.push(format!(
        "losing a `{short}` is harmless as the code stands: the garbage collector reclaims what its disposal would release"
    ));
    d.facts.push(SpecFact::new(
        format!("the disposal of `{name}` releases only managed state: {what}"),
        provenance.clone(),
    ));
    (d, resource)
}
