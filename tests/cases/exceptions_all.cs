// rlc-case: exception-model=all
// Case family: exception model "all": every call may throw, inside or outside a try.
// Leaks that exist only on exceptional paths are RLC0002. Includes the paper's Fig. 4
// (a leak the Resource Leak Checker found in Hadoop) and its fix.
// cases: 16
using System;
using System.IO;

namespace Cases.ExceptionsAll;

public sealed class FsImage
{
    private readonly string _fileName;

    public FsImage(string fileName)
    {
        _fileName = fileName;
    }

    // CASE: the paper's Fig. 4: if Seek throws, the only reference to the stream is
    // lost (simplified: the wrapping happens in the return statement).
    public Stream GetInputStreamForSection(long offset)
    {
        var fin = new FileStream(_fileName, FileMode.Open, FileAccess.Read); // expect: RLC0002
        fin.Seek(offset, SeekOrigin.Begin);
        return new BufferedStream(fin);
    }

    // CASE: the fix merged into Hadoop: close on failure, return on success.
    public Stream GetInputStreamForSectionFixed(long offset)
    {
        var fin = new FileStream(_fileName, FileMode.Open, FileAccess.Read);
        try
        {
            fin.Seek(offset, SeekOrigin.Begin);
            return new BufferedStream(fin);
        }
        catch
        {
            fin.Dispose();
            throw;
        }
    }
}

public static class AllModel
{
    static void Work(Stream s) => s.ReadByte();

    // CASE: no try: the call between allocation and disposal may throw.
    public static void NoTry(string path)
    {
        var fs = File.OpenRead(path); // expect: RLC0002
        Work(fs);
        fs.Dispose();
    }

    // CASE: using covers every path.
    public static void Using(string path)
    {
        using var fs = File.OpenRead(path);
        Work(fs);
    }

    // CASE: nested using declarations cover every path.
    public static void NestedUsings(string from, string to)
    {
        using var input = File.OpenRead(from);
        using var output = File.Create(to);
        input.CopyTo(output);
    }

    // CASE: try/finally covers every path.
    public static void DisposeInFinally(string path)
    {
        var fs = File.OpenRead(path);
        try
        {
            Work(fs);
        }
        finally
        {
            fs.Dispose();
        }
    }

    // CASE: two allocations before a try/finally: if the second allocation throws, the
    // first stream leaks.
    public static void TwoAllocationsBeforeTry(string a, string b)
    {
        var first = File.OpenRead(a); // expect: RLC0002
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

    // CASE: a second resource inside a using body, disposed after a call.
    public static void InnerResourceInUsingBody(string from, string to)
    {
        using (var input = File.OpenRead(from))
        {
            var output = File.Create(to); // expect: RLC0002
            input.CopyTo(output);
            output.Dispose();
        }
    }

    // CASE: a catch that returns skips the disposal after the try.
    public static void CatchThatReturns(string path)
    {
        var fs = File.OpenRead(path); // expect: RLC0002
        try
        {
            Work(fs);
        }
        catch (Exception)
        {
            return;
        }
        fs.Dispose();
    }

    // CASE: a catch-all that disposes and rethrows, directly after the allocation.
    public static Stream CatchAllRethrow(string path, long offset)
    {
        var fs = File.OpenRead(path);
        try
        {
            fs.Seek(offset, SeekOrigin.Begin);
        }
        catch
        {
            fs.Dispose();
            throw;
        }
        return fs;
    }

    // CASE: returning the allocation directly leaves no call in between.
    public static Stream ReturnDirectly(string path)
    {
        var fs = File.OpenRead(path);
        return fs;
    }

    // CASE: a normal-path leak is RLC0001 even when exceptional paths leak too.
    public static void NormalPathLeak(string path)
    {
        var fs = File.OpenRead(path); // expect: RLC0001
        Work(fs);
    }

    // CASE: Dispose() may itself throw, but the call counts as made.
    public static void DisposeMayThrow(string path)
    {
        var fs = File.OpenRead(path);
        fs.Dispose();
    }

    // CASE: allocation inside the try with a null-checked finally.
    public static void NullCheckedFinally(string path)
    {
        FileStream fs = null;
        try
        {
            fs = File.OpenRead(path);
            Work(fs);
        }
        finally
        {
            fs?.Dispose();
        }
    }

    // CASE: the disposal is the first thing after a call that may throw, with no try.
    public static void CallThenDispose(string path, Action log)
    {
        var fs = File.OpenRead(path); // expect: RLC0002
        log();
        fs.Dispose();
    }

    // CASE: an explicit throw between allocation and disposal.
    public static void ExplicitThrow(string path, bool fail)
    {
        var fs = File.OpenRead(path); // expect: RLC0002
        if (fail)
        {
            throw new InvalidOperationException("failed");
        }
        fs.Dispose();
    }
}
