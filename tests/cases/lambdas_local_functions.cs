// Case family: lambdas, anonymous methods and local functions. A closure that captures
// a resource discharges it only if its body disposes it on every path; otherwise the
// enclosing method stays responsible. A closure's own allocations are checked in the
// closure's body; a delegate's result is owning like a method's. A method group bound
// to a resource (`Later(s.Dispose)`) is a closure calling that method on it. A closure
// handed to a registration that a `using` disposes (`using (token.Register(s.Dispose))`)
// runs only if the registration fires in that scope: it disposes nothing for sure.
// cases: 25
using System;
using System.IO;
using System.Threading;
using System.Threading.Tasks;
using RlcSharp.Annotations;

namespace Cases.LambdasLocalFunctions;

public static class Lambdas
{
    // CASE: Task.Run with a lambda that owns its resource through `using`.
    public static Task RunWithUsing(string path)
    {
        return Task.Run(() =>
        {
            using var fs = File.OpenRead(path);
            fs.ReadByte();
        });
    }

    // CASE: Task.Run with a lambda that forgets its own resource.
    public static Task RunAndLeak(string path)
    {
        return Task.Run(() =>
        {
            var fs = File.OpenRead(path); // expect: RLC0001
            fs.ReadByte();
        });
    }

    // CASE: a resource captured by a lambda that disposes it on every path.
    public static async Task CapturedAndDisposedInLambda(string path)
    {
        var fs = File.OpenRead(path);
        await Task.Run(() =>
        {
            fs.ReadByte();
            fs.Dispose();
        });
    }

    // CASE: a resource captured by a lambda that only reads it; the method disposes it.
    public static async Task CapturedReadDisposedOutside(string path)
    {
        var fs = File.OpenRead(path);
        await Task.Run(() => fs.ReadByte());
        fs.Dispose();
    }

    // CASE: a resource captured by a lambda that only reads it; nobody disposes it.
    public static async Task CapturedNeverDisposed(string path)
    {
        var fs = File.OpenRead(path); // expect: RLC0001
        await Task.Run(() => fs.ReadByte());
    }

    // CASE: a lambda that disposes the captured resource on one path only.
    public static Action CapturedDisposedConditionally(string path, bool close)
    {
        var fs = File.OpenRead(path); // expect: RLC0001
        return () =>
        {
            if (close)
            {
                fs.Dispose();
            }
        };
    }

    // CASE: a lambda returning a fresh resource is a factory; its invocation is owning.
    public static int DelegateFactoryDisposed(string path)
    {
        Func<Stream> open = () => File.OpenRead(path);
        using var s = open();
        return s.ReadByte();
    }

    // CASE: the result of invoking a factory delegate is dropped.
    public static void DelegateFactoryDiscarded(string path)
    {
        Func<Stream> open = () => File.OpenRead(path);
        open(); // expect: RLC0001
    }

    // CASE: a factory delegate received as a parameter; its result is disposed.
    public static long FactoryParameter(Func<Stream> open)
    {
        using var s = open();
        return s.Length;
    }

    // CASE: an anonymous method that disposes the captured resource.
    public static Action AnonymousMethodDisposes(string path)
    {
        var fs = File.OpenRead(path);
        return delegate { fs.Dispose(); };
    }

    // CASE: a lambda with try/finally that disposes the captured resource on every path.
    public static Func<int> LambdaTryFinally(string path)
    {
        var fs = File.OpenRead(path);
        return () =>
        {
            try
            {
                return fs.ReadByte();
            }
            finally
            {
                fs.Dispose();
            }
        };
    }
}

public static class LocalFunctions
{
    // CASE: a local function used as a factory; its result is disposed.
    public static int LocalFactoryDisposed(string path)
    {
        using var s = Open();
        return s.ReadByte();

        Stream Open() => File.OpenRead(path);
    }

    // CASE: a local function used as a factory; its result is forgotten.
    public static int LocalFactoryLeaked(string path)
    {
        var s = Open(); // expect: RLC0001
        return s.ReadByte();

        Stream Open() => File.OpenRead(path);
    }

    // CASE: a local function that disposes the captured resource on every path.
    public static int LocalFunctionDisposesCapture(string path)
    {
        var fs = File.OpenRead(path);
        void Cleanup()
        {
            fs.Dispose();
        }
        var b = fs.ReadByte();
        Cleanup();
        return b;
    }

    // CASE: a local function that reads the captured resource only.
    public static int LocalFunctionOnlyReads(string path)
    {
        var fs = File.OpenRead(path); // expect: RLC0001
        int Read()
        {
            return fs.ReadByte();
        }
        return Read();
    }

    // CASE: a static local function with an [Owning] parameter.
    public static void StaticLocalOwning(string path)
    {
        Consume(File.OpenRead(path));

        static void Consume([Owning] Stream s)
        {
            s.ReadByte();
            s.Dispose();
        }
    }

    // CASE: a static local function with an [Owning] parameter it forgets.
    public static void StaticLocalOwningLeaks(string path)
    {
        Consume(File.OpenRead(path));

        static void Consume([Owning] Stream s) // expect: RLC0001
        {
            s.ReadByte();
        }
    }

    // CASE: a local function that allocates and disposes its own resource.
    public static long LocalFunctionOwnResource(string[] paths)
    {
        long total = 0;
        foreach (var p in paths)
        {
            total += Size(p);
        }
        return total;

        static long Size(string p)
        {
            using var fs = File.OpenRead(p);
            return fs.Length;
        }
    }

    // CASE: a lambda's `ref` and `out` parameters hand what it assigns them to the
    // caller, who disposes both.
    public static void LambdaRefOutHandsOut(string path)
    {
        OpenPair open = (string p, ref Stream first, out Stream second) =>
        {
            first = File.OpenRead(p);
            second = File.OpenRead(p);
        };
        Stream a = Stream.Null;
        open(path, ref a, out var b);
        a.Dispose();
        b.Dispose();
    }

    // CASE: the caller of such a delegate owns what it gets through `out`.
    public static void LambdaOutForgotten(string path, OpenPair open)
    {
        Stream a = Stream.Null;
        open(path, ref a, out var b); // expect: RLC0001
        a.Dispose();
    }
}

public static class MethodGroups
{
    private static event Action? Exiting;

    public static void Later(Action action) => Exiting += action;

    // CASE: a method group of a must-call method handed over for later
    // (`Register(s.Dispose)`) discharges the resource, as `() => s.Dispose()` does.
    public static void DisposeLater(string path)
    {
        var fs = File.OpenRead(path);
        fs.ReadByte();
        Later(fs.Dispose);
    }

    // CASE: a disposal registered for the span of a `using` only (cancellation while
    // reading) is no disposal: the stream leaks when nothing cancels.
    public static void DisposeOnCancelWhileReading(string path, CancellationToken token)
    {
        var fs = File.OpenRead(path); // expect: RLC0001
        using (token.Register(fs.Dispose))
        {
            fs.ReadByte();
        }
    }

    // CASE: the same with a lambda and a `using` declaration.
    public static void DisposeOnCancelLambda(string path, CancellationToken token)
    {
        var fs = File.OpenRead(path); // expect: RLC0001
        using var registration = token.Register(() => fs.Dispose());
        fs.ReadByte();
    }

    // CASE: a method group of another method disposes nothing.
    public static void FlushLater(string path)
    {
        var fs = File.OpenRead(path); // expect: RLC0001
        Later(fs.Flush);
    }

    // CASE: a method group that makes a resource: what the delegate returns is its
    // caller's.
    public static long OpenThroughGroup(Opener opener)
    {
        Func<Stream> open = opener.Open;
        using var s = open();
        var leaked = open(); // expect: RLC0001
        return s.Length + leaked.Length;
    }
}

public sealed class Opener
{
    public Stream Open() => new MemoryStream();
}

public delegate void OpenPair(string path, ref Stream first, out Stream second);
