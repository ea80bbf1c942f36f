//! A compact, S-expression-like rendering of a [`FileSyntax`], for tests and
//! for debugging (`rlc-sharp` can print it). Bindings print as `name#id`,
//! bodies as `body#id`, types as C# syntax.

use std::fmt::Write;

use super::*;

/// Renders a file's HIR; `text` is the file's text (for error snippets).
pub fn dump(file: &FileSyntax, text: &str) -> String {
    let mut p = Printer {
        out: String::new(),
        indent: 0,
        file,
    };
    p.file(text);
    p.out
}

struct Printer<'f> {
    out: String,
    indent: usize,
    file: &'f FileSyntax,
}

pub fn type_ref(t: &TypeRef) -> String {
    let mut s = String::new();
    write_type(&mut s, t);
    s
}

fn write_type(out: &mut String, t: &TypeRef) {
    match t {
        TypeRef::Path {
            qualifier,
            segments,
        } => {
            if let Some(q) = qualifier {
                let _ = write!(out, "{q}::");
            }
            for (i, seg) in segments.iter().enumerate() {
                if i > 0 {
                    out.push('.');
                }
                out.push_str(&seg.name);
                write_type_args(out, &seg.args);
            }
        }
        TypeRef::Predefined(p) => out.push_str(predefined(*p)),
        TypeRef::Array(elem, rank) => {
            write_type(out, elem);
            out.push('[');
            for _ in 1..*rank {
                out.push(',');
            }
            out.push(']');
        }
        TypeRef::Nullable(inner) => {
            write_type(out, inner);
            out.push('?');
        }
        TypeRef::Tuple(elems) => {
            out.push('(');
            for (i, (t, name)) in elems.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_type(out, t);
                if let Some(n) = name {
                    let _ = write!(out, " {n}");
                }
            }
            out.push(')');
        }
        TypeRef::Pointer(inner) => {
            write_type(out, inner);
            out.push('*');
        }
        TypeRef::FunctionPointer => out.push_str("delegate*"),
        TypeRef::Ref(inner) => {
            out.push_str("ref ");
            write_type(out, inner);
        }
        TypeRef::Var => out.push_str("var"),
        TypeRef::Error => out.push_str("?error"),
    }
}

fn write_type_args(out: &mut String, args: &[TypeRef]) {
    if args.is_empty() {
        return;
    }
    out.push('<');
    for (i, a) in args.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        if *a != TypeRef::Error {
            write_type(out, a);
        }
    }
    out.push('>');
}

fn predefined(p: Predefined) -> &'static str {
    match p {
        Predefined::Bool => "bool",
        Predefined::Byte => "byte",
        Predefined::SByte => "sbyte",
        Predefined::Char => "char",
        Predefined::Decimal => "decimal",
        Predefined::Double => "double",
        Predefined::Float => "float",
        Predefined::Int => "int",
        Predefined::UInt => "uint",
        Predefined::Long => "long",
        Predefined::ULong => "ulong",
        Predefined::Short => "short",
        Predefined::UShort => "ushort",
        Predefined::NInt => "nint",
        Predefined::NUInt => "nuint",
        Predefined::Object => "object",
        Predefined::String => "string",
        Predefined::Void => "void",
        Predefined::Dynamic => "dynamic",
    }
}

fn binary_op(op: BinaryOp) -> &'static str {
    match op {
        BinaryOp::Add => "+",
        BinaryOp::Sub => "-",
        BinaryOp::Mul => "*",
        BinaryOp::Div => "/",
        BinaryOp::Rem => "%",
        BinaryOp::Shl => "<<",
        BinaryOp::Shr => ">>",
        BinaryOp::UShr => ">>>",
        BinaryOp::BitAnd => "&",
        BinaryOp::BitOr => "|",
        BinaryOp::BitXor => "^",
        BinaryOp::And => "&&",
        BinaryOp::Or => "||",
        BinaryOp::Eq => "==",
        BinaryOp::NotEq => "!=",
        BinaryOp::Lt => "<",
        BinaryOp::Le => "<=",
        BinaryOp::Gt => ">",
        BinaryOp::Ge => ">=",
        BinaryOp::Coalesce => "??",
    }
}

fn unary_op(op: UnaryOp) -> &'static str {
    match op {
        UnaryOp::Not => "!",
        UnaryOp::Neg => "-",
        UnaryOp::Plus => "+",
        UnaryOp::BitNot => "~",
        UnaryOp::PreInc => "++pre",
        UnaryOp::PreDec => "--pre",
        UnaryOp::PostInc => "post++",
        UnaryOp::PostDec => "post--",
        UnaryOp::Forgive => "forgive",
        UnaryOp::AddressOf => "&",
        UnaryOp::Deref => "*",
        UnaryOp::FromEnd => "^",
    }
}

fn modifiers(m: Modifiers) -> String {
    let names: Vec<String> = m
        .iter_names()
        .map(|(n, _)| n.to_ascii_lowercase())
        .collect();
    names.join(" ")
}

fn param_modifier(m: ParamModifier) -> &'static str {
    match m {
        ParamModifier::None => "",
        ParamModifier::Ref => "ref ",
        ParamModifier::Out => "out ",
        ParamModifier::In => "in ",
        ParamModifier::RefReadonly => "ref readonly ",
        ParamModifier::Params => "params ",
        ParamModifier::This => "this ",
    }
}

fn attr_value(out: &mut String, v: &AttrValue) {
    match v {
        AttrValue::Str(s) => {
            let _ = write!(out, "{s:?}");
        }
        AttrValue::Bool(b) => {
            let _ = write!(out, "{b}");
        }
        AttrValue::Int(i) => {
            let _ = write!(out, "{i}");
        }
        AttrValue::Null => out.push_str("null"),
        AttrValue::NameOf(n) => {
            let _ = write!(out, "nameof({n})");
        }
        AttrValue::TypeOf(t) => {
            out.push_str("typeof(");
            write_type(out, t);
            out.push(')');
        }
        AttrValue::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                attr_value(out, item);
            }
            out.push(']');
        }
        AttrValue::Other(s) => {
            let _ = write!(out, "`{s}`");
        }
    }
}

fn attribute(out: &mut String, a: &Attribute) {
    out.push('[');
    if let Some(t) = &a.target {
        let _ = write!(out, "{t}: ");
    }
    out.push_str(&a.name);
    if !a.args.is_empty() {
        out.push('(');
        for (i, arg) in a.args.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            if let Some(n) = &arg.name {
                let _ = write!(out, "{n}=");
            }
            attr_value(out, &arg.value);
        }
        out.push(')');
    }
    out.push(']');
}

fn params(out: &mut String, ps: &[Param]) {
    out.push('(');
    for (i, p) in ps.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        for a in &p.attrs {
            attribute(out, a);
            out.push(' ');
        }
        out.push_str(param_modifier(p.modifier));
        if let Some(t) = &p.ty {
            write_type(out, t);
            out.push(' ');
        }
        out.push_str(&p.name);
        match &p.default {
            Some(ConstValue::Null) => out.push_str(" = null"),
            Some(ConstValue::Bool(b)) => {
                let _ = write!(out, " = {b}");
            }
            Some(ConstValue::Int(i)) => {
                let _ = write!(out, " = {i}");
            }
            Some(ConstValue::Str(s)) => {
                let _ = write!(out, " = {s:?}");
            }
            Some(ConstValue::Other) => out.push_str(" = …"),
            None => {}
        }
    }
    out.push(')');
}

fn type_params(out: &mut String, tps: &[TypeParam]) {
    if tps.is_empty() {
        return;
    }
    out.push('<');
    for (i, tp) in tps.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        match tp.variance {
            Variance::In => out.push_str("in "),
            Variance::Out => out.push_str("out "),
            Variance::None => {}
        }
        out.push_str(&tp.name);
    }
    out.push('>');
}

fn constraints(out: &mut String, cs: &[Constraint]) {
    for c in cs {
        let _ = write!(out, " where {}:", c.param);
        for (i, b) in c.bounds.iter().enumerate() {
            out.push_str(if i > 0 { ", " } else { " " });
            write_type(out, b);
        }
    }
}

impl Printer<'_> {
    fn line(&mut self) {
        self.out.push('\n');
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
    }

    fn file(&mut self, text: &str) {
        let file = self.file;
        for (i, s) in file.scopes.iter().enumerate() {
            let _ = write!(self.out, "scope#{i}");
            if !s.name.is_empty() {
                let _ = write!(self.out, " {}", s.name.join("."));
            }
            if let Some(p) = s.parent {
                let _ = write!(self.out, " in scope#{}", p.0);
            }
            for a in &s.extern_aliases {
                let _ = write!(self.out, " (extern alias {a})");
            }
            for u in &s.usings {
                self.out.push_str(" (");
                if u.global {
                    self.out.push_str("global ");
                }
                match &u.kind {
                    UsingKind::Namespace(ns) => {
                        let _ = write!(self.out, "using {}", ns.join("."));
                    }
                    UsingKind::Static(t) => {
                        let _ = write!(self.out, "using static {}", type_ref(t));
                    }
                    UsingKind::Alias { alias, target } => {
                        let _ = write!(self.out, "using {alias} = {}", type_ref(target));
                    }
                }
                self.out.push(')');
            }
            self.out.push('\n');
        }
        if !file.global_attrs.is_empty() {
            self.out.push_str("global");
            for a in &file.global_attrs {
                self.out.push(' ');
                attribute(&mut self.out, a);
            }
            self.out.push('\n');
        }
        for (i, t) in file.types.iter().enumerate() {
            self.type_decl(i, t);
        }
        if let Some(b) = file.top_level {
            let _ = writeln!(self.out, "top-level body#{}", b.0);
        }
        for (i, b) in file.bodies.iter().enumerate() {
            self.body(i, b);
        }
        for e in &file.syntax_errors {
            let snippet = text
                .get(e.range.start as usize..e.range.end as usize)
                .unwrap_or("");
            let snippet: String = snippet.chars().take(30).collect();
            let _ = writeln!(
                self.out,
                "error {}..{} {} {snippet:?}",
                e.range.start, e.range.end, e.message
            );
        }
        for r in &file.repairs {
            let snippet = text
                .get(r.range.start as usize..r.range.end as usize)
                .unwrap_or("");
            let _ = writeln!(
                self.out,
                "repair {}..{} {} {snippet:?}",
                r.range.start, r.range.end, r.kind
            );
        }
        for p in &file.pragmas {
            let verb = if p.disable { "disable" } else { "restore" };
            let _ = writeln!(self.out, "pragma @{} {verb} {}", p.offset, p.ids.join(","));
        }
        if file.inactive_lines > 0 {
            let _ = writeln!(self.out, "inactive-lines {}", file.inactive_lines);
        }
    }

    fn type_decl(&mut self, i: usize, t: &TypeDecl) {
        let kind = match t.kind {
            TypeKind::Class => "class",
            TypeKind::Struct => "struct",
            TypeKind::Interface => "interface",
            TypeKind::Enum => "enum",
            TypeKind::Record => "record",
            TypeKind::RecordStruct => "record-struct",
            TypeKind::Delegate => "delegate",
        };
        let o = &mut self.out;
        let _ = write!(o, "type#{i} {kind} {}", t.name);
        type_params(o, &t.type_params);
        if let Some(pc) = &t.primary_ctor {
            params(o, pc);
        }
        let _ = write!(o, " scope#{}", t.scope.0);
        if let Some(p) = t.parent {
            let _ = write!(o, " in type#{}", p.0);
        }
        if !t.modifiers.is_empty() {
            let _ = write!(o, " [{}]", modifiers(t.modifiers));
        }
        for a in &t.attrs {
            o.push(' ');
            attribute(o, a);
        }
        if !t.bases.is_empty() {
            let bases: Vec<String> = t.bases.iter().map(type_ref).collect();
            let _ = write!(o, " : {}", bases.join(", "));
        }
        if let Some(b) = t.primary_base_args {
            let _ = write!(o, " base-args=body#{}", b.0);
        }
        constraints(o, &t.constraints);
        if t.has_error {
            o.push_str(" has-error");
        }
        o.push('\n');
        for m in &t.members {
            self.member(m);
        }
    }

    fn member(&mut self, m: &Member) {
        let kind = match m.kind {
            MemberKind::Field => "field",
            MemberKind::Constant => "const",
            MemberKind::Property => "property",
            MemberKind::Indexer => "indexer",
            MemberKind::Event => "event",
            MemberKind::Method => "method",
            MemberKind::Constructor => "ctor",
            MemberKind::StaticConstructor => "static-ctor",
            MemberKind::Finalizer => "finalizer",
            MemberKind::Operator => "operator",
            MemberKind::Conversion => "conversion",
            MemberKind::EnumMember => "enum-member",
            MemberKind::DelegateInvoke => "invoke",
            MemberKind::LocalFunction => "local-fn",
        };
        let o = &mut self.out;
        let _ = write!(o, "  {kind} ");
        if let Some(ei) = &m.explicit_interface {
            let _ = write!(o, "{}.", type_ref(ei));
        }
        o.push_str(&m.name);
        type_params(o, &m.type_params);
        if matches!(
            m.kind,
            MemberKind::Method
                | MemberKind::Constructor
                | MemberKind::StaticConstructor
                | MemberKind::Finalizer
                | MemberKind::Operator
                | MemberKind::Conversion
                | MemberKind::DelegateInvoke
                | MemberKind::LocalFunction
                | MemberKind::Indexer
        ) {
            params(o, &m.params);
        }
        if let Some(t) = &m.ty {
            let _ = write!(o, ": {}", type_ref(t));
        }
        constraints(o, &m.constraints);
        if !m.modifiers.is_empty() {
            let _ = write!(o, " [{}]", modifiers(m.modifiers));
        }
        for a in &m.attrs {
            o.push(' ');
            attribute(o, a);
        }
        for a in &m.return_attrs {
            o.push(' ');
            attribute(o, a);
        }
        if let Some(b) = m.body {
            let _ = write!(o, " body#{}", b.0);
        }
        if let Some(b) = m.initializer {
            let _ = write!(o, " init=body#{}", b.0);
        }
        if !m.accessors.is_empty() {
            o.push_str(" {");
            for a in &m.accessors {
                let kind = match a.kind {
                    AccessorKind::Get => "get",
                    AccessorKind::Set => "set",
                    AccessorKind::Init => "init",
                    AccessorKind::Add => "add",
                    AccessorKind::Remove => "remove",
                };
                o.push(' ');
                if !a.modifiers.is_empty() {
                    let _ = write!(o, "{} ", modifiers(a.modifiers));
                }
                for attr in &a.attrs {
                    attribute(o, attr);
                    o.push(' ');
                }
                o.push_str(kind);
                if let Some(b) = a.body {
                    let _ = write!(o, "=body#{}", b.0);
                }
            }
            o.push_str(" }");
        }
        if m.has_error {
            o.push_str(" has-error");
        }
        o.push('\n');
    }

    fn body(&mut self, i: usize, b: &Body) {
        let _ = write!(self.out, "body#{i}");
        if b.is_async {
            self.out.push_str(" async");
        }
        if b.is_iterator {
            self.out.push_str(" iterator");
        }
        if let Some(skip) = b.skip {
            let _ = write!(self.out, " skip={skip:?}");
        }
        if !b.params.is_empty() {
            let ps: Vec<String> = b.params.iter().map(|p| self.binding_name(b, *p)).collect();
            let _ = write!(self.out, " params=({})", ps.join(" "));
        }
        self.indent = 1;
        if let Some(ci) = &b.ctor_init {
            self.line();
            let kind = match ci.kind {
                CtorInitKind::Base => "base",
                CtorInitKind::This => "this",
            };
            let _ = write!(self.out, "(: {kind}");
            self.args(b, &ci.args);
            self.out.push(')');
        }
        match &b.root {
            Some(BodyRoot::Block(s)) => self.stmt(b, *s),
            Some(BodyRoot::Expr(e)) => {
                self.line();
                self.expr(b, *e);
            }
            Some(BodyRoot::None) | None => {}
        }
        if !b.bindings.is_empty() {
            self.line();
            self.out.push_str("(bindings");
            for (i, bind) in b.bindings.iter().enumerate() {
                let kind = match bind.kind {
                    BindingKind::Param(n) => format!("param{n}"),
                    BindingKind::Local => "local".into(),
                    BindingKind::Pattern => "pattern".into(),
                    BindingKind::Out => "out".into(),
                    BindingKind::Foreach => "foreach".into(),
                    BindingKind::Catch => "catch".into(),
                    BindingKind::FunctionParam => "fn-param".into(),
                    BindingKind::LocalFunction => "local-fn".into(),
                    BindingKind::Range => "range".into(),
                };
                let _ = write!(self.out, " {}#{i}={kind}", bind.name);
                if let Some(t) = &bind.ty {
                    let _ = write!(self.out, ":{}", type_ref(t));
                }
            }
            self.out.push(')');
        }
        self.indent = 0;
        self.out.push('\n');
    }

    fn binding_name(&self, b: &Body, id: BindingId) -> String {
        match b.bindings.get(id.index()) {
            Some(bind) => format!("{}#{}", bind.name, id.0),
            None => format!("?#{}", id.0),
        }
    }

    fn binding(&mut self, b: &Body, id: BindingId) {
        let name = self.binding_name(b, id);
        self.out.push_str(&name);
    }

    fn opt_binding(&mut self, b: &Body, id: Option<BindingId>) {
        match id {
            Some(id) => self.binding(b, id),
            None => self.out.push('_'),
        }
    }

    fn stmts(&mut self, b: &Body, ids: &[StmtId]) {
        self.indent += 1;
        for s in ids {
            self.stmt(b, *s);
        }
        self.indent -= 1;
    }

    fn local_decls(&mut self, b: &Body, decls: &[LocalDecl]) {
        for d in decls {
            self.out.push(' ');
            self.binding(b, d.binding);
            if let Some(t) = b
                .bindings
                .get(d.binding.index())
                .and_then(|x| x.ty.as_ref())
            {
                let _ = write!(self.out, ":{}", type_ref(t));
            }
            if let Some(init) = d.init {
                self.out.push_str(" = ");
                self.expr(b, init);
            }
        }
    }

    fn stmt(&mut self, b: &Body, id: StmtId) {
        self.line();
        let Some(s) = b.stmts.get(id.index()) else {
            self.out.push_str("(?)");
            return;
        };
        match s {
            Stmt::Missing => self.out.push_str("(?)"),
            Stmt::Broken(named) => {
                self.out.push_str("(broken");
                for &id in named.iter() {
                    self.out.push(' ');
                    self.binding(b, id);
                }
                self.out.push(')');
            }
            Stmt::Empty => self.out.push_str("(empty)"),
            Stmt::Block(ids) => {
                self.out.push_str("(block");
                self.stmts(b, ids);
                self.out.push(')');
            }
            Stmt::Expr(e) => {
                self.out.push_str("(expr ");
                self.expr(b, *e);
                self.out.push(')');
            }
            Stmt::Local {
                decls,
                using,
                is_const,
            } => {
                self.out.push_str("(local");
                match using {
                    UsingMode::None => {}
                    UsingMode::Using => self.out.push_str(" using"),
                    UsingMode::AwaitUsing => self.out.push_str(" await-using"),
                }
                if *is_const {
                    self.out.push_str(" const");
                }
                self.local_decls(b, decls);
                self.out.push(')');
            }
            Stmt::If { cond, then, else_ } => {
                self.out.push_str("(if ");
                self.expr(b, *cond);
                self.indent += 1;
                self.stmt(b, *then);
                if let Some(e) = else_ {
                    self.stmt(b, *e);
                }
                self.indent -= 1;
                self.out.push(')');
            }
            Stmt::While { cond, body } => {
                self.out.push_str("(while ");
                self.expr(b, *cond);
                self.stmts(b, &[*body]);
                self.out.push(')');
            }
            Stmt::Do { body, cond } => {
                self.out.push_str("(do ");
                self.expr(b, *cond);
                self.stmts(b, &[*body]);
                self.out.push(')');
            }
            Stmt::For {
                init,
                cond,
                update,
                body,
            } => {
                self.out.push_str("(for (");
                self.stmts(b, init);
                self.out.push_str(") ");
                match cond {
                    Some(c) => self.expr(b, *c),
                    None => self.out.push('_'),
                }
                self.out.push_str(" (");
                self.exprs(b, update);
                self.out.push(')');
                self.stmts(b, &[*body]);
                self.out.push(')');
            }
            Stmt::Foreach {
                target,
                collection,
                body,
                is_await,
            } => {
                self.out.push_str(if *is_await {
                    "(await-foreach "
                } else {
                    "(foreach "
                });
                match target {
                    ForeachTarget::Binding(id) => self.binding(b, *id),
                    ForeachTarget::Deconstruct(e) => self.expr(b, *e),
                }
                self.out.push_str(" in ");
                self.expr(b, *collection);
                self.stmts(b, &[*body]);
                self.out.push(')');
            }
            Stmt::Using {
                resource,
                body,
                is_await,
            } => {
                self.out
                    .push_str(if *is_await { "(await-using" } else { "(using" });
                match resource {
                    UsingResource::Decls(decls) => self.local_decls(b, decls),
                    UsingResource::Expr(e) => {
                        self.out.push(' ');
                        self.expr(b, *e);
                    }
                }
                self.stmts(b, &[*body]);
                self.out.push(')');
            }
            Stmt::Lock { expr, body } => {
                self.out.push_str("(lock ");
                self.expr(b, *expr);
                self.stmts(b, &[*body]);
                self.out.push(')');
            }
            Stmt::Fixed { decls, body } => {
                self.out.push_str("(fixed");
                self.local_decls(b, decls);
                self.stmts(b, &[*body]);
                self.out.push(')');
            }
            Stmt::Try {
                body,
                catches,
                finally,
            } => {
                self.out.push_str("(try");
                self.stmts(b, &[*body]);
                self.indent += 1;
                for c in catches.iter() {
                    self.line();
                    self.out.push_str("(catch");
                    if let Some(t) = &c.ty {
                        let _ = write!(self.out, " {}", type_ref(t));
                    }
                    if let Some(id) = c.binding {
                        self.out.push(' ');
                        self.binding(b, id);
                    }
                    if let Some(f) = c.filter {
                        self.out.push_str(" when ");
                        self.expr(b, f);
                    }
                    self.stmts(b, &[c.body]);
                    self.out.push(')');
                }
                if let Some(f) = finally {
                    self.line();
                    self.out.push_str("(finally");
                    self.stmts(b, &[*f]);
                    self.out.push(')');
                }
                self.indent -= 1;
                self.out.push(')');
            }
            Stmt::Switch {
                scrutinee,
                sections,
            } => {
                self.out.push_str("(switch ");
                self.expr(b, *scrutinee);
                self.indent += 1;
                for sec in sections.iter() {
                    self.line();
                    self.out.push('(');
                    for (i, l) in sec.labels.iter().enumerate() {
                        if i > 0 {
                            self.out.push(' ');
                        }
                        match l {
                            SwitchLabel::Default => self.out.push_str("default:"),
                            SwitchLabel::Case { pat, guard } => {
                                self.out.push_str("case ");
                                self.pat(b, *pat);
                                if let Some(g) = guard {
                                    self.out.push_str(" when ");
                                    self.expr(b, *g);
                                }
                                self.out.push(':');
                            }
                        }
                    }
                    self.stmts(b, &sec.body);
                    self.out.push(')');
                }
                self.indent -= 1;
                self.out.push(')');
            }
            Stmt::Break => self.out.push_str("(break)"),
            Stmt::Continue => self.out.push_str("(continue)"),
            Stmt::Goto(t) => match t {
                GotoTarget::Label(l) => {
                    let _ = write!(self.out, "(goto {l})");
                }
                GotoTarget::Case(e) => {
                    self.out.push_str("(goto case ");
                    self.expr(b, *e);
                    self.out.push(')');
                }
                GotoTarget::Default => self.out.push_str("(goto default)"),
            },
            Stmt::Labeled { label, stmt } => {
                let _ = write!(self.out, "({label}:");
                self.stmts(b, &[*stmt]);
                self.out.push(')');
            }
            Stmt::Return(e) | Stmt::Throw(e) => {
                self.out.push_str(if matches!(s, Stmt::Return(_)) {
                    "(return"
                } else {
                    "(throw"
                });
                if let Some(e) = e {
                    self.out.push(' ');
                    self.expr(b, *e);
                }
                self.out.push(')');
            }
            Stmt::YieldReturn(e) => {
                self.out.push_str("(yield ");
                self.expr(b, *e);
                self.out.push(')');
            }
            Stmt::YieldBreak => self.out.push_str("(yield-break)"),
            Stmt::LocalFunction(f) => {
                self.out.push_str("(local-fn ");
                self.opt_binding(b, f.binding);
                self.function(b, f);
                self.out.push(')');
            }
        }
    }

    fn function(&mut self, b: &Body, f: &Function) {
        if f.is_async {
            self.out.push_str(" async");
        }
        if f.modifiers.contains(Modifiers::STATIC) {
            self.out.push_str(" static");
        }
        for a in f.attrs.iter().chain(&f.return_attrs) {
            self.out.push(' ');
            attribute(&mut self.out, a);
        }
        type_params(&mut self.out, &f.type_params);
        self.out.push_str(" (");
        for (i, p) in f.params.iter().enumerate() {
            if i > 0 {
                self.out.push(' ');
            }
            self.binding(b, *p);
        }
        self.out.push(')');
        if let Some(r) = &f.ret {
            let _ = write!(self.out, ": {}", type_ref(r));
        }
        match &f.body {
            Some(LambdaBody::Expr(e)) => {
                self.out.push_str(" => ");
                self.expr(b, *e);
            }
            Some(LambdaBody::Block(s)) => self.stmts(b, &[*s]),
            None => {}
        }
    }

    fn exprs(&mut self, b: &Body, ids: &[ExprId]) {
        for (i, e) in ids.iter().enumerate() {
            if i > 0 {
                self.out.push(' ');
            }
            self.expr(b, *e);
        }
    }

    fn args(&mut self, b: &Body, args: &[Arg]) {
        for a in args {
            self.out.push(' ');
            if let Some(n) = &a.name {
                let _ = write!(self.out, "{n}:");
            }
            match a.modifier {
                ArgModifier::None => {}
                ArgModifier::Ref => self.out.push_str("ref "),
                ArgModifier::Out => self.out.push_str("out "),
                ArgModifier::In => self.out.push_str("in "),
            }
            self.expr(b, a.value);
        }
    }

    fn init(&mut self, b: &Body, elems: &[InitElem]) {
        self.out.push_str(" {");
        for (i, el) in elems.iter().enumerate() {
            if i > 0 {
                self.out.push(',');
            }
            self.out.push(' ');
            match el {
                InitElem::Member { name, value, .. } => {
                    let _ = write!(self.out, "{name} = ");
                    self.init_value(b, value);
                }
                InitElem::Indexer { args, value } => {
                    self.out.push('[');
                    self.args(b, args);
                    self.out.push_str(" ] = ");
                    self.init_value(b, value);
                }
                InitElem::Add(es) => {
                    self.out.push_str("(add ");
                    self.exprs(b, es);
                    self.out.push(')');
                }
            }
        }
        self.out.push_str(" }");
    }

    fn init_value(&mut self, b: &Body, v: &InitValue) {
        match v {
            InitValue::Expr(e) => self.expr(b, *e),
            InitValue::Nested(elems) => {
                self.out.push_str("(nested");
                self.init(b, elems);
                self.out.push(')');
            }
        }
    }

    fn expr(&mut self, b: &Body, id: ExprId) {
        let Some(e) = b.exprs.get(id.index()) else {
            self.out.push('?');
            return;
        };
        let o = &mut self.out;
        match e {
            Expr::Missing => o.push('?'),
            Expr::Literal(l) => match l {
                Literal::Null => o.push_str("null"),
                Literal::Bool(v) => {
                    let _ = write!(o, "{v}");
                }
                Literal::Int(i) => {
                    let _ = write!(o, "{i}");
                }
                Literal::Real => o.push_str("<real>"),
                Literal::Char => o.push_str("<char>"),
                Literal::Str(Some(s)) => {
                    let _ = write!(o, "{s:?}");
                }
                Literal::Str(None) => o.push_str("<string>"),
            },
            Expr::Local(id) => self.binding(b, *id),
            Expr::Name { name, type_args } => {
                o.push_str(name);
                if let Some(args) = type_args {
                    write_type_args(o, args);
                }
            }
            Expr::AliasQualified { alias, name } => {
                let _ = write!(o, "{alias}::{name}");
            }
            Expr::This => o.push_str("this"),
            Expr::Base => o.push_str("base"),
            Expr::PredefinedType(p) => o.push_str(predefined(*p)),
            Expr::MemberAccess {
                receiver,
                name,
                type_args,
                conditional,
            } => {
                o.push_str(if *conditional { "(?. " } else { "(. " });
                self.expr(b, *receiver);
                let _ = write!(self.out, " {name}");
                if let Some(args) = type_args {
                    write_type_args(&mut self.out, args);
                }
                self.out.push(')');
            }
            Expr::ElementAccess {
                receiver,
                args,
                conditional,
            } => {
                o.push_str(if *conditional { "(?[] " } else { "([] " });
                self.expr(b, *receiver);
                self.args(b, args);
                self.out.push(')');
            }
            Expr::Call { callee, args } => {
                o.push_str("(call ");
                self.expr(b, *callee);
                self.args(b, args);
                self.out.push(')');
            }
            Expr::New { ty, args, init } => {
                o.push_str("(new");
                if let Some(t) = ty {
                    let _ = write!(o, " {}", type_ref(t));
                }
                self.args(b, args);
                if let Some(init) = init {
                    self.init(b, init);
                }
                self.out.push(')');
            }
            Expr::NewArray { elem, sizes, init } => {
                o.push_str("(new-array");
                if let Some(t) = elem {
                    let _ = write!(o, " {}", type_ref(t));
                }
                if !sizes.is_empty() {
                    self.out.push_str(" [");
                    self.exprs(b, sizes);
                    self.out.push(']');
                }
                if let Some(init) = init {
                    self.out.push_str(" {");
                    self.exprs(b, init);
                    self.out.push('}');
                }
                self.out.push(')');
            }
            Expr::AnonymousObject(members) => {
                o.push_str("(new-anon");
                for (name, value) in members.iter() {
                    self.out.push(' ');
                    if let Some(n) = name {
                        let _ = write!(self.out, "{n}=");
                    }
                    self.expr(b, *value);
                }
                self.out.push(')');
            }
            Expr::Collection(elems) => {
                o.push('[');
                for (i, el) in elems.iter().enumerate() {
                    if i > 0 {
                        self.out.push(' ');
                    }
                    match el {
                        CollectionElem::Expr(e) => self.expr(b, *e),
                        CollectionElem::Spread(e) => {
                            self.out.push_str("..");
                            self.expr(b, *e);
                        }
                    }
                }
                self.out.push(']');
            }
            Expr::Assign { op, lhs, rhs } => {
                match op {
                    AssignOp::Assign => o.push_str("(= "),
                    AssignOp::Coalesce => o.push_str("(??= "),
                    AssignOp::Compound(op) => {
                        let _ = write!(o, "({}= ", binary_op(*op));
                    }
                }
                self.expr(b, *lhs);
                self.out.push(' ');
                self.expr(b, *rhs);
                self.out.push(')');
            }
            Expr::Binary { op, lhs, rhs } => {
                let _ = write!(o, "({} ", binary_op(*op));
                self.expr(b, *lhs);
                self.out.push(' ');
                self.expr(b, *rhs);
                self.out.push(')');
            }
            Expr::Unary { op, operand } => {
                let _ = write!(o, "({} ", unary_op(*op));
                self.expr(b, *operand);
                self.out.push(')');
            }
            Expr::Conditional { cond, then, else_ } => {
                o.push_str("(?: ");
                self.exprs(b, &[*cond, *then, *else_]);
                self.out.push(')');
            }
            Expr::Cast { ty, expr } => {
                let _ = write!(o, "(cast {} ", type_ref(ty));
                self.expr(b, *expr);
                self.out.push(')');
            }
            Expr::As { expr, ty } => {
                o.push_str("(as ");
                self.expr(b, *expr);
                let _ = write!(self.out, " {})", type_ref(ty));
            }
            Expr::Is { expr, pat } => {
                o.push_str("(is ");
                self.expr(b, *expr);
                self.out.push(' ');
                self.pat(b, *pat);
                self.out.push(')');
            }
            Expr::Switch { scrutinee, arms } => {
                o.push_str("(switch ");
                self.expr(b, *scrutinee);
                for arm in arms.iter() {
                    self.out.push_str(" (");
                    self.pat(b, arm.pat);
                    if let Some(g) = arm.guard {
                        self.out.push_str(" when ");
                        self.expr(b, g);
                    }
                    self.out.push_str(" => ");
                    self.expr(b, arm.value);
                    self.out.push(')');
                }
                self.out.push(')');
            }
            Expr::Lambda(f) => {
                o.push_str("(lambda");
                self.function(b, f);
                self.out.push(')');
            }
            Expr::Await(e) => {
                o.push_str("(await ");
                self.expr(b, *e);
                self.out.push(')');
            }
            Expr::Tuple(elems) => {
                o.push_str("(tuple");
                for (name, value) in elems.iter() {
                    self.out.push(' ');
                    if let Some(n) = name {
                        let _ = write!(self.out, "{n}:");
                    }
                    self.expr(b, *value);
                }
                self.out.push(')');
            }
            Expr::Declaration { ty, bindings } => {
                o.push_str("(decl ");
                match ty {
                    Some(t) => o.push_str(&type_ref(t)),
                    None => o.push_str("var"),
                }
                for id in bindings.iter() {
                    self.out.push(' ');
                    self.opt_binding(b, *id);
                }
                self.out.push(')');
            }
            Expr::Default(t) => match t {
                Some(t) => {
                    let _ = write!(o, "(default {})", type_ref(t));
                }
                None => o.push_str("default"),
            },
            Expr::TypeOf(t) => {
                let _ = write!(o, "(typeof {})", type_ref(t));
            }
            Expr::SizeOf(t) => {
                let _ = write!(o, "(sizeof {})", type_ref(t));
            }
            Expr::Throw(e) => self.keyword(b, "throw", *e),
            Expr::Checked(e) => self.keyword(b, "checked", *e),
            Expr::Ref(e) => self.keyword(b, "ref", *e),
            Expr::Range { lo, hi } => {
                o.push_str("(..");
                for part in [lo, hi] {
                    self.out.push(' ');
                    match part {
                        Some(e) => self.expr(b, *e),
                        None => self.out.push('_'),
                    }
                }
                self.out.push(')');
            }
            Expr::With { expr, init } => {
                o.push_str("(with ");
                self.expr(b, *expr);
                self.init(b, init);
                self.out.push(')');
            }
            Expr::Query(clauses) => {
                o.push_str("(query");
                for c in clauses.iter() {
                    self.out.push_str(" (");
                    match c {
                        QueryClause::From {
                            binding,
                            source,
                            keys,
                            into,
                        } => {
                            self.out.push_str("from ");
                            self.binding(b, *binding);
                            self.out.push_str(" in ");
                            self.expr(b, *source);
                            if !keys.is_empty() {
                                self.out.push_str(" on ");
                                self.exprs(b, keys);
                            }
                            if let Some(i) = into {
                                self.out.push_str(" into ");
                                self.binding(b, *i);
                            }
                        }
                        QueryClause::Let { binding, value } => {
                            self.out.push_str("let ");
                            self.binding(b, *binding);
                            self.out.push(' ');
                            self.expr(b, *value);
                        }
                        QueryClause::Filter(keys) => {
                            self.out.push_str("filter ");
                            self.exprs(b, keys);
                        }
                        QueryClause::Select { value, key, into } => {
                            self.out.push_str("select ");
                            self.expr(b, *value);
                            if let Some(k) = key {
                                self.out.push_str(" by ");
                                self.expr(b, *k);
                            }
                            if let Some(i) = into {
                                self.out.push_str(" into ");
                                self.binding(b, *i);
                            }
                        }
                    }
                    self.out.push(')');
                }
                self.out.push(')');
            }
            Expr::Interpolated(holes) => {
                o.push_str("(interp");
                for h in holes.iter() {
                    self.out.push(' ');
                    self.expr(b, *h);
                }
                self.out.push(')');
            }
            Expr::Other(parts) => {
                o.push_str("(other");
                for p in parts.iter() {
                    self.out.push(' ');
                    self.expr(b, *p);
                }
                self.out.push(')');
            }
        }
    }

    fn keyword(&mut self, b: &Body, kw: &str, e: ExprId) {
        let _ = write!(self.out, "({kw} ");
        self.expr(b, e);
        self.out.push(')');
    }

    fn pat(&mut self, b: &Body, id: PatId) {
        let Some(p) = b.pats.get(id.index()) else {
            self.out.push('?');
            return;
        };
        match p {
            Pat::Missing => self.out.push('?'),
            Pat::Discard => self.out.push('_'),
            Pat::Var(ids) => {
                self.out.push_str("(var");
                for id in ids.iter() {
                    self.out.push(' ');
                    self.opt_binding(b, *id);
                }
                self.out.push(')');
            }
            Pat::Declaration { ty, binding } => {
                let _ = write!(self.out, "({} ", type_ref(ty));
                self.opt_binding(b, *binding);
                self.out.push(')');
            }
            Pat::Type(t) => {
                let _ = write!(self.out, "(type {})", type_ref(t));
            }
            Pat::Constant(e) => self.expr(b, *e),
            Pat::Relational { op, value } => {
                let op = match op {
                    RelOp::Lt => "<",
                    RelOp::Le => "<=",
                    RelOp::Gt => ">",
                    RelOp::Ge => ">=",
                };
                let _ = write!(self.out, "({op} ");
                self.expr(b, *value);
                self.out.push(')');
            }
            Pat::Not(p) => {
                self.out.push_str("(not ");
                self.pat(b, *p);
                self.out.push(')');
            }
            Pat::And(l, r) | Pat::Or(l, r) => {
                self.out.push_str(if matches!(p, Pat::And(..)) {
                    "(and "
                } else {
                    "(or "
                });
                self.pat(b, *l);
                self.out.push(' ');
                self.pat(b, *r);
                self.out.push(')');
            }
            Pat::Recursive {
                ty,
                positional,
                properties,
                binding,
            } => {
                self.out.push_str("(rec");
                if let Some(t) = ty {
                    let _ = write!(self.out, " {}", type_ref(t));
                }
                for (label, subs) in [("pos", positional), ("props", properties)] {
                    let Some(subs) = subs else { continue };
                    let _ = write!(self.out, " ({label}");
                    for sp in subs.iter() {
                        self.out.push(' ');
                        if !sp.path.is_empty() {
                            let _ = write!(self.out, "{}: ", sp.path.join("."));
                        }
                        self.pat(b, sp.pat);
                    }
                    self.out.push(')');
                }
                if let Some(id) = binding {
                    self.out.push(' ');
                    self.binding(b, *id);
                }
                self.out.push(')');
            }
            Pat::List { items, binding } => {
                self.out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        self.out.push(' ');
                    }
                    self.pat(b, *item);
                }
                self.out.push(']');
                if let Some(id) = binding {
                    self.out.push(' ');
                    self.binding(b, *id);
                }
            }
            Pat::Slice(inner) => {
                self.out.push_str("..");
                if let Some(p) = inner {
                    self.pat(b, *p);
                }
            }
        }
    }
}
