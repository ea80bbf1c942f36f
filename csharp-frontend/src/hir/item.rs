//! Declarations of one file: namespaces with their usings, types, members,
//! parameters and attributes. Type names are still syntax ([`TypeRef`]); the
//! index resolves them.

use bitflags::bitflags;
use smol_str::SmolStr;

use super::TextRange;
use super::body::{BodyId, ExprId};

pub type Name = SmolStr;

/// A type as written.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TypeRef {
    /// `A.B<C>.D`: segments with their type arguments; `global::` or an
    /// `alias::` qualifier in `qualifier`.
    Path {
        qualifier: Option<Name>,
        segments: Box<[PathSegment]>,
    },
    Predefined(Predefined),
    /// `T[]`, `T[,]`: element and rank.
    Array(Box<TypeRef>, u8),
    /// `T?`.
    Nullable(Box<TypeRef>),
    /// `(int a, string b)`.
    Tuple(Box<[(TypeRef, Option<Name>)]>),
    Pointer(Box<TypeRef>),
    /// `delegate*<...>`.
    FunctionPointer,
    /// `ref T`, `ref readonly T`, `scoped T`.
    Ref(Box<TypeRef>),
    /// `var` (implicitly typed local).
    Var,
    /// Missing or unparseable.
    Error,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PathSegment {
    pub name: Name,
    pub args: Box<[TypeRef]>,
}

/// C# keywords that name types.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Predefined {
    Bool,
    Byte,
    SByte,
    Char,
    Decimal,
    Double,
    Float,
    Int,
    UInt,
    Long,
    ULong,
    Short,
    UShort,
    NInt,
    NUInt,
    Object,
    String,
    Void,
    Dynamic,
}

impl Predefined {
    pub fn from_keyword(kw: &str) -> Option<Predefined> {
        Some(match kw {
            "bool" => Predefined::Bool,
            "byte" => Predefined::Byte,
            "sbyte" => Predefined::SByte,
            "char" => Predefined::Char,
            "decimal" => Predefined::Decimal,
            "double" => Predefined::Double,
            "float" => Predefined::Float,
            "int" => Predefined::Int,
            "uint" => Predefined::UInt,
            "long" => Predefined::Long,
            "ulong" => Predefined::ULong,
            "short" => Predefined::Short,
            "ushort" => Predefined::UShort,
            "nint" => Predefined::NInt,
            "nuint" => Predefined::NUInt,
            "object" => Predefined::Object,
            "string" => Predefined::String,
            "void" => Predefined::Void,
            "dynamic" => Predefined::Dynamic,
            _ => return None,
        })
    }
    /// The .NET type it stands for (`System.Int32`), `None` for `void` and `dynamic`.
    pub fn clr_name(self) -> Option<&'static str> {
        Some(match self {
            Predefined::Bool => "System.Boolean",
            Predefined::Byte => "System.Byte",
            Predefined::SByte => "System.SByte",
            Predefined::Char => "System.Char",
            Predefined::Decimal => "System.Decimal",
            Predefined::Double => "System.Double",
            Predefined::Float => "System.Single",
            Predefined::Int => "System.Int32",
            Predefined::UInt => "System.UInt32",
            Predefined::Long => "System.Int64",
            Predefined::ULong => "System.UInt64",
            Predefined::Short => "System.Int16",
            Predefined::UShort => "System.UInt16",
            Predefined::NInt => "System.IntPtr",
            Predefined::NUInt => "System.UIntPtr",
            Predefined::Object => "System.Object",
            Predefined::String => "System.String",
            Predefined::Void | Predefined::Dynamic => return None,
        })
    }
}

bitflags! {
    #[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
    pub struct Modifiers: u32 {
        const PUBLIC = 1 << 0;
        const PRIVATE = 1 << 1;
        const PROTECTED = 1 << 2;
        const INTERNAL = 1 << 3;
        const STATIC = 1 << 4;
        const READONLY = 1 << 5;
        const ABSTRACT = 1 << 6;
        const VIRTUAL = 1 << 7;
        const OVERRIDE = 1 << 8;
        const SEALED = 1 << 9;
        const ASYNC = 1 << 10;
        const PARTIAL = 1 << 11;
        const EXTERN = 1 << 12;
        const UNSAFE = 1 << 13;
        const CONST = 1 << 14;
        const VOLATILE = 1 << 15;
        const NEW = 1 << 16;
        const REQUIRED = 1 << 17;
        const FILE = 1 << 18;
        const REF = 1 << 19;
        const FIXED = 1 << 20;
        const SCOPED = 1 << 21;
    }
}

impl Modifiers {
    pub fn from_keyword(kw: &str) -> Modifiers {
        match kw {
            "public" => Modifiers::PUBLIC,
            "private" => Modifiers::PRIVATE,
            "protected" => Modifiers::PROTECTED,
            "internal" => Modifiers::INTERNAL,
            "static" => Modifiers::STATIC,
            "readonly" => Modifiers::READONLY,
            "abstract" => Modifiers::ABSTRACT,
            "virtual" => Modifiers::VIRTUAL,
            "override" => Modifiers::OVERRIDE,
            "sealed" => Modifiers::SEALED,
            "async" => Modifiers::ASYNC,
            "partial" => Modifiers::PARTIAL,
            "extern" => Modifiers::EXTERN,
            "unsafe" => Modifiers::UNSAFE,
            "const" => Modifiers::CONST,
            "volatile" => Modifiers::VOLATILE,
            "new" => Modifiers::NEW,
            "required" => Modifiers::REQUIRED,
            "file" => Modifiers::FILE,
            "ref" => Modifiers::REF,
            "fixed" => Modifiers::FIXED,
            "scoped" => Modifiers::SCOPED,
            _ => Modifiers::empty(),
        }
    }
}

/// An attribute as written: `[return: Calls("this._s", "Dispose")]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Attribute {
    /// The name as written (`Owning`, `RlcSharp.Annotations.OwningAttribute`).
    pub name: Name,
    /// `return`, `assembly`, `field`, `param`, ... when given.
    pub target: Option<Name>,
    pub args: Vec<AttributeArg>,
    pub range: TextRange,
}

impl Attribute {
    /// The last segment of the name without the `Attribute` suffix.
    pub fn simple_name(&self) -> &str {
        let last = self.name.rsplit(['.', ':']).next().unwrap_or(&self.name);
        last.strip_suffix("Attribute").unwrap_or(last)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct AttributeArg {
    /// `Name = value` or `name: value`.
    pub name: Option<Name>,
    pub value: AttrValue,
    pub range: TextRange,
}

/// An attribute argument's value, as far as it is a constant.
#[derive(Clone, Debug, PartialEq)]
pub enum AttrValue {
    Str(String),
    Bool(bool),
    Int(i64),
    Null,
    /// `nameof(x)`: the name.
    NameOf(Name),
    /// `typeof(T)`.
    TypeOf(TypeRef),
    /// `new[] { "a", "b" }` and other arrays of constants.
    Array(Vec<AttrValue>),
    /// Anything else, as written.
    Other(String),
}

/// A constant default value of a parameter.
#[derive(Clone, Debug, PartialEq)]
pub enum ConstValue {
    Null,
    Bool(bool),
    Int(i64),
    Str(String),
    /// `default`, an enum member, a float...
    Other,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ParamModifier {
    None,
    Ref,
    Out,
    In,
    /// `ref readonly`.
    RefReadonly,
    Params,
    /// `this` (extension method receiver).
    This,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: Name,
    /// `None` for implicitly typed lambda parameters.
    pub ty: Option<TypeRef>,
    pub modifier: ParamModifier,
    pub default: Option<ConstValue>,
    pub attrs: Vec<Attribute>,
    pub range: TextRange,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TypeKind {
    Class,
    Struct,
    Interface,
    Enum,
    Record,
    RecordStruct,
    Delegate,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Variance {
    None,
    In,
    Out,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TypeParam {
    pub name: Name,
    pub variance: Variance,
    pub attrs: Vec<Attribute>,
}

/// `where T : IDisposable, new()`.
#[derive(Clone, Debug, PartialEq)]
pub struct Constraint {
    pub param: Name,
    /// Only the type constraints (`class`, `struct`, `new()` are dropped).
    pub bounds: Vec<TypeRef>,
}

/// Index of a type declaration in its file's [`super::FileSyntax::types`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TypeDeclId(pub u32);

/// Index of a namespace scope in its file's [`super::FileSyntax::scopes`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ScopeId(pub u32);

#[derive(Clone, Debug, PartialEq)]
pub struct TypeDecl {
    pub kind: TypeKind,
    pub name: Name,
    pub type_params: Vec<TypeParam>,
    pub constraints: Vec<Constraint>,
    /// The namespace scope the declaration is in (for nested types: the
    /// scope of the outermost type).
    pub scope: ScopeId,
    /// The enclosing type, for nested types.
    pub parent: Option<TypeDeclId>,
    pub modifiers: Modifiers,
    pub attrs: Vec<Attribute>,
    /// Base class and interfaces as written.
    pub bases: Vec<TypeRef>,
    /// The parameters of a primary constructor (`class C(Stream s)`, records).
    pub primary_ctor: Option<Vec<Param>>,
    /// The body holding the primary constructor's base call arguments
    /// (`class C(Stream s) : Base(s)`), if any.
    pub primary_base_args: Option<BodyId>,
    pub members: Vec<Member>,
    /// For delegates: the `Invoke` signature is the single member.
    pub range: TextRange,
    pub name_range: TextRange,
    /// The declaration's header or member list contains a syntax error.
    pub has_error: bool,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MemberKind {
    Field,
    /// A `const` field.
    Constant,
    Property,
    Indexer,
    /// `event EventHandler E;` (field-like) or with accessors.
    Event,
    Method,
    Constructor,
    StaticConstructor,
    Finalizer,
    Operator,
    /// `implicit operator T(..)` / `explicit operator T(..)`; `ty` is the target type.
    Conversion,
    EnumMember,
    /// The `Invoke` signature of a delegate type.
    DelegateInvoke,
    /// A local function: the index makes one a member of the enclosing type
    /// (not found by name lookup in the type) so calls to it bind as method calls.
    LocalFunction,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum AccessorKind {
    Get,
    Set,
    Init,
    Add,
    Remove,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Accessor {
    pub kind: AccessorKind,
    pub modifiers: Modifiers,
    pub attrs: Vec<Attribute>,
    /// `None` for `get;` (auto-property) and for abstract or interface accessors.
    pub body: Option<BodyId>,
    pub range: TextRange,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Member {
    pub kind: MemberKind,
    /// `.ctor`-like members carry the type's name; operators carry `op_Addition`-like
    /// names (`op_Implicit`, `op_Explicit` for conversions); indexers `this`.
    pub name: Name,
    pub type_params: Vec<TypeParam>,
    pub constraints: Vec<Constraint>,
    /// Field, property, indexer or event type; method return type; conversion target.
    pub ty: Option<TypeRef>,
    pub params: Vec<Param>,
    pub modifiers: Modifiers,
    /// Attributes on the member (without `return:` ones).
    pub attrs: Vec<Attribute>,
    /// `[return: ...]` attributes.
    pub return_attrs: Vec<Attribute>,
    /// `IDisposable.Dispose` in `void IDisposable.Dispose()`.
    pub explicit_interface: Option<TypeRef>,
    /// Method, constructor, operator body (block or `=>`); for properties with
    /// `=> expr`, the getter body.
    pub body: Option<BodyId>,
    /// Field, property, event or enum member initializer.
    pub initializer: Option<BodyId>,
    /// Property, indexer and event accessors (empty when expression-bodied).
    pub accessors: Vec<Accessor>,
    pub range: TextRange,
    pub name_range: TextRange,
    pub has_error: bool,
}

impl Member {
    /// A member of `kind` with nothing else: no name, type, parameters,
    /// modifiers, attributes or body.
    pub fn empty(kind: MemberKind) -> Member {
        Member {
            kind,
            name: Name::default(),
            type_params: Vec::new(),
            constraints: Vec::new(),
            ty: None,
            params: Vec::new(),
            modifiers: Modifiers::empty(),
            attrs: Vec::new(),
            return_attrs: Vec::new(),
            explicit_interface: None,
            body: None,
            initializer: None,
            accessors: Vec::new(),
            range: TextRange::default(),
            name_range: TextRange::default(),
            has_error: false,
        }
    }

    /// An auto-property: a property whose accessors all lack bodies, in a non-interface,
    /// non-abstract declaration.
    pub fn is_auto_property(&self) -> bool {
        self.kind == MemberKind::Property
            && self.body.is_none()
            && !self.accessors.is_empty()
            && self.accessors.iter().all(|a| a.body.is_none())
            && !self
                .modifiers
                .intersects(Modifiers::ABSTRACT | Modifiers::EXTERN)
    }
}

/// `using X;`, `using static X;`, `using A = X;`, each possibly `global`.
#[derive(Clone, Debug, PartialEq)]
pub struct UsingDirective {
    pub kind: UsingKind,
    pub global: bool,
    pub range: TextRange,
}

#[derive(Clone, Debug, PartialEq)]
pub enum UsingKind {
    Namespace(Vec<Name>),
    Static(TypeRef),
    /// The target may be a namespace or a type; the index decides.
    Alias {
        alias: Name,
        target: TypeRef,
    },
}

/// The compilation unit or a namespace declaration, with the usings inside it.
#[derive(Clone, Debug, PartialEq)]
pub struct NamespaceScope {
    pub parent: Option<ScopeId>,
    /// Segments this declaration adds (`namespace A.B` adds `["A", "B"]`).
    pub name: Vec<Name>,
    pub usings: Vec<UsingDirective>,
    /// `extern alias` names (kept so that the index can say it skipped them).
    pub extern_aliases: Vec<Name>,
    pub range: TextRange,
}

/// A pointer to an expression in a body, for per-expression results.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ExprRef {
    pub body: BodyId,
    pub expr: ExprId,
}
