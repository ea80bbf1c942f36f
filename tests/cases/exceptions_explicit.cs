// Case family: the default exception model, "explicit": exceptional edges are followed
// only inside a user-written `try` that has a `catch` or `finally` (a `using` is not
// one), plus explicit `throw`. Leaks that exist only on exceptional paths are RLC0002.
// The same scenarios appear in exceptions_none.cs and exceptions_all.cs.
// cases: 21
using System;
using System.Collections.Concurrent;
using System.IO;
using RlcSharp.Annotations;

namespace Cases.ExceptionsExplicit;

public static class ExplicitModel
{
    static void Work(Stream s) => s.ReadByte();

    // CASE: no try anywhere: calls are not expected to throw.
    public static void NoTry(string path)
    {
        var fs = File.OpenRead(path);
        Work(fs);
        fs.Dispose();
    }

    // CASE: a catch that returns skips the disposal after the try.
    public static void SwallowingCatch(string path)
    {
        var fs = File.OpenRead(path); // expect: RLC0002
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

    // CASE: disposal in finally.
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

    // CASE: two allocations before a try/finally: the second allocation is outside the
    // try, so it is not expected to throw.
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

    // CASE: an explicit throw between the allocation and the disposal.
    public static void ExplicitThrow(string path)
    {
        var fs = File.OpenRead(path); // expect: RLC0002
        if (fs.Length == 0)
        {
            throw new InvalidDataException("empty file");
        }
        fs.Dispose();
    }

    // CASE: an explicit throw inside a using block: the using disposes.
    public static void ThrowInsideUsing(string path)
    {
        using var fs = File.OpenRead(path);
        if (fs.Length == 0)
        {
            throw new InvalidDataException("empty file");
        }
        Work(fs);
    }

    // CASE: a typed catch that disposes and rethrows; other exception types escape the
    // catch and leak the stream.
    public static Stream TypedCatchRethrow(string path, long offset)
    {
        var fs = File.OpenRead(path); // expect: RLC0002
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

    // CASE: a catch-all that disposes and rethrows.
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

    // CASE: a catch-all whose filter lets only exceptions with a stream to release in
    // (`when (fs != null)`): the others leave with nothing open.
    public static Stream FilteredCatchAllRethrow(string path, long offset)
    {
        FileStream? fs = null;
        try
        {
            fs = File.OpenRead(path);
            fs.Seek(offset, SeekOrigin.Begin);
            return fs;
        }
        catch (Exception) when (fs != null)
        {
            fs.Dispose();
            throw;
        }
    }

    // CASE: a filter that does not test the stream lets exceptions escape with it open.
    public static Stream FilteredOnSomethingElse(string path, long offset, bool log)
    {
        var fs = File.OpenRead(path); // expect: RLC0002
        try
        {
            fs.Seek(offset, SeekOrigin.Begin);
        }
        catch (Exception) when (log)
        {
            fs.Dispose();
            throw;
        }
        return fs;
    }

    // CASE: a second resource inside a using body, disposed after a call: a using is
    // not a user-written try, so the call is not expected to throw.
    public static void InnerResourceInUsingBody(string from, string to)
    {
        using (var input = File.OpenRead(from))
        {
            var output = File.Create(to);
            input.CopyTo(output);
            output.Dispose();
        }
    }

    // CASE: nested try blocks: the inner finally disposes, the outer catch logs.
    public static void NestedTry(string path)
    {
        try
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
        catch (IOException e)
        {
            Console.WriteLine(e.Message);
        }
    }

    // CASE: a resource allocated inside a try/catch and disposed at the end of the try.
    public static void DisposeAtEndOfTry(string path)
    {
        try
        {
            var fs = File.OpenRead(path); // expect: RLC0002
            Work(fs);
            fs.Dispose();
        }
        catch (IOException e)
        {
            Console.WriteLine(e.Message);
        }
    }

    // CASE: a throw in the catch wraps the exception; the catch disposes first.
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

    // CASE: a normal-path leak inside a try is RLC0001, not RLC0002.
    public static void NormalPathLeakInsideTry(string path)
    {
        try
        {
            var fs = File.OpenRead(path); // expect: RLC0001
            Work(fs);
        }
        catch (IOException e)
        {
            Console.WriteLine(e.Message);
        }
    }

    // CASE: a resource handed to a concurrent dictionary's TryAdd inside a try/finally:
    // the add fails only on a null key, so no exception path loses it.
    private static readonly ConcurrentDictionary<string, Stream> OpenFiles = new();

    public static void RegisterInTry(object gate, string path)
    {
        System.Threading.Monitor.Enter(gate);
        try
        {
            var fs = File.OpenRead(path);
            if (!OpenFiles.TryAdd(path, fs))
            {
                fs.Dispose();
            }
        }
        finally
        {
            System.Threading.Monitor.Exit(gate);
        }
    }

    public static void Close(string path)
    {
        if (OpenFiles.TryRemove(path, out var fs))
        {
            fs.Dispose();
        }
    }

    // CASE: a call that may throw between the allocation and the store does lose it.
    public static void WorkBeforeAdd(string path)
    {
        try
        {
            var fs = File.OpenRead(path); // expect: RLC0002
            Work(fs);
            OpenFiles[path] = fs;
        }
        catch (IOException e)
        {
            Console.WriteLine(e.Message);
        }
    }

    // CASE: a throw after the disposal: nothing is left to leak.
    public static void ThrowAfterDispose(string path)
    {
        var fs = File.OpenRead(path);
        var empty = fs.Length == 0;
        fs.Dispose();
        if (empty)
        {
            throw new InvalidDataException("empty file");
        }
    }
}

// CASE: a constructor checks its other arguments before it stores the `[Owning]` one: an
// `ArgumentException` is the caller's bug, not a path the caller could plan a disposal for.
public sealed class Dispatcher : IDisposable
{
    [Owning] private readonly Stream _execution;
    private readonly Action _action;

    public Dispatcher([Owning] Stream execution, Action action, int maxConcurrency)
    {
        if (maxConcurrency <= 0)
        {
            throw new ArgumentOutOfRangeException(nameof(maxConcurrency));
        }
        _execution = execution;
        _action = action ?? throw new ArgumentNullException(nameof(action));
    }

    public void Run() => _action();

    public void Dispose() => _execution.Dispose();
}

// CASE: any other exception before the store leaves the `[Owning]` parameter undisposed.
public sealed class StartedDispatcher : IDisposable
{
    [Owning] private readonly Stream _execution;

    public StartedDispatcher([Owning] Stream execution, bool started) // expect: RLC0002
    {
        if (!started)
        {
            throw new InvalidOperationException("not started");
        }
        _execution = execution;
    }

    public void Dispose() => _execution.Dispose();
}

public static class DisposalsThatCannotThrow
{
    // CASE: a disposal is not where exceptions are expected, even of an object that
    // owes none (`MemoryStream`): a value returned just before a `using` ends is not
    // lost there.
    public static Stream ReturnedBeforeUsingEnds(Stream source, string path)
    {
        try
        {
            using var buffer = new MemoryStream();
            source.CopyTo(buffer);
            return File.OpenRead(path);
        }
        catch (IOException ex)
        {
            throw new InvalidOperationException("unreadable", ex);
        }
    }

}
