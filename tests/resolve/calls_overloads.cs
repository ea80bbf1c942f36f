// Overload resolution by arity and by argument types; static and instance calls.
namespace Res.Calls
{
    public class Sink
    {
        public int Put(int x) => x;
        public string Put(string s) => s;
        public Sink Put(int x, int y) => this;
        public static Sink Make() => new Sink();
        public static Sink Make(string name) => new Sink();
    }

    public class Caller
    {
        void Local() { }

        public void M(Sink s)
        {
            var a = s.Put(1);
            //      ^^^^^^^^ int -> Res.Calls.Sink.Put(int)
            var b = s.Put("x");
            //      ^^^^^^^^^^ string -> Res.Calls.Sink.Put(string)
            var c = s.Put(1, 2);
            //      ^^^^^^^^^^^ Sink -> Res.Calls.Sink.Put(int, int)
            var d = Sink.Make();
            //      ^^^^^^^^^^^ Sink -> Res.Calls.Sink.Make()
            var e = Sink.Make("n");
            //      ^^^^^^^^^^^^^^ Sink -> Res.Calls.Sink.Make(string)
            Local();
        //  ^^^^^^^ void -> Res.Calls.Caller.Local()
            var f = s.Put(x: 3);
            //      ^^^^^^^^^^^ int -> Res.Calls.Sink.Put(int)
            var g = s.Put(x: 3, 4);
            //      ^^^^^^^^^^^^^^ Sink -> Res.Calls.Sink.Put(int, int)
        }
    }
}
