// Case family: overrides and interface implementations may not weaken the resource
// specification of the member they override (RLC0008 at the overriding member):
// owning parameters stay owning, not-owning returns stay not-owning, [Calls] stays at
// least as strong. Specs are not inherited implicitly: an override restates them,
// except a not-owning return, which an override that says nothing about its return
// inherits (nobody annotates an IServiceProvider.GetService implementation). A method
// that hides one (`new`) overrides nothing, and a class implements only the interfaces
// it names: one it has through its base class stays mapped to the base's methods.
// cases: 24
using System;
using System.IO;
using RlcSharp.Annotations;

namespace Cases.Overrides;

public abstract class Consumer
{
    public abstract void Consume([Owning] Stream s);

    [return: NotOwning]
    public abstract Stream Current();

    [Calls("#0", "Dispose")]
    public virtual void Release(Stream s) => s.Dispose();

    public virtual void Inspect(Stream s) => s.ReadByte();
}

// CASE: an override that keeps every spec and honours it.
public sealed class FaithfulConsumer : Consumer
{
    private readonly Stream _current = Stream.Null;

    public override void Consume([Owning] Stream s) => s.Dispose();

    [return: NotOwning]
    public override Stream Current() => _current;

    [Calls("#0", "Dispose")]
    public override void Release(Stream s)
    {
        s.Flush();
        s.Dispose();
    }
}

// CASE: an override whose parameter is no longer [Owning].
public sealed class DropsOwningParam : Consumer
{
    public override void Consume(Stream s) => s.ReadByte(); // expect: RLC0008

    [return: NotOwning]
    public override Stream Current() => Stream.Null;
}

// CASE: an override whose parameter is explicitly [NotOwning].
public sealed class NotOwningParam : Consumer
{
    public override void Consume([NotOwning] Stream s) => s.ReadByte(); // expect: RLC0008

    [return: NotOwning]
    public override Stream Current() => Stream.Null;
}

// CASE: an override that turns [return: NotOwning] into an owning return.
public sealed class DropsNotOwningReturn : Consumer
{
    public override void Consume([Owning] Stream s) => s.Dispose();

    [return: Owning]
    public override Stream Current() => Stream.Null; // expect: RLC0008
}

// CASE: an override silent about its return inherits [return: NotOwning].
public sealed class InheritsNotOwningReturn : Consumer
{
    private readonly Stream _current = Stream.Null;

    public override void Consume([Owning] Stream s) => s.Dispose();

    public override Stream Current() => _current;
}

// CASE: an IServiceProvider implementation inherits the library's not-owning return, so
// a caller through the interface owns nothing, and a fresh resource returned leaks.
public sealed class FreshServices : IServiceProvider
{
    public object GetService(Type serviceType) => File.OpenRead("services.bin"); // expect: RLC0001
}

// CASE: an override that drops the [Calls] of the method it overrides.
public sealed class DropsCalls : Consumer
{
    public override void Consume([Owning] Stream s) => s.Dispose();

    [return: NotOwning]
    public override Stream Current() => Stream.Null;

    public override void Release(Stream s) => s.Flush(); // expect: RLC0008
}

// CASE: an override that replaces the [Calls] method by a weaker one.
public sealed class CallsOtherMethod : Consumer
{
    public override void Consume([Owning] Stream s) => s.Dispose();

    [return: NotOwning]
    public override Stream Current() => Stream.Null;

    [Calls("#0", "Flush")]
    public override void Release(Stream s) => s.Flush(); // expect: RLC0008
}

// CASE: an override that releases the value by another of its disposal methods
// (`Close()` for `Dispose()` on a `Stream`) keeps the guarantee.
public sealed class ClosesInstead : Consumer
{
    public override void Consume([Owning] Stream s) => s.Dispose();

    [return: NotOwning]
    public override Stream Current() => Stream.Null;

    [Calls("#0", "Close")]
    public override void Release(Stream s) => s.Close();
}

// CASE: an override may strengthen: [Owning] on a parameter the base did not own; it
// keeps the base's [Calls].
public sealed class Strengthens : Consumer
{
    public override void Consume([Owning] Stream s) => s.Dispose();

    [return: NotOwning]
    public override Stream Current() => Stream.Null;

    [Calls("#0", "Dispose")]
    public override void Release(Stream s) => s.Dispose();

    public override void Inspect([Owning] Stream s) => s.Dispose();
}

// CASE: a [return: NotOwning] override that returns a fresh resource: the override
// keeps the spec, but returning does not discharge the new stream.
public sealed class NotOwningReturnsFresh : Consumer
{
    public override void Consume([Owning] Stream s) => s.Dispose();

    [return: NotOwning]
    public override Stream Current() => File.OpenRead("current.bin"); // expect: RLC0001
}

public interface ISink
{
    void Accept([Owning] Stream s);
}

// CASE: an interface implementation that keeps [Owning].
public sealed class GoodSink : ISink
{
    public void Accept([Owning] Stream s) => s.Dispose();
}

// CASE: an interface implementation that drops [Owning].
public sealed class BadSink : ISink
{
    public void Accept(Stream s) => s.ReadByte(); // expect: RLC0008
}

// CASE: an explicit interface implementation that drops [Owning].
public sealed class ExplicitBadSink : ISink
{
    void ISink.Accept(Stream s) => s.ReadByte(); // expect: RLC0008
}

// CASE: an implementation that keeps [Owning] but never disposes: the parameter leaks.
public sealed class LeakySink : ISink
{
    public void Accept([Owning] Stream s) => s.ReadByte(); // expect: RLC0001
}

public interface IPager
{
    [return: NotOwning]
    Stream Page();
}

// CASE: a class that implements the interface: its method takes the not-owning return.
public class Pager : IPager
{
    private readonly Stream _page = Stream.Null;

    public Stream Page() => _page;
}

// CASE: a method that hides (`new`) its base class's implementation of an interface
// method implements nothing (the interface stays mapped to the base's method): it takes
// no [return: NotOwning], and the fresh stream goes to its caller.
public sealed class FreshPager : Pager
{
    public new Stream Page() => File.OpenRead("page.bin");
}

// CASE: the same over the library's `IServiceProvider`, whose model says the result is
// not owned.
public class EmptyServices : IServiceProvider
{
    public object? GetService(Type serviceType) => null;
}

public sealed class OpeningServices : EmptyServices
{
    public new object GetService(Type serviceType) => File.OpenRead("services.bin");
}

// CASE: a class that names the interface again re-implements it: its hiding method
// does implement the interface method and keeps its not-owning return.
public sealed class ReimplementingPager : Pager, IPager
{
    public new Stream Page() => File.OpenRead("page.bin"); // expect: RLC0001
}

// CASE: a hiding method need not keep the [Owning] of the interface method its base
// class implements: it is not an implementation (no RLC0008).
public class DisposingSink : ISink
{
    public void Accept([Owning] Stream s) => s.Dispose();
}

public sealed class PeekingSink : DisposingSink
{
    public new void Accept(Stream s) => s.ReadByte();
}

public static class Callers
{
    // CASE: a call through the interface transfers ownership.
    public static void ThroughInterface(ISink sink, string path)
    {
        sink.Accept(File.OpenRead(path));
    }

    // CASE: a call through the base class to a [return: NotOwning] method.
    public static int ThroughBase(Consumer consumer)
    {
        var s = consumer.Current();
        return s.ReadByte();
    }

    // CASE: the caller of a hiding method owns the stream it returns.
    public static int ThroughHidingMethod(FreshPager pager)
    {
        var s = pager.Page(); // expect: RLC0001
        return s.ReadByte();
    }

    // CASE: a call through the base class or the interface binds their method and its
    // not-owning return.
    public static int ThroughHiddenMethod(FreshPager pager)
    {
        Pager asBase = pager;
        IPager asInterface = pager;
        return asBase.Page().ReadByte() + asInterface.Page().ReadByte();
    }
}
