// Case family: tuples and deconstruction. Tuple elements are tracked one by one: a
// tuple literal of resources returned from a method hands each element to the caller,
// and deconstructing the result of an owning call gives the caller one obligation per
// element (reported at the call).
// cases: 9
using System;
using System.IO;

namespace Cases.TuplesDeconstruction;

public static class Tuples
{
    // CASE: returning a tuple of fresh resources.
    public static (Stream Input, Stream Output) OpenPair(string from, string to)
    {
        return (File.OpenRead(from), File.Create(to));
    }

    // CASE: deconstructing the pair and disposing both.
    public static void DeconstructAndDispose(string from, string to)
    {
        var (input, output) = OpenPair(from, to);
        using (input)
        using (output)
        {
            input.CopyTo(output);
        }
    }

    // CASE: deconstructing the pair and disposing only one element.
    public static void DeconstructDisposeOne(string from, string to)
    {
        var (input, output) = OpenPair(from, to); // expect: RLC0001
        input.CopyTo(output);
        input.Dispose();
    }

    // CASE: deconstructing with a discard: the discarded element leaks.
    public static int DeconstructWithDiscard(string from, string to)
    {
        var (input, _) = OpenPair(from, to); // expect: RLC0001
        using (input)
        {
            return input.ReadByte();
        }
    }

    // CASE: deconstructing a tuple literal into two locals, both disposed.
    public static void LiteralDeconstructionDisposed(string a, string b)
    {
        var (first, second) = (File.OpenRead(a), File.OpenRead(b));
        first.CopyTo(second);
        first.Dispose();
        second.Dispose();
    }

    // CASE: deconstructing a tuple literal into two locals, neither disposed: two
    // allocations, two reports on the same line.
    public static void LiteralDeconstructionLeaked(string a, string b)
    {
        var (first, second) = (File.OpenRead(a), File.OpenRead(b)); // expect: RLC0001, RLC0001
        first.CopyTo(second);
    }

    // CASE: a swap through tuple assignment keeps both aliases.
    public static void SwapThenDispose(string a, string b)
    {
        Stream x = File.OpenRead(a);
        Stream y = File.OpenRead(b);
        (x, y) = (y, x);
        x.Dispose();
        y.Dispose();
    }

    // CASE: a tuple with a resource and a plain value, the resource disposed.
    public static long MixedTuple(string path)
    {
        var (stream, name) = (File.OpenRead(path), Path.GetFileName(path));
        Console.WriteLine(name);
        using (stream)
        {
            return stream.Length;
        }
    }

    // CASE: returning a tuple that contains a local resource and a length.
    public static (Stream Stream, long Length) OpenWithLength(string path)
    {
        var fs = File.OpenRead(path);
        return (fs, fs.Length);
    }
}
