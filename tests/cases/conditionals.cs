// Case family: conditional flow: `?:`, `??`, `??=`, switch statements (with early
// returns and fall-out paths) and switch expressions. The checker is path-insensitive
// except for null tests and `bool` flags (a variable tested twice, or assigned a constant
// and tested: `if (owns) s.Dispose();`): one allocation is reported once even if it leaks
// on several paths.
// cases: 21
using System;
using System.IO;

namespace Cases.Conditionals;

public static class Conditionals
{
    static Stream TryOpen(string path) => File.Exists(path) ? File.OpenRead(path) : null;

    // CASE: `?:` choosing between two allocations, the result disposed.
    public static int TernaryDisposed(bool first, string a, string b)
    {
        using var s = first ? File.OpenRead(a) : File.OpenRead(b);
        return s.ReadByte();
    }

    // CASE: `?:` between an allocation and a resource-free stream, never disposed.
    public static int TernaryLeaked(bool fromFile, string path, byte[] data)
    {
        Stream s = fromFile ? File.OpenRead(path) : new MemoryStream(data); // expect: RLC0001
        return s.ReadByte();
    }

    // CASE: `?:` choosing which of two streams to dispose: the other one leaks on each path.
    public static void TernaryDisposesOnlyOne(bool pick, string a, string b)
    {
        var first = File.OpenRead(a); // expect: RLC0001
        var second = File.OpenRead(b); // expect: RLC0001
        var chosen = pick ? first : second;
        chosen.Dispose();
    }

    // CASE: `??` with a fallback allocation, disposed.
    public static int CoalesceDisposed(string path, string fallback)
    {
        using var s = TryOpen(path) ?? File.OpenRead(fallback);
        return s.ReadByte();
    }

    // CASE: `??` with a resource-free fallback, never disposed.
    public static int CoalesceLeaked(string path)
    {
        var s = TryOpen(path) ?? Stream.Null; // expect: RLC0001
        return s.ReadByte();
    }

    // CASE: `??=` on a local, then disposed.
    public static int CoalesceAssignDisposed(Stream existing, string path)
    {
        Stream s = null;
        s ??= File.OpenRead(path);
        var b = s.ReadByte() + existing.ReadByte();
        s.Dispose();
        return b;
    }

    // CASE: `??=` on a local that is never disposed.
    public static int CoalesceAssignLeaked(string path)
    {
        Stream s = null;
        s ??= File.OpenRead(path); // expect: RLC0001
        return s.ReadByte();
    }

    // CASE: a switch statement assigning one of several resources, disposed after.
    public static int SwitchAssignThenDispose(int kind, string path)
    {
        Stream s;
        switch (kind)
        {
            case 0:
                s = File.OpenRead(path);
                break;
            case 1:
                s = File.Create(path);
                break;
            default:
                s = null;
                break;
        }
        using (s)
        {
            return s?.ReadByte() ?? -1;
        }
    }

    // CASE: a switch section that returns before the disposal.
    public static int SwitchEarlyReturn(int mode, string path)
    {
        var fs = File.OpenRead(path); // expect: RLC0001
        switch (mode)
        {
            case 0:
                return 0;
            case 1:
                fs.ReadByte();
                break;
        }
        fs.Dispose();
        return 1;
    }

    // CASE: every switch section disposes.
    public static int SwitchAllSectionsDispose(int mode, string path)
    {
        var fs = File.OpenRead(path);
        switch (mode)
        {
            case 0:
                fs.Dispose();
                return 0;
            default:
                var b = fs.ReadByte();
                fs.Dispose();
                return b;
        }
    }

    // CASE: a switch expression with one allocating arm, never disposed.
    public static int SwitchExpressionLeaked(int kind, string path)
    {
        Stream s = kind switch { 1 => File.OpenRead(path), 2 => new MemoryStream(), _ => Stream.Null }; // expect: RLC0001
        return s.ReadByte();
    }

    // CASE: a switch expression under using.
    public static int SwitchExpressionDisposed(string kind, string path)
    {
        using Stream s = kind switch { "read" => File.OpenRead(path), "write" => File.OpenWrite(path), _ => throw new ArgumentException(kind) };
        return s.CanRead ? s.ReadByte() : -1;
    }

    // CASE: a switch expression that picks which stream to return (ownership moves out).
    public static Stream SwitchExpressionReturned(int kind, string a, string b) => kind switch
    {
        0 => File.OpenRead(a),
        _ => File.OpenRead(b),
    };

    // CASE: an if/else where only one branch disposes.
    public static void IfElseOneBranchDisposes(string path, int level)
    {
        var fs = File.OpenRead(path); // expect: RLC0001
        if (level > 2)
        {
            fs.Dispose();
        }
        else
        {
            Console.WriteLine(fs.Length);
        }
    }

    // CASE: correlated conditions are not related by the checker (path-insensitive):
    // this correct code is reported. Rewrite it with a single disposal point.
    public static void CorrelatedConditions(string path, int level)
    {
        Stream s = null;
        if (level > 2)
        {
            s = File.OpenRead(path); // expect: RLC0001
        }
        Console.WriteLine(level);
        if (level > 2)
        {
            s.Dispose();
        }
    }

    // CASE: a flag set where the stream is created says whether to dispose it.
    public static void DisposeIfCreated(Stream output, string path)
    {
        bool owns = false;
        if (output == null)
        {
            output = File.Create(path);
            owns = true;
        }
        output.WriteByte(1);
        if (owns)
            output.Dispose();
    }

    // CASE: the same flag tested the wrong way round leaks the created stream.
    public static void DisposeIfNotCreated(Stream output, string path)
    {
        bool owns = false;
        if (output == null)
        {
            output = File.Create(path); // expect: RLC0001
            owns = true;
        }
        output.WriteByte(1);
        if (!owns)
            output.Dispose();
    }

    // CASE: a `bool` parameter tested where the stream is chosen and where it is disposed.
    public static void SameFlagTwice(bool open, string path)
    {
        var s = open ? File.OpenRead(path) : Stream.Null;
        s.ReadByte();
        if (open)
            s.Dispose();
    }

    // CASE: a flag reassigned between the two tests no longer says what was created.
    public static void FlagReassigned(bool open, string path)
    {
        var s = open ? File.OpenRead(path) : Stream.Null; // expect: RLC0001
        s.ReadByte();
        open = path.Length > 3;
        if (open)
            s.Dispose();
    }

    // CASE: the same logic with one disposal behind a null test verifies.
    public static void SingleDisposalPoint(string path, int level)
    {
        Stream s = null;
        if (level > 2)
        {
            s = File.OpenRead(path);
        }
        Console.WriteLine(level);
        s?.Dispose();
    }

    // CASE: a conditional call target: both arms are disposed through the same alias.
    public static void ConditionalCallResult(bool compress, string path)
    {
        var output = compress ? File.Create(path + ".gz") : File.Create(path);
        output.WriteByte(0);
        output.Dispose();
    }
}
