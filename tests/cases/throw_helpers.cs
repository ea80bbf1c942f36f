// Case family: methods that never return normally. A throw helper (a method whose
// every path throws, or ends in another such call) and a `[DoesNotReturn]` method end
// their caller's path as a `throw` does: `_s ?? Fail()` yields no new value from the
// helper, the code after the call is unreachable, and what is live at the call leaks
// on that exceptional path exactly as at a `throw`. Only calls that bind to one body
// qualify: a virtual method that throws may be overridden by one that returns.
// A call with a `[DoesNotReturnIf(value)]` argument (`Debug.Assert(condition)`) ends
// the path on which the argument has that value.
// cases: 17
using System;
using System.Diagnostics;
using System.Diagnostics.CodeAnalysis;
using System.IO;
using System.Threading;
using RlcSharp.Annotations;

namespace Cases.ThrowHelpers;

public sealed class Holder
{
    private Stream? _s;

    public void Set(Stream s) => _s = s;

    // CASE: a getter that returns a field or throws lends the field; it creates nothing.
    internal Stream Current => _s ?? ThrowNone();

    private static Stream ThrowNone() => throw new InvalidOperationException("none");

    // CASE: the caller of such a getter borrows what it returns.
    public long Length() => Current.Length;

    // CASE: a helper that only calls a throw helper never returns either.
    internal Stream Checked => _s ?? Fail("checked");

    private static Stream Fail(string what)
    {
        ThrowNone();
        return Stream.Null;
    }
}

public static class Callers
{
    [DoesNotReturn]
    private static void Throw(string message) => Environment.FailFast(message);

    private static Stream Unreachable() => throw new NotSupportedException();

    // CASE: `[DoesNotReturn]` on a method: the code after its call is unreachable.
    public static void AfterDoesNotReturn(string path)
    {
        Throw("stop");
        var fs = File.OpenRead(path);
        fs.ReadByte();
    }

    // CASE: a stream open at a throw helper's call leaks on that path, as at a `throw`.
    public static void LiveAtTheHelper(string path, bool bad)
    {
        var fs = File.OpenRead(path); // expect: RLC0002
        if (bad)
            Unreachable();
        fs.Dispose();
    }

    // CASE: disposing before the helper is called is enough.
    public static void DisposedBeforeTheHelper(string path, bool bad)
    {
        var fs = File.OpenRead(path);
        if (bad)
        {
            fs.Dispose();
            Unreachable();
        }
        fs.Dispose();
    }

    // CASE: the result of a helper that never returns is never a resource to dispose.
    public static Stream OrThrow(Stream? s) => s ?? Unreachable();
}

public class Factory
{
    // CASE: a virtual method that throws may be overridden by one that creates.
    protected virtual Stream Create() => throw new NotImplementedException();

    public void Use()
    {
        var s = Create(); // expect: RLC0001
        s.ReadByte();
    }
}

public sealed class Async
{
    private static async System.Threading.Tasks.Task<Stream> FailAsync()
    {
        await System.Threading.Tasks.Task.Yield();
        throw new InvalidOperationException();
    }

    // CASE: an async method that throws returns a faulted task: its call returns.
    public static void NotAwaited(string path)
    {
        var fs = File.OpenRead(path);
        _ = FailAsync();
        fs.Dispose();
    }
}

// CASE: `Debug.Assert(_s == null)` before filling the field: the path where it holds a
// value ends at the assertion, so nothing is overwritten.
public sealed class AssertedEmpty : IDisposable
{
    [Owning] private Stream? _s;

    [CreatesMustCallFor("this")]
    public void Open(string path)
    {
        Debug.Assert(_s == null, "opened twice");
        _s = File.OpenRead(path);
    }

    [Calls("_s", "Dispose")]
    public void Dispose() => _s?.Dispose();
}

// CASE: an assertion about something else says nothing about the field.
public sealed class AssertedOther : IDisposable
{
    [Owning] private Stream? _s;

    [CreatesMustCallFor("this")]
    public void Open(string path)
    {
        Debug.Assert(path != null);
        _s = File.OpenRead(path); // expect: RLC0004
    }

    [Calls("_s", "Dispose")]
    public void Dispose() => _s?.Dispose();
}

public static class Checks
{
    public static void That([DoesNotReturnIf(false)] bool condition)
    {
        if (!condition) Environment.FailFast("check failed");
    }
}

// CASE: the program's own `[DoesNotReturnIf(false)]` method asserts the field is empty.
public sealed class CheckedEmpty : IDisposable
{
    [Owning] private Stream? _s;

    [CreatesMustCallFor("this")]
    public void Open(string path)
    {
        Checks.That(_s == null);
        _s = File.OpenRead(path);
    }

    [Calls("_s", "Dispose")]
    public void Dispose() => _s?.Dispose();
}

public static class Recursion
{
    // CASE: a method that only calls itself never returns, so its "result" is no new value.
    public static void OnlyRecursing()
    {
        var s = Forever();
        s.ReadByte();
    }

    private static Stream Forever() => Forever();

    // CASE: a cycle through overloads is not assumed endless: the analysis may have
    // bound a call to another overload than the compiler would.
    public static void ThroughOverloads(string path)
    {
        var s = Cycle(path); // expect: RLC0001
        s.ReadByte();
    }

    private static Stream Cycle(string path) => Cycle(path, 0);

    private static Stream Cycle(string path, int depth) => Cycle(path);
}

public static class ProcessEnd
{
    // CASE: a call that ends the process (`Environment.Exit`) ends the path with
    // nothing owed: no `finally` runs after it and the system takes back the handle.
    public static void Restart(string name)
    {
        var instance = new Semaphore(0, 1, name, out var created);
        if (!created)
            instance.Release();
        Environment.Exit(0);
    }

    // CASE: `Environment.FailFast` ends the process the same way.
    public static void Abort(string path)
    {
        var log = File.OpenWrite(path);
        log.WriteByte(1);
        Environment.FailFast("corrupt state");
    }

    // CASE: a path that goes on past a conditional exit still owes the handle.
    public static void ExitOnlyOnError(string path, bool failed)
    {
        var log = File.OpenWrite(path); // expect: RLC0001
        if (failed)
            Environment.Exit(1);
        log.WriteByte(1);
    }
}
