namespace Rel.Scoped.Wire
{
    public class Ping { public Ping Echo() => this; }
    public static class Factory { public static Ping MakePing() => new Ping(); }
}
