// Case family: lightweight ownership transfer (paper section 3): owning returns,
// [Owning] and unannotated parameters, [return: NotOwning], out parameters, property
// getters, and constructors that store an argument into an [Owning] field. A `bool`
// method that sets its `out` value to `null` before each `return false` (the `TryX`
// convention, whatever its name) gives nothing on `false`.
// cases: 44
using System;
using System.IO;
using RlcSharp.Annotations;

namespace Cases.OwnershipTransfer;

public sealed class LogWriter : IDisposable
{
    [Owning] private readonly Stream _stream;

    public LogWriter([Owning] Stream stream)
    {
        _stream = stream;
    }

    public void Write(byte b) => _stream.WriteByte(b);

    [Calls("_stream", "Dispose")]
    public void Dispose() => _stream.Dispose();
}

// A writer whose constructor keeps the stream in an owning field but does not say so
// on its parameter: callers are not told that ownership moves.
public sealed class UnannotatedLogWriter : IDisposable
{
    [Owning] private readonly Stream _stream;

    public UnannotatedLogWriter(Stream stream)
    {
        _stream = stream;
    }

    [Calls("_stream", "Dispose")]
    public void Dispose() => _stream.Dispose();
}

public sealed class Holder
{
    private readonly Stream _borrowed;

    public Holder(Stream borrowed)
    {
        _borrowed = borrowed;
    }

    [return: NotOwning]
    public Stream Borrowed() => _borrowed;

    public Stream Unmarked() => _borrowed;
}

public static class OwnershipTransfer
{
    static void Sink([Owning] Stream s)
    {
        s.Dispose();
    }

    static void DisposesButUnannotated(Stream s)
    {
        s.Dispose();
    }

    // CASE: returning a fresh resource hands it to the caller.
    public static Stream ReturnNew(string path)
    {
        return new FileStream(path, FileMode.Open);
    }

    // CASE: returning a local after using it.
    public static Stream ReturnLocal(string path)
    {
        var fs = File.OpenRead(path);
        fs.Seek(10, SeekOrigin.Begin);
        return fs;
    }

    // CASE: expression-bodied method returning a resource.
    public static Stream ExpressionBodied(string path) => File.OpenRead(path);

    // CASE: the caller of an owning method must dispose the result.
    public static void CallerDisposes(string path)
    {
        using var s = ReturnNew(path);
        s.ReadByte();
    }

    // CASE: the caller of an owning method forgets the result.
    public static void CallerForgets(string path)
    {
        var s = ReturnLocal(path); // expect: RLC0001
        s.ReadByte();
    }

    // CASE: the result of an owning method is discarded.
    public static void ResultDiscarded(string path)
    {
        ExpressionBodied(path); // expect: RLC0001
    }

    // CASE: an [Owning] parameter that is disposed.
    public static void OwningParamDisposed([Owning] Stream s)
    {
        s.ReadByte();
        s.Dispose();
    }

    // CASE: an [Owning] parameter that is never disposed leaks (reported at the parameter).
    public static void OwningParamNotDisposed([Owning] Stream s) // expect: RLC0001
    {
        s.ReadByte();
    }

    // CASE: an [Owning] parameter handed on to another [Owning] parameter.
    public static void OwningParamPassedOn([Owning] Stream s)
    {
        Sink(s);
    }

    // CASE: an [Owning] parameter overwritten before it is disposed: its value is lost.
    public static void OwningParamOverwritten([Owning] Stream s, string path)
    {
        s = File.OpenRead(path); // expect: RLC0004
        s.Dispose();
    }

    // CASE: passing a fresh resource to an [Owning] parameter discharges it.
    public static void PassToOwning(string path)
    {
        Sink(File.OpenRead(path));
    }

    // CASE: passing to an unannotated parameter does not discharge, even though the
    // callee happens to dispose it (that is what [Owning] or inference is for).
    public static void PassToUnannotated(string path)
    {
        var fs = File.OpenRead(path); // expect: RLC0001
        DisposesButUnannotated(fs);
    }

    // CASE: passing to an unannotated parameter and disposing afterwards is fine.
    public static void PassThenDispose(string path)
    {
        var fs = File.OpenRead(path);
        DisposesButUnannotated(fs);
        fs.Dispose();
    }

    // CASE: [return: NotOwning] on a method that returns a fresh resource: nobody owns it.
    [return: NotOwning]
    public static Stream NotOwningReturnOfNew(string path)
    {
        return File.OpenRead(path); // expect: RLC0001
    }

    // CASE: the caller of a [return: NotOwning] method has nothing to dispose.
    public static int CallNotOwning(Holder holder)
    {
        var s = holder.Borrowed();
        return s.ReadByte();
    }

    // CASE: a method that returns a borrowed field without [return: NotOwning]: by
    // default its result is owning, so the caller must dispose it.
    public static int CallUnmarked(Holder holder)
    {
        var s = holder.Unmarked(); // expect: RLC0001
        return s.ReadByte();
    }

    // CASE: an out parameter receives the obligation (out parameters are owning).
    public static bool TryOpen(string path, out FileStream stream)
    {
        if (!File.Exists(path))
        {
            stream = null;
            return false;
        }
        stream = File.OpenRead(path);
        return true;
    }

    // CASE: the caller of an out-parameter method disposes what it received.
    public static void OutArgumentDisposed(string path)
    {
        TryOpen(path, out var stream);
        stream?.Dispose();
    }

    // CASE: a `ref` parameter assigned a new stream hands it to the caller, as `out`
    // does: the caller reads its variable after the call.
    public static void ReopenRef(string path, ref Stream stream)
    {
        stream = File.OpenRead(path);
    }

    // CASE: a stream created for a `ref` parameter but never assigned to it leaks.
    public static void RefParameterNotAssigned(string path, ref Stream stream)
    {
        var other = File.OpenRead(path); // expect: RLC0001
        stream.ReadByte();
    }

    public static bool NextChunk(Stream source, out FileStream chunk)
    {
        if (source.Position >= source.Length)
        {
            chunk = null;
            return false;
        }
        chunk = File.OpenRead("chunk" + source.Position);
        return true;
    }

    public static bool NextChunkOrStale(Stream source, out FileStream chunk)
    {
        chunk = File.OpenRead("chunk" + source.Position);
        if (source.Position < source.Length)
        {
            return true;
        }
        return false;
    }

    // CASE: a loop that disposes each chunk it was given owes nothing when the method
    // says `false`: it gave none.
    public static void ChunksDisposed(Stream source)
    {
        while (NextChunk(source, out var chunk))
        {
            chunk.Dispose();
        }
    }

    // CASE: a method that hands out a value also on `false` still gives it then.
    public static void StaleChunkLost(Stream source)
    {
        while (NextChunkOrStale(source, out var chunk)) // expect: RLC0001
        {
            chunk.Dispose();
        }
    }

    // CASE: the `false` edge of a `TryX`-shaped method on its own owes nothing.
    public static int FirstByte(Stream source)
    {
        if (!NextChunk(source, out var chunk))
        {
            return -1;
        }
        using (chunk)
        {
            return chunk.ReadByte();
        }
    }

    // CASE: the caller of an out-parameter method forgets what it received.
    public static void OutArgumentForgotten(string path)
    {
        TryOpen(path, out var stream); // expect: RLC0001
        Console.WriteLine(stream);
    }

    // CASE: ownership handed to a constructor whose parameter is [Owning] and which
    // stores it in an [Owning] field; the writer itself is disposed.
    public static void HandedToOwningConstructor(string path)
    {
        using var writer = new LogWriter(File.Create(path));
        writer.Write(1);
    }

    // CASE: the writer that took ownership is itself never disposed.
    public static void OwningConstructorResultLeaked(string path)
    {
        var writer = new LogWriter(File.Create(path)); // expect: RLC0001
        writer.Write(1);
    }

    // CASE: the constructor parameter is not [Owning]: the stream passed in is not
    // discharged although the writer is disposed.
    public static void HandedToUnannotatedConstructor(string path)
    {
        using var writer = new UnannotatedLogWriter(File.Create(path)); // expect: RLC0001
    }

    // CASE: a property getter is not owning: returning a fresh resource from it leaks.
    public static Stream OpenedStream => File.OpenRead("data.bin"); // expect: RLC0001

    // CASE: reading a property gives no obligation to the caller.
    public static int ReadThroughProperty()
    {
        var s = OpenedStream;
        return s.ReadByte();
    }
}

public static class ParamsDisposal
{
    public static void CloseAll([Owning] params IDisposable[] resources)
    {
        foreach (var r in resources)
        {
            r?.Dispose();
        }
    }

    // CASE: every argument bound to an [Owning] params array is handed over.
    public static void HandsEachOver(string a, string b)
    {
        var first = File.OpenRead(a);
        var second = File.OpenRead(b);
        CloseAll(first, second);
    }

    // CASE: a resource not among the arguments still leaks.
    public static void ForgetsOne(string a, string b)
    {
        var first = File.OpenRead(a);
        var second = File.OpenRead(b); // expect: RLC0001
        CloseAll(first);
    }
}

public sealed class Slot
{
    public Stream Stream { get; set; }
}

public sealed class SlotUser
{
    private readonly Slot _slot;

    public SlotUser(Slot slot) => _slot = slot;

    // CASE: stored into a property of an object the caller passed: the value now lives
    // with that object (as with a static field), not this method's leak.
    public static void Fill(Slot slot, string path)
    {
        slot.Stream = File.OpenRead(path);
    }

    // CASE: stored into a property of an object a field holds: the same.
    public void FillHeld(string path)
    {
        _slot.Stream ??= File.OpenRead(path);
    }

    // CASE: stored into a property of an object this method created and then drops:
    // the value is lost with it.
    public static void FillLocal(string path)
    {
        var slot = new Slot();
        slot.Stream = File.OpenRead(path); // expect: RLC0001
    }
}

// CASE: a parameter its method keeps for the program's lifetime (a static list, a
// per-thread slot in a static dictionary, an object a static field holds that adds it
// to its own list) takes the value away, as storing it into a static field does.
public static class Listeners
{
    private static readonly System.Collections.Generic.List<Stream> All = new();
    private static readonly System.Collections.Concurrent.ConcurrentDictionary<string, System.Threading.ThreadLocal<Stream>> PerThread = new();
    private static readonly ListenerSet Shared = new();

    public static void Register(Stream s) => All.Add(s);

    public static void RegisterForThread(string key, Stream s) =>
        PerThread.GetOrAdd(key, _ => new System.Threading.ThreadLocal<Stream>()).Value = s;

    public static void RegisterShared(Stream s) => Shared.Add(s);

    public static void Forward(Stream s) => Register(s);

    public static void Describe(Stream s) => Console.WriteLine(s.Length);
}

public sealed class ListenerSet
{
    private readonly System.Collections.Generic.List<Stream> _items = new();

    public void Add(Stream s) => _items.Add(s);
}

public static class ListenerUsers
{
    public static void Start(string path)
    {
        Listeners.Register(File.OpenRead(path));
        Listeners.RegisterForThread("k", File.OpenRead(path));
        Listeners.RegisterShared(File.OpenRead(path));
        Listeners.Forward(File.OpenRead(path));
    }

    // CASE: a static method that only reads its parameter keeps nothing.
    public static void Describe(string path)
    {
        Listeners.Describe(File.OpenRead(path)); // expect: RLC0001
    }
}

// A sprite over a file, as a scene graph's children are.
public sealed class Sprite : IDisposable
{
    [Owning] private readonly FileStream _image;
    public Sprite(string path) { _image = File.OpenRead(path); }
    public void Dispose() => _image.Dispose();
}

// CASE: a value made only to be handed to a callee nothing describes (a method of an
// unread package's type, inherited or on a receiver): its maker keeps no name to
// dispose it by, only the callee could, and what the callee does cannot be seen.
public class SceneBuilder : Contoso.Scenes.Composite
{
    public void Load(Contoso.Scenes.ScreenStack screens)
    {
        AddChild(new Sprite("a.png"));
        screens.Push(new Sprite("b.png"));
    }

    // CASE: ... but a value its maker names is its maker's to dispose after the call.
    public void Configure(Contoso.Scenes.ScreenStack screens)
    {
        var sprite = new Sprite("c.png"); // expect: RLC0001
        screens.Push(sprite);
    }

    // CASE: ... and a callee the program describes is read, not guessed.
    public void Show()
    {
        Listeners.Describe(new Sprite("d.png")); // expect: RLC0001
    }

    // CASE: a member nothing describes is a setter nothing describes: an array made
    // only to be set there goes with its elements, an object initializer's value too.
    public void Layout()
    {
        Children = new IDisposable[] { new Sprite("e.png"), new Sprite("f.png") };
        AddChild(new Contoso.Scenes.Composite { Child = new Sprite("g.png") });
    }

    // CASE: a wrapper made only to be passed stays blind to the local its handle was
    // kept in, when nothing reads that local again.
    public object Adapt(string path, Contoso.Scenes.ScreenStack screens)
    {
        var handle = File.OpenHandle(path);
        return screens.Wrap(new FileStream(handle, FileAccess.Read));
    }

    // CASE: ... but one whose handle the method still uses is its own.
    public long AdaptAndMeasure(string path, Contoso.Scenes.ScreenStack screens)
    {
        var handle = File.OpenHandle(path);
        screens.Wrap(new FileStream(handle, FileAccess.Read)); // expect: RLC0001
        return RandomAccess.GetLength(handle);
    }

    // CASE: `_ = expr` with nothing named `_` is a discard, not a member: the value is lost.
    public void Discard()
    {
        _ = new Sprite("h.png"); // expect: RLC0001
    }
}

// CASE: a field's value handed to a callee nothing describes stays the field's: the
// field names it.
public sealed class SceneHost : IDisposable
{
    [Owning] private Sprite? _current = new Sprite("i.png");

    public void Replace(Contoso.Scenes.ScreenStack screens)
    {
        screens.Show(_current);
        _current = null; // expect: RLC0004
    }

    public void Dispose() => _current?.Dispose();
}
