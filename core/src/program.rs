//! The program as the analyses see it: every type, method and field with its
//! resource specification (the "spec table"). The front end fills it from source
//! attributes, the user's config, the library model and defaults; inference adds
//! to it. Each spec fact remembers where it came from, so a finding can say why.

use serde::Serialize;

use crate::span::Span;

pub use crate::provenance::{InferRule, Provenance};

macro_rules! id_type {
    ($(#[$m:meta])* $name:ident) => {
        $(#[$m])*
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
        pub struct $name(pub u32);
        impl $name {
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
    };
}

id_type!(
    /// A type (class, struct, interface, ...) of the program or of the library model.
    TypeId
);
id_type!(
    /// A method, constructor, accessor, operator or local function.
    MethodId
);
id_type!(
    /// A field, or the backing storage of an auto-property.
    FieldId
);

/// A must-call obligation: calling any one of `methods` discharges it.
///
/// C# types have one disposal protocol; `Dispose`, `DisposeAsync` and the
/// library's `Close` are alternatives of it, so the set is disjunctive.
/// An empty set is "no obligation" (`[MustCall]` with no argument).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct MustCall {
    pub methods: Vec<String>,
}

impl MustCall {
    pub fn none() -> MustCall {
        MustCall::default()
    }
    pub fn of<S: Into<String>>(methods: impl IntoIterator<Item = S>) -> MustCall {
        let mut m: Vec<String> = methods.into_iter().map(Into::into).collect();
        m.sort();
        m.dedup();
        MustCall { methods: m }
    }
    pub fn is_empty(&self) -> bool {
        self.methods.is_empty()
    }
    pub fn is_satisfied_by(&self, method: &str) -> bool {
        self.methods.iter().any(|m| m == method)
    }
    /// `Dispose()` or `Dispose()`/`DisposeAsync()` for messages.
    pub fn display(&self) -> String {
        self.methods
            .iter()
            .map(|m| format!("{m}()"))
            .collect::<Vec<_>>()
            .join(" or ")
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum TypeKind {
    Class,
    Struct,
    Interface,
    Enum,
    Delegate,
    Record,
    RecordStruct,
}

/// Why losing an undisposed value of a disposable type does no harm today.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Harmless {
    /// Inference found that its disposal releases nothing (rule
    /// `no-obligation`); nobody has confirmed it (RLC0010).
    ReleasesNothing,
    /// A written spec (the library model, the config) states that its disposal
    /// releases only managed state, and what (RLC0011): pooled buffers, a wait
    /// handle created only on request, registrations of its own.
    ReleasesOnlyManaged { what: String },
}

/// Where a type is declared.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum DeclaredIn {
    /// The analysed source.
    Source,
    /// The embedded library model or the user's extra specs.
    Library,
}

#[derive(Clone, Debug, Serialize)]
pub struct TypeDef {
    /// Fully qualified display name, with type parameters: `System.IO.Stream`, `App.Pool<T>`.
    pub name: String,
    pub kind: TypeKind,
    pub declared_in: DeclaredIn,
    /// Direct base class and interfaces.
    pub supertypes: Vec<TypeId>,
    /// `[MustCall(...)]` on the type itself or the library model's `must_call`;
    /// `None` means "inherit from the supertypes".
    pub must_call: Option<(MustCall, Provenance)>,
    /// Further methods that discharge the obligation (the library's `Close`).
    pub also_disposes: Vec<String>,
    pub fields: Vec<FieldId>,
    pub methods: Vec<MethodId>,
    pub is_abstract: bool,
    pub is_sealed: bool,
    pub is_static: bool,
    /// Declares a finalizer (`~T()`); a hint that it wraps an unmanaged resource.
    pub has_finalizer: bool,
    /// A handle to an unmanaged resource (`IntPtr`, `SafeHandle`, ...): a field
    /// of this type means the class owns something to release.
    pub is_native_handle: bool,
    /// Why losing an undisposed value of it does no harm today, and who said
    /// so. Unlike a written `[MustCall]` with no method, this keeps the
    /// obligation: its leaks are reported apart (RLC0010, RLC0011), never hidden.
    pub harmless: Option<(Harmless, Provenance)>,
    /// The declaration's name (first part, for partial types).
    pub span: Option<Span>,
    /// Every span of the declaration (all parts of a partial type).
    pub decl_spans: Vec<Span>,
}

impl TypeDef {
    /// A type with no supertypes, members or specs yet.
    pub fn new(name: impl Into<String>, kind: TypeKind, declared_in: DeclaredIn) -> TypeDef {
        TypeDef {
            name: name.into(),
            kind,
            declared_in,
            supertypes: Vec::new(),
            must_call: None,
            also_disposes: Vec::new(),
            fields: Vec::new(),
            methods: Vec::new(),
            is_abstract: false,
            is_sealed: false,
            is_static: false,
            has_finalizer: false,
            is_native_handle: false,
            harmless: None,
            span: None,
            decl_spans: Vec::new(),
        }
    }
    /// The name without namespace or enclosing types: `FileStream`, `Pool<T>`.
    pub fn short_name(&self) -> &str {
        short_type_name(&self.name)
    }
}

/// `System.IO.FileStream` -> `FileStream`, `A.Outer<T>+Inner` -> `Inner`,
/// `App.Pool<System.IO.Stream>` -> `Pool<System.IO.Stream>`.
pub fn short_type_name(name: &str) -> &str {
    // Only separators before the first `<` count: type arguments keep their namespaces.
    let head = name.find('<').unwrap_or(name.len());
    let start = name[..head].rfind(['.', '+']).map_or(0, |i| i + 1);
    &name[start..]
}

/// Ownership of a parameter, return, field or property.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub enum Ownership {
    /// The paper's default for this position.
    #[default]
    Default,
    Owning(Provenance),
    NotOwning(Provenance),
}

impl Ownership {
    pub fn is_owning(&self, default: bool) -> bool {
        match self {
            Ownership::Default => default,
            Ownership::Owning(_) => true,
            Ownership::NotOwning(_) => false,
        }
    }
    pub fn provenance(&self) -> Option<&Provenance> {
        match self {
            Ownership::Default => None,
            Ownership::Owning(p) | Ownership::NotOwning(p) => Some(p),
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum ParamMode {
    Value,
    Ref,
    Out,
    In,
    Params,
}

impl ParamMode {
    /// Whether the callee may assign the caller's variable (`out`, `ref`).
    pub fn is_written(self) -> bool {
        matches!(self, ParamMode::Out | ParamMode::Ref)
    }
}

/// A constant known at compile time, as far as the analyses care.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Const {
    Null,
    Bool(bool),
    Int(i64),
    Str(String),
    /// Some other constant (a float, an enum member, ...).
    Other,
}

/// "The ownership transfer or resource alias of this call holds only when the
/// argument for parameter `param` is `holds_when`" (`leaveOpen`, `disposeHandler`,
/// `ownsHandle`, ...). `default` is the parameter's value when omitted.
///
/// The front end builds it from `[OwnsIf(b)]` on a `bool` parameter of the library
/// model and stores it in [`MethodDef::ownership_condition`]; it applies to every
/// `[Owning]` and `[MustCallAlias]` parameter of that method.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OwnershipCondition {
    pub param: u32,
    pub holds_when: bool,
    pub default: Option<bool>,
    /// The condition is on the object's own resource too: when it fails the
    /// object owns nothing. So for a constructor that takes nothing over
    /// (`SafeHandle(nint h, [OwnsIf(true)] bool ownsHandle)`), and for the
    /// program's own wrappers whose disposal releases nothing unless they own
    /// (`if (!_ownsInner) return; _inner.Dispose();`).
    pub own_resource: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct ParamDef {
    pub name: String,
    pub ty: ValueTy,
    pub mode: ParamMode,
    pub ownership: Ownership,
    /// `[MustCallAlias]`: the result wraps this argument.
    pub must_call_alias: Option<Provenance>,
    /// Adding this argument to the receiver collection (`List<T>.Add(item)`).
    pub collection_element: bool,
    /// The library model's `[StoredAs("Item1")]`: the result keeps the argument
    /// as its member of this name (`Tuple.Create`, `KeyValuePair`), without
    /// owning it. Source constructors get the same fact from their bodies
    /// (`crate::summarize`).
    pub stored_as: Option<String>,
    /// An `out` parameter of the try pattern (`bool TryTake(out T item)`):
    /// when the method returns `false` it holds no value.
    pub unset_when_false: bool,
    /// The library model's `[Exchanged]` (`Interlocked.Exchange(ref location,
    /// value)`): the result is what the argument held, which then holds `value`
    /// (the other argument; with none, `Volatile.Read(ref location)`, it keeps
    /// its value).
    pub exchanged: bool,
    /// The library model's `[Incremented]` (`Interlocked.Increment(ref
    /// location)`): the call adds one to the argument and returns the sum.
    pub incremented: bool,
    /// `[DoesNotReturnIf(value)]` on a `bool` parameter (`Debug.Assert`): the
    /// call does not return when the argument has this value.
    pub does_not_return_if: Option<bool>,
    /// The method opens this parameter again: it calls a `[Reopens]` method on
    /// it (`cnn.Open()`), itself or through another method
    /// ([`crate::reopens::derive`]).
    pub reopened: bool,
    /// The method keeps the argument where the program holds it for its
    /// lifetime: a static field, or what one holds
    /// ([`crate::kept_statically::derive`]).
    pub kept_statically: bool,
    pub default: Option<Const>,
    pub span: Option<Span>,
}

impl ParamDef {
    /// A by-value parameter with the paper's defaults (not owning).
    pub fn new(name: impl Into<String>, ty: ValueTy) -> ParamDef {
        ParamDef {
            name: name.into(),
            ty,
            mode: ParamMode::Value,
            ownership: Ownership::Default,
            must_call_alias: None,
            collection_element: false,
            stored_as: None,
            unset_when_false: false,
            exchanged: false,
            incremented: false,
            reopened: false,
            kept_statically: false,
            does_not_return_if: None,
            default: None,
            span: None,
        }
    }
}

/// Which value a `[Calls]` / `[CreatesMustCallFor]` spec is about.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Target {
    /// The receiver itself.
    This,
    /// `this.f` for a field of the declaring class.
    Field(FieldId),
    /// The parameter at this index.
    Param(u32),
}

/// `[Calls(target, methods)]`: on normal return the method guarantees that one of
/// `methods` has been called on `target`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CallsSpec {
    pub target: Target,
    pub methods: Vec<String>,
    pub provenance: Provenance,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum MethodKind {
    Ordinary,
    Constructor,
    StaticConstructor,
    Finalizer,
    Getter,
    Setter,
    /// `init` accessor.
    Init,
    EventAccessor,
    Operator,
    LocalFunction,
    Lambda,
}

#[derive(Clone, Debug, Serialize)]
pub struct MethodDef {
    pub name: String,
    pub owner: TypeId,
    pub kind: MethodKind,
    pub params: Vec<ParamDef>,
    pub ret: ValueTy,
    /// Ownership of the returned value (default: owning for methods, not owning for
    /// property getters: a property exposes state the object already owns).
    pub ret_ownership: Ownership,
    /// `[return: MustCall(...)]`: overrides the obligation of the returned type.
    pub ret_must_call: Option<(MustCall, Provenance)>,
    /// `[MustCallAlias]` on the return (or constructor): the result is a resource
    /// alias of the parameter marked `[MustCallAlias]` (or of the receiver).
    pub ret_must_call_alias: Option<Provenance>,
    /// `[MustCallAlias]` on the receiver: the result wraps `this`.
    pub this_must_call_alias: Option<Provenance>,
    pub calls: Vec<CallsSpec>,
    pub creates_must_call_for: Vec<(Target, Provenance)>,
    /// `[OwnsIf(..)]` on one of the parameters: the `[Owning]` / `[MustCallAlias]`
    /// parameters of this method transfer ownership only when it holds.
    pub ownership_condition: Option<OwnershipCondition>,
    /// Methods this one overrides or implements.
    pub overrides: Vec<MethodId>,
    /// The property this accessor belongs to, by name (for messages).
    pub property: Option<String>,
    pub is_static: bool,
    pub is_abstract: bool,
    pub is_virtual: bool,
    pub is_async: bool,
    /// Declared `public` (or an interface member): preferred as a class's disposal method.
    pub is_public: bool,
    /// Never returns normally: `[DoesNotReturn]`, or a body that only throws
    /// ([`crate::never_returns`]).
    pub never_returns: bool,
    /// Cannot throw (the model's `[DoesNotThrow]`): its calls have no
    /// exceptional edge.
    pub never_throws: bool,
    /// Throws when a check fails, by design (the model's `[ThrowsOnFailure]`,
    /// `EnsureSuccessStatusCode`): the code expects the exceptions of its calls.
    pub throws_on_failure: bool,
    /// Declared `private` (explicitly or by default): no code outside its
    /// class calls it.
    pub is_private: bool,
    /// A private helper that only its class's constructors (and other such
    /// helpers) call, on `this` (`ctor() { Init(); }`): it runs as part of
    /// construction ([`crate::construction::derive_construction_helpers`]).
    pub construction_helper: bool,
    /// Runs once per object, after its constructor and before anything else
    /// touches it: an implementation of a framework callback the model marks
    /// `[LifecycleStart]` (`IHostedService.StartAsync`), or a private helper
    /// that only such methods and construction call on `this`
    /// ([`crate::construction::derive_construction_helpers`]). The owning
    /// fields it assigns hold nothing yet, unless construction assigned them
    /// ([`FieldDef::set_in_construction`]).
    pub lifecycle_start: bool,
    /// Acquires its object's resource again after a close (the model's
    /// `[Reopens]`, `DbConnection.Open`).
    pub reopens: bool,
    /// A constructor whose object wraps a resource it does not own (`Borrowed(nint
    /// h) : base(h, ownsHandle: false)`): `new` gives the caller nothing to
    /// dispose ([`crate::ownership::derive_ownership_flags`]).
    pub makes_borrowed: bool,
    /// Its calls were replaced by what it does (a private setter that only
    /// stores its value, [`crate::setters`]): its body is not checked alone.
    pub inlined: bool,
    pub has_body: bool,
    pub span: Option<Span>,
}

impl MethodDef {
    /// A method with the paper's defaults everywhere and no parameters.
    pub fn new(name: impl Into<String>, owner: TypeId, kind: MethodKind) -> MethodDef {
        MethodDef {
            name: name.into(),
            owner,
            kind,
            params: Vec::new(),
            ret: ValueTy::UNKNOWN,
            ret_ownership: Ownership::Default,
            ret_must_call: None,
            ret_must_call_alias: None,
            this_must_call_alias: None,
            calls: Vec::new(),
            creates_must_call_for: Vec::new(),
            ownership_condition: None,
            overrides: Vec::new(),
            property: None,
            is_static: false,
            is_abstract: false,
            is_virtual: false,
            is_async: false,
            is_public: true,
            never_returns: false,
            never_throws: false,
            throws_on_failure: false,
            is_private: false,
            construction_helper: false,
            lifecycle_start: false,
            reopens: false,
            makes_borrowed: false,
            inlined: false,
            has_body: false,
            span: None,
        }
    }
    pub fn is_constructor(&self) -> bool {
        self.kind == MethodKind::Constructor
    }
    /// Whether it runs only while its object is constructed (a constructor or
    /// a construction helper): the owning fields it assigns hold nothing yet.
    pub fn in_construction(&self) -> bool {
        self.is_constructor() || self.construction_helper
    }
    /// Whether the returned value is owned by the caller.
    pub fn returns_owning(&self) -> bool {
        let default = !matches!(self.kind, MethodKind::Getter);
        self.ret_ownership.is_owning(default)
    }
    /// The index of the `[MustCallAlias]` parameter, if any.
    pub fn must_call_alias_param(&self) -> Option<u32> {
        self.params
            .iter()
            .position(|p| p.must_call_alias.is_some())
            .map(|i| i as u32)
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct FieldDef {
    pub name: String,
    pub owner: TypeId,
    pub ty: ValueTy,
    pub ownership: Ownership,
    pub is_readonly: bool,
    pub is_static: bool,
    /// The storage of an auto-property (`{ get; }` is readonly, `{ get; set; }` not).
    pub is_auto_property: bool,
    /// A `bool` field that keeps a constructor's ownership condition
    /// (`this.leaveOpen = leaveOpen`): the object owns what that constructor's
    /// `[Owning]`/`[MustCallAlias]` parameters gave it only while the field is
    /// this value, and its disposal methods are read under that assumption.
    pub ownership_flag: Option<bool>,
    /// The `bool` fields of its object, each with a value under which this
    /// one holds nothing the object owes (`_owns = arg == null; _f = arg ??
    /// new F();` gives (`_owns`, `false`)), see [`crate::flag_guards::derive`].
    pub owes_nothing_when: Vec<(FieldId, bool)>,
    /// A `bool` property whose value, when it equals this, says its object
    /// holds no resource (the model's `[ReleasedIf(false)] bool IsAllocated`).
    pub released_if: Option<bool>,
    /// Fields of the same object that are not `null` whenever this one holds
    /// a value (filled together with it, emptied only after it is released),
    /// so a `null` test of one says this one is empty too
    /// ([`crate::field_guards::derive`]).
    pub guards: Vec<FieldId>,
    /// A constructor of its class (a field initializer included) or a
    /// construction helper stores into it: a [`MethodDef::lifecycle_start`]
    /// method may find it holding a value.
    pub set_in_construction: bool,
    /// The one method that writes this field of its object after
    /// construction, and what the field holds when that method is first
    /// called on an object ([`crate::first_call::derive`]).
    pub first_call: Option<(MethodId, FirstCall)>,
    /// A constructor parameter the object keeps, with no declaration of its
    /// own (its span is the parameter's): messages name it as such.
    pub captured_param: bool,
    pub span: Option<Span>,
}

/// What a field holds when the one method that writes it after construction
/// is first called on an object.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub enum FirstCall {
    /// Its type's default (`null`, `false`, `0`): construction stores nothing else.
    Default,
    /// A new object every constructor stored into it.
    NotNull,
}

impl FieldDef {
    /// A mutable instance field with the paper's default (not owning).
    pub fn new(name: impl Into<String>, owner: TypeId, ty: ValueTy) -> FieldDef {
        FieldDef {
            name: name.into(),
            owner,
            ty,
            ownership: Ownership::Default,
            is_readonly: false,
            is_static: false,
            is_auto_property: false,
            ownership_flag: None,
            owes_nothing_when: Vec::new(),
            released_if: None,
            guards: Vec::new(),
            set_in_construction: false,
            first_call: None,
            captured_param: false,
            span: None,
        }
    }
    /// What messages call it: "field", or "captured parameter".
    pub fn kind_name(&self) -> &'static str {
        if self.captured_param {
            "captured parameter"
        } else {
            "field"
        }
    }
    /// Fields are not owning unless annotated; static fields never are.
    pub fn is_owning(&self) -> bool {
        !self.is_static && self.ownership.is_owning(false)
    }
}

/// The static type of a value as far as obligations go.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct ValueTy {
    /// The class or interface (for a type parameter: its constraint).
    pub ty: Option<TypeId>,
    /// The element type, for arrays and known collections and enumerables.
    pub element: Option<TypeId>,
}

impl ValueTy {
    pub const UNKNOWN: ValueTy = ValueTy {
        ty: None,
        element: None,
    };
    pub fn of(ty: TypeId) -> ValueTy {
        ValueTy {
            ty: Some(ty),
            element: None,
        }
    }
}

/// The spec table.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Program {
    pub types: Vec<TypeDef>,
    pub methods: Vec<MethodDef>,
    pub fields: Vec<FieldDef>,
    /// `System.IDisposable` and `System.IAsyncDisposable`, when known.
    pub well_known: WellKnown,
    pub conventions: Conventions,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct WellKnown {
    pub disposable: Option<TypeId>,
    pub async_disposable: Option<TypeId>,
    /// The type of `true` and `false`.
    pub boolean: Option<TypeId>,
    /// The root of the class hierarchy (`object`).
    pub object: Option<TypeId>,
    /// The exception of a broken precondition on an argument
    /// (`ArgumentException` and its subclasses): the caller's bug.
    pub argument_exception: Option<TypeId>,
}

/// What the source language calls the things the analyses must recognise by
/// name; the front end fills it from its vocabulary.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Conventions {
    /// The conventional disposal methods, most preferred first: the method a
    /// message names, the methods assumed for a value of unknown type, and the
    /// methods a class's disposal consists of.
    pub disposal_methods: Vec<String>,
    /// The must-call method of the well-known disposable interface (`Dispose`).
    pub dispose: String,
    /// The must-call method of the well-known async disposable interface
    /// (`DisposeAsync`).
    pub dispose_async: String,
    /// The parameter name of the dispose pattern's flag (`Dispose(bool
    /// disposing)`), recognised when its type is unknown.
    pub dispose_flag: String,
}

impl Conventions {
    pub fn is_disposal_method(&self, name: &str) -> bool {
        self.disposal_methods.iter().any(|m| m == name)
    }
    /// The rank of a disposal method in the order of preference (unknown
    /// names last).
    pub fn disposal_rank(&self, name: &str) -> usize {
        self.disposal_methods
            .iter()
            .position(|m| m == name)
            .unwrap_or(self.disposal_methods.len())
    }
}

impl Program {
    /// The type, or `None` for an id that is not in the table (a front-end bug).
    pub fn get_ty(&self, id: TypeId) -> Option<&TypeDef> {
        self.types.get(id.index())
    }
    /// The overrides and implementations of each method the program has.
    /// The methods some method of the program overrides or implements: a call
    /// of one may run another body.
    pub fn overridden_methods(&self) -> rustc_hash::FxHashSet<MethodId> {
        self.methods
            .iter()
            .flat_map(|m| m.overrides.iter().copied())
            .collect()
    }
    pub fn implementations(&self) -> rustc_hash::FxHashMap<MethodId, Vec<MethodId>> {
        let mut implementations: rustc_hash::FxHashMap<MethodId, Vec<MethodId>> =
            rustc_hash::FxHashMap::default();
        for (i, md) in self.methods.iter().enumerate() {
            for o in &md.overrides {
                implementations
                    .entry(*o)
                    .or_default()
                    .push(MethodId(i as u32));
            }
        }
        implementations
    }

    pub fn get_method(&self, id: MethodId) -> Option<&MethodDef> {
        self.methods.get(id.index())
    }
    pub fn get_field(&self, id: FieldId) -> Option<&FieldDef> {
        self.fields.get(id.index())
    }
    /// The type's short name, or `?` for an unknown id.
    pub fn type_name(&self, id: Option<TypeId>) -> &str {
        id.and_then(|t| self.get_ty(t))
            .map_or("?", TypeDef::short_name)
    }
    pub fn ty(&self, id: TypeId) -> &TypeDef {
        &self.types[id.index()]
    }
    pub fn method(&self, id: MethodId) -> &MethodDef {
        &self.methods[id.index()]
    }
    pub fn field(&self, id: FieldId) -> &FieldDef {
        &self.fields[id.index()]
    }
    /// Whether another method of the method's type has its name, so a call
    /// of that name may bind to either.
    pub fn has_overloads(&self, m: MethodId) -> bool {
        let md = self.method(m);
        self.get_ty(md.owner).is_some_and(|t| {
            t.methods
                .iter()
                .any(|&o| o != m && self.method(o).name == md.name)
        })
    }
    /// The supertypes of `t`, direct or not.
    pub fn supertypes_of(&self, t: TypeId) -> Vec<TypeId> {
        let direct = self.get_ty(t).map_or(&[][..], |d| &d.supertypes);
        transitively(direct, |s| {
            self.get_ty(s).map_or(&[][..], |d| &d.supertypes)
        })
    }
    /// The methods `m` overrides or implements, directly or not.
    pub fn overridden(&self, m: MethodId) -> Vec<MethodId> {
        transitively(&self.method(m).overrides, |o| &self.method(o).overrides)
    }
    /// The method whose `[return: NotOwning]` `md` took, when `md` does not
    /// state one of its own: the front end copies a not-owning return down to
    /// the overrides and implementations silent about theirs. Names the one
    /// that states it (none of its own bases has the same spec).
    pub fn not_owning_return_from(&self, md: &MethodDef) -> Option<&MethodDef> {
        if !matches!(md.ret_ownership, Ownership::NotOwning(_)) {
            return None;
        }
        let same = |b: &MethodDef| b.ret_ownership == md.ret_ownership;
        transitively(&md.overrides, |o| &self.method(o).overrides)
            .into_iter()
            .map(|o| self.method(o))
            .find(|b| same(b) && !b.overrides.iter().any(|o| same(self.method(*o))))
    }
    /// The `[ReleasedIf]` value of the property getter `m` reads: declared on
    /// a property of that name of its class or of one it derives from (an
    /// `override bool IsInvalid` of a `SafeHandle`).
    pub fn released_if_of_getter(&self, m: MethodId) -> Option<bool> {
        let md = self.get_method(m)?;
        let name = md.property.as_deref()?;
        std::iter::once(md.owner)
            .chain(self.ancestors(md.owner))
            .find_map(|t| {
                let f = self
                    .get_ty(t)?
                    .fields
                    .iter()
                    .find(|f| self.field(**f).name == name)?;
                self.field(*f).released_if
            })
    }
    /// The types `ty` derives from or implements, directly or not.
    pub fn ancestors(&self, ty: TypeId) -> Vec<TypeId> {
        transitively(&self.ty(ty).supertypes, |t| &self.ty(t).supertypes)
    }
    /// Whether `sub` is `sup` or derives from or implements it.
    pub fn is_subtype(&self, sub: TypeId, sup: TypeId) -> bool {
        let mut stack = vec![sub];
        let mut seen = Vec::new();
        while let Some(x) = stack.pop() {
            if x == sup {
                return true;
            }
            if seen.contains(&x) || seen.len() > 256 {
                continue;
            }
            seen.push(x);
            if let Some(d) = self.get_ty(x) {
                stack.extend(d.supertypes.iter().copied());
            }
        }
        false
    }
    pub fn add_type(&mut self, def: TypeDef) -> TypeId {
        self.types.push(def);
        TypeId(self.types.len() as u32 - 1)
    }
    pub fn add_method(&mut self, def: MethodDef) -> MethodId {
        let owner = def.owner;
        // Local functions and lambdas belong to a body, not to the type's members.
        let member = !matches!(def.kind, MethodKind::LocalFunction | MethodKind::Lambda);
        self.methods.push(def);
        let id = MethodId(self.methods.len() as u32 - 1);
        if member {
            self.types[owner.index()].methods.push(id);
        }
        id
    }
    pub fn add_field(&mut self, def: FieldDef) -> FieldId {
        let owner = def.owner;
        self.fields.push(def);
        let id = FieldId(self.fields.len() as u32 - 1);
        self.types[owner.index()].fields.push(id);
        id
    }
}

/// Everything reachable from `start` through `next`, each once.
fn transitively<'p, T: Copy + PartialEq + 'p>(start: &[T], next: impl Fn(T) -> &'p [T]) -> Vec<T> {
    let mut out: Vec<T> = Vec::new();
    let mut stack = start.to_vec();
    while let Some(x) = stack.pop() {
        if !out.contains(&x) {
            out.push(x);
            stack.extend(next(x).iter().copied());
        }
    }
    out
}
