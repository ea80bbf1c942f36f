// rlc-case: infer
// Case family: disposable types whose disposal releases nothing today (empty
// `Dispose`, or one that only sets a flag; detaching from an event is a release), as
// inference finds (rule
// `no-obligation`). The type keeps its obligation: a leak is reported as RLC0010
// (a warning) instead of being hidden, until a person writes the `[MustCall]` that
// `infer` proposes. A written `[MustCall]` with no method, or a real resource,
// decides it.
// cases: 20
using System;
using System.IO;
using RlcSharp.Annotations;

namespace Cases.ReleasesNothing;

public sealed class EmptyScope : IDisposable
{
    public void Dispose() { }
}

public sealed class FlagOnly : IDisposable
{
    private bool _disposed;
    public bool IsDisposed => _disposed;
    public void Dispose() => _disposed = true;
}

public class BaseDouble : IDisposable
{
    public virtual void Run() { }
    public void Dispose() { }
}

public sealed class DerivedDouble : BaseDouble
{
    public override void Run() { }
}

[MustCall]
public sealed class Declared : IDisposable
{
    public void Dispose() { }
}

public sealed class RealHolder : IDisposable
{
    private readonly Stream _stream;
    public RealHolder(string path) { _stream = File.OpenRead(path); }
    public void Dispose() => _stream.Dispose();
}

public static class Uses
{
    // CASE: an empty Dispose: the leak is reported apart, as a warning.
    public static void EmptyNotDisposed()
    {
        var scope = new EmptyScope(); // expect: RLC0010
        Console.WriteLine(scope);
    }

    // CASE: a Dispose that only sets a flag releases nothing either.
    public static void FlagNotDisposed()
    {
        var f = new FlagOnly(); // expect: RLC0010
        Console.WriteLine(f.IsDisposed);
    }

    // CASE: a subclass inherits the verdict of its base.
    public static void SubclassNotDisposed()
    {
        var d = new DerivedDouble(); // expect: RLC0010
        d.Run();
    }

    // CASE: a discarded result of such a type.
    public static void Discarded()
    {
        new EmptyScope(); // expect: RLC0010
    }

    // CASE: disposed on some paths only.
    public static void SomePaths(bool b)
    {
        var scope = new EmptyScope(); // expect: RLC0010
        if (b)
        {
            scope.Dispose();
        }
    }

    // CASE: lost only when an exception is thrown: still this rule, not RLC0002.
    public static void OnException()
    {
        try
        {
            var scope = new EmptyScope(); // expect: RLC0010
            Work();
            scope.Dispose();
        }
        catch (InvalidOperationException)
        {
        }
    }

    // CASE: disposed with `using`: nothing to report.
    public static void Disposed()
    {
        using var scope = new EmptyScope();
        Console.WriteLine(scope);
    }

    // CASE: a written `[MustCall]` with no method removes the obligation.
    public static void DeclaredNoObligation()
    {
        var d = new Declared();
        Console.WriteLine(d);
    }

    // CASE: a type whose disposal releases a stream is a real leak (RLC0001).
    public static void RealLeak(string path)
    {
        var h = new RealHolder(path); // expect: RLC0001
        Console.WriteLine(h);
    }

    // CASE: returning it hands the obligation to the caller.
    public static EmptyScope Make() => new EmptyScope();

    // CASE: the caller of a factory of such a type leaks it too.
    public static void FromFactory()
    {
        var s = Make(); // expect: RLC0010
        Console.WriteLine(s);
    }

    // CASE: an interface-typed local of such a value.
    public static void AsInterface()
    {
        IDisposable d = new EmptyScope(); // expect: RLC0010
        Console.WriteLine(d);
    }

    private static void Work() => Console.WriteLine("working");

    // CASE: a class that inherits an empty virtual `Dispose` from its base, which
    // another subclass overrides to release a stream: the class releases nothing,
    // its sibling is a real resource.
    public static void InheritedEmptyDispose(string path)
    {
        var plain = new PlainStage(); // expect: RLC0010
        var file = new FileStage(path); // expect: RLC0001
        Console.WriteLine(plain.Name + file.Name);
    }
}

public abstract class Stage : IDisposable
{
    public string Name => GetType().Name;

    public virtual void Dispose() { }
}

public sealed class PlainStage : Stage
{
}

public sealed class FileStage : Stage
{
    private readonly FileStream _log;

    public FileStage(string path) => _log = File.OpenWrite(path);

    public override void Dispose() => _log.Dispose();
}

// CASE: an owning field of such a type overwritten without disposing its old
// value: still RLC0004, lowered to a warning with the verdict.
public sealed class Restarts : IDisposable
{
    private EmptyScope _scope = new EmptyScope();
    private RealHolder _holder;

    public Restarts(string path) => _holder = new RealHolder(path);

    public void Restart(string path)
    {
        _scope = new EmptyScope(); // expect: RLC0004
        _holder = new RealHolder(path); // expect: RLC0004
    }

    public void Dispose()
    {
        _scope.Dispose();
        _holder.Dispose();
    }
}

// CASE: an owning field of such a type that no must-call method disposes: still
// RLC0003, lowered to a warning with the verdict.
public sealed class KeepsScopes : IDisposable
{
    private readonly EmptyScope _scope = new EmptyScope(); // expect: RLC0003
    private readonly RealHolder _holder; // expect: RLC0003

    public KeepsScopes(string path) => _holder = new RealHolder(path);

    public void Dispose() { }
}

public static class Theme
{
    public static event EventHandler? Changed;
    public static void Raise() => Changed?.Invoke(null, EventArgs.Empty);
}

// A canvas that listens to a static event until disposed: its disposal lets the
// publisher drop it, which is a release.
public sealed class ThemedCanvas : IDisposable
{
    public ThemedCanvas() => Theme.Changed += OnChanged;
    private void OnChanged(object? sender, EventArgs e) { }
    public void Dispose() => Theme.Changed -= OnChanged;
}

public static class Painting
{
    // CASE: a disposal that detaches from an event releases something: a canvas lost
    // stays rooted by the static event, a leak (RLC0001, not RLC0010).
    public static void Draw()
    {
        var canvas = new ThemedCanvas(); // expect: RLC0001
        Console.WriteLine(canvas);
    }
}

// A storage item whose disposal only clears its own references, and a subclass whose
// override calls the base and clears one more.
public abstract class StorageItem : IDisposable
{
    public object? ContextMenu { get; set; }

    public static StorageItem? Parse(string path) =>
        path.EndsWith('/') ? new StorageFolder() : new StorageFile();

    public virtual void Dispose() => ContextMenu = null;
}

public class StorageFolder : StorageItem
{
    public object? NewMenu { get; set; }

    public override void Dispose()
    {
        base.Dispose();
        NewMenu = null;
    }
}

public class StorageFile : StorageItem { }

// A view model that only borrows its page (a disposable it is lent) and whose
// `Dispose` is empty.
public interface IPage : IDisposable { }

public sealed class PageViewModel : IDisposable
{
    private readonly IPage _page;
    public PageViewModel(IPage page) => _page = page;
    public void Dispose() { }
}

// A ticket whose disposal clears its issuer's slot: a claim on shared state, released.
public sealed class Ticket : IDisposable
{
    private readonly Desk _desk;
    public Ticket(Desk desk) => _desk = desk;
    public void Dispose() => _desk.Current = null;
}

public sealed class Desk
{
    public Ticket? Current { get; set; }
}

public static class Items
{
    // CASE: a base whose every override only clears its own references (after
    // calling the base) releases nothing, and neither does each subclass.
    public static void Browse(string path)
    {
        var item = StorageItem.Parse(path); // expect: RLC0010
        var folder = new StorageFolder(); // expect: RLC0010
        Console.WriteLine(item?.ContextMenu ?? folder.NewMenu);
    }

    // CASE: an empty `Dispose` releases nothing, though the class holds a disposable it
    // is lent.
    public static void Show(IPage page)
    {
        var model = new PageViewModel(page); // expect: RLC0010
        Console.WriteLine(model);
    }

    // CASE: a disposal that clears another object's slot releases it: a ticket lost
    // keeps the desk taken (RLC0001).
    public static void Take(Desk desk)
    {
        var ticket = new Ticket(desk); // expect: RLC0001
        Console.WriteLine(ticket);
    }
}

// An envelope whose disposal runs a virtual hook that a subclass overrides to close its
// body stream.
public abstract class Envelope : IDisposable
{
    public bool Closed { get; private set; }

    public static Envelope Open(string path) => new StreamedEnvelope(path);

    public void Close()
    {
        Closed = true;
        OnClose();
    }

    protected virtual void OnClose() { }

    public void Dispose() => Close();
}

public sealed class StreamedEnvelope : Envelope
{
    private readonly Stream _body;
    public StreamedEnvelope(string path) => _body = File.OpenRead(path);
    protected override void OnClose() => _body.Dispose();
}

public static class Envelopes
{
    // CASE: a disposal that runs a virtual hook releases what an override of it may
    // release: an envelope lost is a leak (RLC0001), not one that releases nothing.
    public static bool Peek(string path)
    {
        var envelope = Envelope.Open(path); // expect: RLC0001
        return envelope.Closed;
    }
}
