// Case family: containers that keep a resource without owning it. A tuple literal,
// `Tuple.Create`, a `KeyValuePair`, an anonymous object, or a user type whose
// constructor stores its parameter in a plain field (and factories that return such a
// type; also one it stores inside an object it makes, `_state = new CallState(.., state)`)
// keep the argument as a member: it stays the caller's, disposed through the
// member (`pair.Item1.Dispose()`), and it goes wherever the container goes (returned,
// stored, captured). A container that is dropped with an undisposed member leaks it,
// reported at the allocation.
// cases: 22
using System;
using System.Collections.Generic;
using System.IO;

namespace Cases.Containers;

public sealed class Pair<T>
{
    public Pair(T first, T second)
    {
        First = first;
        Second = second;
    }

    public T First { get; }
    public T Second { get; }
}

public static class Pair
{
    public static Pair<T> Of<T>(T first, T second) => new Pair<T>(first, second);
}

public sealed class Holder
{
    private readonly Stream _stream;

    public Holder(Stream stream) { _stream = stream; }

    public void Use() => _stream.ReadByte();
}

public static class Uses
{
    // CASE: a user pair whose members are both disposed.
    public static void PairDisposed(string a, string b)
    {
        var pair = new Pair<Stream>(File.OpenRead(a), File.OpenRead(b));
        pair.First.Dispose();
        pair.Second.Dispose();
    }

    // CASE: a user pair with one member never disposed: reported at its allocation.
    public static void PairHalfDisposed(string a, string b)
    {
        var pair = new Pair<Stream>(File.OpenRead(a), File.OpenRead(b)); // expect: RLC0001
        pair.First.Dispose();
    }

    // CASE: the same through a factory method.
    public static void FactoryDisposed(string a, string b)
    {
        var pair = Pair.Of(File.OpenRead(a), File.OpenRead(b));
        pair.First.Dispose();
        pair.Second.Dispose();
    }

    // CASE: `Tuple.Create` keeps its arguments as `Item1`, `Item2`.
    public static void TupleCreateDisposed(string a)
    {
        var t = Tuple.Create(File.OpenRead(a), 1);
        Console.WriteLine(t.Item2);
        t.Item1.Dispose();
    }

    // CASE: a `Tuple<,>` dropped with its stream inside.
    public static void TupleConstructorLeaked(string a)
    {
        var t = new Tuple<Stream, int>(File.OpenRead(a), 1); // expect: RLC0001
        Console.WriteLine(t.Item2);
    }

    // CASE: a `KeyValuePair` whose value is disposed.
    public static void KeyValuePairDisposed(string a)
    {
        var kv = new KeyValuePair<string, Stream>(a, File.OpenRead(a));
        kv.Value.Dispose();
    }

    // CASE: a tuple literal kept in a local, its item disposed through it.
    public static void TupleLiteralDisposed(string a)
    {
        var t = (File.OpenRead(a), a);
        t.Item1.Dispose();
    }

    // CASE: named tuple elements are members too.
    public static void NamedTupleDisposed(string a)
    {
        var t = (Stream: File.OpenRead(a), Name: a);
        t.Stream.Dispose();
    }

    // CASE: a tuple element takes the name of the local it was made from (`b.a`).
    public static void InferredElementNameDisposed(string path)
    {
        var a = File.OpenRead(path);
        var b = (a, 0);
        b.a.Dispose();
    }

    // CASE: a tuple assigned to an `out` parameter hands its items to the caller.
    public static void TupleToOut(string path, out (Stream, Stream) pair)
    {
        var a = File.OpenRead(path);
        var b = File.OpenRead(path);
        pair = (a, b);
    }

    // CASE: a tuple local assigned to a `ref` parameter, likewise.
    public static void TupleLocalToRef(string path, ref (Stream, int) pair)
    {
        var a = File.OpenRead(path);
        var t = (a, 1);
        pair = t;
    }

    // CASE: a `WeakReference<T>` lends its target: whoever created it still owns it.
    public static long PeekWeak(WeakReference<Stream> weak)
    {
        return weak.TryGetTarget(out var s) ? s.Length : -1;
    }

    // CASE: a tuple literal dropped with its resource.
    public static void TupleLiteralLeaked(string a)
    {
        var t = (File.OpenRead(a), a); // expect: RLC0001
        Console.WriteLine(t.Item2);
    }

    // CASE: a tuple returned from the method hands its items to the caller.
    public static (Stream, int) TupleReturned(string a)
    {
        var s = File.OpenRead(a);
        var t = (s, 1);
        return t;
    }

    // CASE: nested deconstruction of a literal reads the items themselves: nothing new
    // is allocated at the targets.
    public static void NestedDeconstructionDisposed(string a)
    {
        var s = File.OpenRead(a);
        var ((inner, x), y) = ((s, 0), 1);
        Console.WriteLine(x + y);
        inner.Dispose();
    }

    // CASE: nested deconstruction of a literal where nothing is disposed: reported at
    // the allocation, not at the deconstruction.
    public static void NestedDeconstructionLeaked(string a)
    {
        var s = File.OpenRead(a); // expect: RLC0001
        var ((inner, x), _) = ((s, 0), 1);
        Console.WriteLine(inner.Length + x);
    }

    // CASE: deconstructing a tuple the method borrows allocates nothing.
    public static long DeconstructBorrowed((Stream Stream, int Count) pair)
    {
        var (stream, count) = pair;
        return stream.Length + count;
    }

    // CASE: deconstructing the elements of a dictionary borrows them.
    public static long DeconstructElements(Dictionary<string, Stream> streams)
    {
        long total = 0;
        foreach (var (name, stream) in streams)
        {
            total += stream.Length + name.Length;
        }
        return total;
    }

    // CASE: an anonymous object keeps its members by name.
    public static void AnonymousDisposed(string a)
    {
        var o = new { Stream = File.OpenRead(a), Name = a };
        Console.WriteLine(o.Name);
        o.Stream.Dispose();
    }

    // CASE: a holder that keeps the stream in a plain field does not dispose it: the
    // stream stays ours, and leaks when the holder is dropped.
    public static void HolderDropped(string a)
    {
        var h = new Holder(File.OpenRead(a)); // expect: RLC0001
        h.Use();
    }

    // CASE: the stream disposed beside the holder.
    public static void HolderBeside(string a)
    {
        using var s = File.OpenRead(a);
        var h = new Holder(s);
        h.Use();
    }
}

// CASE: grpc's call objects keep their callback state inside a state struct they make; the
// invoker returns the call, and the stream with it (its dispose callback releases it).
public readonly struct CallState
{
    private readonly Action<object> _dispose;
    private readonly object _state;

    internal CallState(Action<object> dispose, object state)
    {
        _dispose = dispose;
        _state = state;
    }

    public void Release() => _dispose(_state);
}

public sealed class UnaryCall : IDisposable
{
    private readonly CallState _callState;

    public UnaryCall(Action<object> dispose, object state) => _callState = new CallState(dispose, state);

    public void Dispose() => _callState.Release();
}

public static class CallInvoker
{
    public static UnaryCall Start(string path)
    {
        var stream = File.OpenRead(path);
        return new UnaryCall(dispose: s => ((Stream)s).Dispose(), stream);
    }
}
