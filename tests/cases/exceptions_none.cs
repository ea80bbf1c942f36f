// rlc-case: exception-model=none
// Case family: exception model "none": calls never throw; only explicit `throw`
// statements leave along an exceptional edge. Compare exceptions_explicit.cs.
// cases: 12
using System;
using System.IO;

namespace Cases.ExceptionsNone;

public static class NoneModel
{
    static void Work(Stream s) => s.ReadByte();

    // CASE: no try: nothing to report.
    public static void NoTry(string path)
    {
        var fs = File.OpenRead(path);
        Work(fs);
        fs.Dispose();
    }

    // CASE: a catch that returns is unreachable when calls do not throw.
    public static void CatchThatReturns(string path)
    {
        var fs = File.OpenRead(path);
        try
        {
            Work(fs);
        }
        catch (Exception)
        {
            Console.WriteLine("ignored");
            return;
        }
        fs.Dispose();
    }

    // CASE: a typed catch that disposes and rethrows is unreachable too.
    public static Stream TypedCatchRethrow(string path, long offset)
    {
        var fs = File.OpenRead(path);
        try
        {
            fs.Seek(offset, SeekOrigin.Begin);
        }
        catch (IOException)
        {
            fs.Dispose();
            throw;
        }
        return fs;
    }

    // CASE: disposal at the end of a try with a catch.
    public static void DisposeAtEndOfTry(string path)
    {
        try
        {
            var fs = File.OpenRead(path);
            Work(fs);
            fs.Dispose();
        }
        catch (IOException e)
        {
            Console.WriteLine(e.Message);
        }
    }

    // CASE: an explicit throw still leaves the method: the stream leaks on that path.
    public static void ExplicitThrow(string path)
    {
        var fs = File.OpenRead(path); // expect: RLC0002
        if (fs.Length == 0)
        {
            throw new InvalidDataException("empty file");
        }
        fs.Dispose();
    }

    // CASE: an explicit throw inside a try whose finally disposes.
    public static void ThrowInsideTryFinally(string path)
    {
        var fs = File.OpenRead(path);
        try
        {
            if (fs.Length == 0)
            {
                throw new InvalidDataException("empty file");
            }
            Work(fs);
        }
        finally
        {
            fs.Dispose();
        }
    }

    // CASE: an explicit throw caught by a local catch; the disposal after the try
    // is reached from both.
    public static void ThrowCaughtLocally(string path)
    {
        var fs = File.OpenRead(path);
        try
        {
            if (fs.Length == 0)
            {
                throw new InvalidDataException("empty file");
            }
            Work(fs);
        }
        catch (Exception e)
        {
            Console.WriteLine(e.Message);
        }
        fs.Dispose();
    }

    // CASE: a normal-path leak is still reported.
    public static void NormalPathLeak(string path)
    {
        var fs = File.OpenRead(path); // expect: RLC0001
        Work(fs);
    }

    // CASE: disposed only in a catch: the normal path leaks.
    public static void DisposeInCatchOnly(string path)
    {
        var fs = File.OpenRead(path); // expect: RLC0001
        try
        {
            Work(fs);
        }
        catch
        {
            fs.Dispose();
            throw;
        }
    }

    // CASE: two allocations before a try/finally.
    public static void TwoAllocationsBeforeTry(string a, string b)
    {
        var first = File.OpenRead(a);
        var second = File.OpenRead(b);
        try
        {
            first.CopyTo(second);
        }
        finally
        {
            first.Dispose();
            second.Dispose();
        }
    }

    // CASE: a second resource inside a using body.
    public static void InnerResourceInUsingBody(string from, string to)
    {
        using (var input = File.OpenRead(from))
        {
            var output = File.Create(to);
            input.CopyTo(output);
            output.Dispose();
        }
    }

    // CASE: a rethrow from a catch that disposes first.
    public static void WrapAndRethrow(string path)
    {
        var fs = File.OpenRead(path);
        try
        {
            Work(fs);
        }
        catch (Exception e)
        {
            fs.Dispose();
            throw new InvalidOperationException("failed", e);
        }
        fs.Dispose();
    }
}
