// `new`, target-typed `new()`, object initializers, constructors and their overloads.
namespace Res.New
{
    public class Conn
    {
        public Conn() { }
        public Conn(string cs) { }
        public string Name { get; set; }
    }

    public class Holder
    {
        private Conn _c = new();
        //                ^^^^^ Conn -> Res.New.Conn.Conn()

        public void M()
        {
            var a = new Conn("x");
            //      ^^^^^^^^^^^^^ Conn -> Res.New.Conn.Conn(string)
            Conn b = new("y");
            //       ^^^^^^^^ Conn -> Res.New.Conn.Conn(string)
            var c = new Conn { Name = "n" };
            //      ^^^^^^^^^^^^^^^^^^^^^^^ Conn -> Res.New.Conn.Conn()
        }
    }
}
