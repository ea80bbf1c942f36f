// Generic types with arity, element types of arrays and collections, IEnumerable<T>, foreach.
using System.Collections.Generic;
using System.Linq;

namespace Res.Generics
{
    public class Box<T>
    {
        public T Value;
        public T Get() => Value;
        public Box<U> Map<U>(System.Func<T, U> f) => new Box<U>();
    }

    public class Pair<A, B> { public A First; public B Second; }
    public class Pair<A> { public A Only; }

    public class Item { public string Name; }

    public class User
    {
        public void M(Box<Item> box, Item[] items, List<Item> list, Dictionary<string, Item> map, IEnumerable<Item> seq)
        {
            var a = box.Get();
            //      ^^^^^^^^^ Item -> Res.Generics.Box.Get()
            var b = box.Value.Name;
            //      ^^^^^^^^^ Item -> Res.Generics.Box.Value
            var c = items[0];
            //      ^^^^^^^^ Item
            var d = list[0];
            //      ^^^^^^^ Item
            var e = map["k"];
            //      ^^^^^^^^ Item
            foreach (var x in seq)
            {
                var n = x.Name;
                //      ^^^^^^ string -> Res.Generics.Item.Name
            }
            foreach (var kv in map)
            {
                var v = kv.Value;
                //      ^^^^^^^^ Item
            }
            var p = new Pair<int, Item>().Second;
            //      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ Item
            var q = new Pair<Item>().Only;
            //      ^^^^^^^^^^^^^^^^^^^^^ Item
            var r = box.Map(i => i.Name);
            //      ^^^^^^^^^^^^^^^^^^^^ Box<string> -> Res.Generics.Box.Map(Func<T, U>)
            var names = list.Select(i => i.Name).ToList();
            //          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ List<string>
            var first = seq.First();
            //          ^^^^^^^^^^^ Item
        }
    }
}
