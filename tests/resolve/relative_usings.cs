// Using directives inside a namespace resolve relative to it: `using C;` in `namespace A.B`
// is `A.B.C`, then `A.C`, then the global `C`, and the nearest wins; aliases and `using
// static` alike. A type named in `A.B` is found in `A.B`, `A` and the global namespace.
namespace Rel.Wire
{
    public class Ping { public Ping Echo() => this; }
    public static class Factory { public static Ping MakePing() => new Ping(); }
}

namespace Rel.Shared
{
    public class Kind { public Kind Name() => this; }
}

// The same names at the top: the nearer `Rel.Shared` wins in `Rel.Tests`.
namespace Shared
{
    public class Kind { public Kind Name() => this; }
}

namespace Top.Things
{
    public class Gadget { public Gadget Spin() => this; }
}

public class TopLevel { public TopLevel Self() => this; }

namespace Rel
{
    public class Helper { public Helper Help() => this; }
}

namespace Rel.Tests
{
    using Wire;
    using P = Wire.Ping;
    using static Wire.Factory;
    using Shared;
    // There is no `Rel.Top`: the global `Top.Things`.
    using Top.Things;

    public class UsesRelative
    {
        public void M(P alias)
        {
            var a = new Ping().Echo();
            //      ^^^^^^^^^^^^^^^^^ Ping -> Rel.Wire.Ping.Echo()
            var b = alias.Echo();
            //      ^^^^^^^^^^^^ Ping -> Rel.Wire.Ping.Echo()
            var c = MakePing();
            //      ^^^^^^^^^^ Ping -> Rel.Wire.Factory.MakePing()
            var d = new Kind().Name();
            //      ^^^^^^^^^^^^^^^^^ Kind -> Rel.Shared.Kind.Name()
            var e = new Gadget().Spin();
            //      ^^^^^^^^^^^^^^^^^^^ Gadget -> Top.Things.Gadget.Spin()
            var f = new Helper().Help();
            //      ^^^^^^^^^^^^^^^^^^^ Helper -> Rel.Helper.Help()
            var g = new TopLevel().Self();
            //      ^^^^^^^^^^^^^^^^^^^^^ TopLevel -> TopLevel.Self()
        }
    }
}

// Nested declarations: `Rel.Nested` sees `Rel`'s members, and the outer declaration's
// usings apply while the inner one's are resolved.
namespace Rel
{
    using Wire;

    namespace Nested
    {
        using static Factory;
        using W = Wire.Ping;

        public class UsesNested
        {
            public void M(W w)
            {
                var a = MakePing();
                //      ^^^^^^^^^^ Ping -> Rel.Wire.Factory.MakePing()
                var b = w.Echo();
                //      ^^^^^^^^ Ping -> Rel.Wire.Ping.Echo()
                var c = new Helper().Help();
                //      ^^^^^^^^^^^^^^^^^^^ Helper -> Rel.Helper.Help()
            }
        }
    }
}
