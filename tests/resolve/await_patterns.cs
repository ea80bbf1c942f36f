// await (Task<T>, ValueTask<T>), casts, `as`, `is` and switch patterns, `?.`, `??`, `?:`.
using System.Threading.Tasks;

namespace Res.Await
{
    public class Res { public Res Inner; public int Size; }

    public class User
    {
        Task<Res> OpenAsync() => null;
        ValueTask<Res> OpenValueAsync() => default;
        Task CloseAsync() => null;

        public async Task M(object o, Res maybe)
        {
            var a = await OpenAsync();
            //      ^^^^^^^^^^^^^^^^^ Res
            var b = await OpenValueAsync();
            //      ^^^^^^^^^^^^^^^^^^^^^^ Res
            var c = (Res)o;
            //      ^^^^^^ Res
            var d = o as Res;
            //      ^^^^^^^^ Res
            if (o is Res r)
            {
                var e = r.Inner;
                //      ^^^^^^^ Res -> Res.Await.Res.Inner
            }
            var f = maybe?.Inner;
            //      ^^^^^^^^^^^^ Res
            var g = maybe ?? new Res();
            //      ^^^^^^^^^^^^^^^^^^ Res
            var h = o == null ? maybe : a;
            //      ^^^^^^^^^^^^^^^^^^^^^ Res
            var i = o switch { Res x => x.Inner, _ => null };
            //      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ Res
            switch (o)
            {
                case Res y when y.Size > 0:
                    var j = y.Inner;
                    //      ^^^^^^^ Res
                    break;
            }
        }
    }
}
