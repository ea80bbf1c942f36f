// Usings, aliases, global usings, `using static`, file-scoped and nested namespaces, nested types.
global using Res.Shared;
using Alias = Res.Other.Widget;
using static Res.Other.Factory;

namespace Res.Shared
{
    public class Common { public static Common Instance; }
}

namespace Res.Other
{
    public class Widget { public Widget Clone() => this; }
    public static class Factory { public static Widget MakeWidget() => new Widget(); }

    namespace Deep
    {
        public class Inner { public Outer.Nested N; }
    }

    public class Outer
    {
        public class Nested { public int X; }
        public Nested Make() => new Nested();
    }
}

namespace Res.Users
{
    public class User
    {
        public void M(Alias w, Res.Other.Deep.Inner inner)
        {
            var a = w.Clone();
            //      ^^^^^^^^^ Widget -> Res.Other.Widget.Clone()
            var b = MakeWidget();
            //      ^^^^^^^^^^^^ Widget -> Res.Other.Factory.MakeWidget()
            var c = Common.Instance;
            //      ^^^^^^^^^^^^^^^ Common
            var d = inner.N.X;
            //      ^^^^^^^ Nested
            var e = new Res.Other.Outer().Make();
            //      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ Nested -> Res.Other.Outer.Make()
        }
    }
}

// A project type and a library model type of the same name, both imported: the
// model has types the build may not reference (System.Drawing.Region is not in
// net8.0's reference set), so code that compiles means the project's own.
namespace Res.Shapes
{
    public class Region { public Region(int side) { } }
}

namespace Res.Painting
{
    using System.Drawing;
    using Res.Shapes;

    public class Painter
    {
        public void M()
        {
            var r = new Region(1);
            //      ^^^^^^^^^^^^^ Region -> Res.Shapes.Region.Region(int)
        }
    }
}
