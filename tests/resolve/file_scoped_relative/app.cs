// A file-scoped namespace's usings resolve relative to it too (the types are in lib.cs).
namespace Rel.Scoped.Tests;

using Wire;
using P = Wire.Ping;
using static Wire.Factory;

public class UsesScoped
{
    public void M(P alias)
    {
        var a = new Ping().Echo();
        //      ^^^^^^^^^^^^^^^^^ Ping -> Rel.Scoped.Wire.Ping.Echo()
        var b = alias.Echo();
        //      ^^^^^^^^^^^^ Ping -> Rel.Scoped.Wire.Ping.Echo()
        var c = MakePing();
        //      ^^^^^^^^^^ Ping -> Rel.Scoped.Wire.Factory.MakePing()
    }
}
