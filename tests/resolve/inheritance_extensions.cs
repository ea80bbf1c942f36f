// Members inherited from base classes and interfaces, extension methods, tuples, out var,
// operators, indexers, local functions and lambdas, query expressions.
using System;
using System.Collections.Generic;
using System.Linq;

namespace Res.Inherit
{
    public interface IShape { double Area(); }
    public abstract class Base : IShape
    {
        public abstract double Area();
        public Base Parent;
    }
    public class Circle : Base
    {
        public override double Area() => 3.14;
        public static Circle operator +(Circle a, Circle b) => a;
        public int this[int i] => i;
    }

    public static class ShapeExtensions
    {
        public static Circle Grow(this Circle c, int by) => c;
        public static T Pick<T>(this IEnumerable<T> items) => default;
    }

    public class User
    {
        bool TryGet(out Circle c) { c = null; return false; }
        (Circle, int) Both() => (null, 1);
        (Circle Shape, int Count) Named() => (null, 1);

        public void M(Circle c, IShape s, List<Circle> all)
        {
            var a = c.Parent;
            //      ^^^^^^^^ Base -> Res.Inherit.Base.Parent
            var b = s.Area();
            //      ^^^^^^^^ double -> Res.Inherit.IShape.Area()
            var d = c.Grow(2);
            //      ^^^^^^^^^ Circle -> Res.Inherit.ShapeExtensions.Grow(Circle, int)
            var e = all.Pick();
            //      ^^^^^^^^^^ Circle -> Res.Inherit.ShapeExtensions.Pick(IEnumerable<T>)
            if (TryGet(out var got))
            {
                var f = got;
                //      ^^^ Circle
            }
            var (first, n) = Both();
            var g = first;
            //      ^^^^^ Circle
            var t = Both();
            var h = t.Item1;
            //      ^^^^^^^ Circle
            var named = Named();
            var h2 = named.Shape;
            //       ^^^^^^^^^^^ Circle
            var pair = (c, Size: 2);
            var h3 = pair.c.Parent;
            //       ^^^^^^^^^^^^^ Base
            var i = c + c;
            //      ^^^^^ Circle
            var j = c[1];
            //      ^^^^ int
            Circle Local(Circle x) => x;
            var k = Local(c);
            //      ^^^^^^^^ Circle
            Func<Circle, Base> fn = x => x.Parent;
            var l = fn(c);
            //      ^^^^^ Base
            var q = from x in all where x.Area() > 1 select x.Parent;
            //      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ IEnumerable<Base>
        }
    }
}
