// File-scoped namespace, records, primary constructors, required members, raw strings,
// collection expressions, list patterns, generic attributes, partial types merged.
namespace Res.Modern;

using System.Collections.Generic;

public record Point(int X, int Y);

public class Service(Point origin)
{
    public Point Origin => origin;
    //                     ^^^^^^ Point
}

public partial class Split { public int A; }
public partial class Split { public Split Self() => this; }

public class Tagged<T> : System.Attribute { }

[Tagged<int>]
public class Uses
{
    public required string Name { get; init; }

    public void M(Split s, Point p, int[] xs)
    {
        var a = s.Self().A;
        //      ^^^^^^^^ Split -> Res.Modern.Split.Self()
        var b = p.X;
        //      ^^^ int -> Res.Modern.Point.X
        var raw = """
            raw string
            """;
        List<int> list = [1, 2, 3];
        if (xs is [var first, .., var last])
        {
            var f = first;
            //      ^^^^^ int
        }
        var q = new Point(1, 2) with { X = 3 };
        //      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ Point
        var svc = new Service(p).Origin;
        //        ^^^^^^^^^^^^^^^^^^^^^ Point -> Res.Modern.Service.Origin
    }
}
