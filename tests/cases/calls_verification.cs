// Case family: [Calls] postconditions: checked against the method body on every path
// that returns normally (RLC0006 at the method), and trusted at call sites.
// cases: 16
using System;
using System.IO;
using RlcSharp.Annotations;

namespace Cases.CallsVerification;

public static class Helpers
{
    // CASE: disposing a parameter inside try/catch: a call counts even if it throws.
    [Calls("#0", "Dispose")]
    public static void CloseQuietly(IDisposable resource)
    {
        try
        {
            resource.Dispose();
        }
        catch (IOException)
        {
        }
    }

    // CASE: the parameter named by its name; disposed only when asked.
    [Calls("resource", "Dispose")]
    public static void CloseIf(IDisposable resource, bool really) // expect: RLC0006
    {
        if (really)
        {
            resource.Dispose();
        }
    }

    // CASE: any one of the listed methods is enough.
    [Calls("stream", "Dispose", "Close")]
    public static void Finish(Stream stream)
    {
        stream.Flush();
        stream.Close();
    }

    // CASE: a null-conditional call satisfies the postcondition (null needs nothing).
    [Calls("#0", "Dispose")]
    public static void DisposeIfNotNull(IDisposable resource)
    {
        resource?.Dispose();
    }

    // CASE: `using` on a parameter disposes it.
    [Calls("#0", "Dispose")]
    public static long DrainAndClose(Stream stream)
    {
        using (stream)
        {
            return stream.Length;
        }
    }

    // CASE: a path that throws does not return normally, so it need not dispose.
    [Calls("#0", "Dispose")]
    public static void CloseOrThrow(Stream stream)
    {
        if (!stream.CanRead)
        {
            throw new ArgumentException("not readable", nameof(stream));
        }
        stream.Dispose();
    }

    // CASE: delegating to a helper with an unannotated parameter promises nothing.
    [Calls("#0", "Dispose")]
    public static void DelegatesToUnannotated(Stream stream) // expect: RLC0006
    {
        DisposeUnannotated(stream);
    }

    // CASE: delegating to a helper with [Calls] is verified through the helper's spec.
    [Calls("#0", "Dispose")]
    public static void DelegatesToAnnotated(Stream stream)
    {
        CloseQuietly(stream);
    }

    // CASE: a catch that swallows an exception from an earlier call returns normally
    // without the disposal.
    [Calls("#0", "Dispose")]
    public static void SwallowedBeforeDispose(Stream stream) // expect: RLC0006
    {
        try
        {
            stream.Flush();
            stream.Dispose();
        }
        catch (IOException)
        {
        }
    }

    // CASE: disposal in finally covers the path through the catch.
    [Calls("#0", "Dispose")]
    public static void FinallyAfterCatch(Stream stream)
    {
        try
        {
            stream.Flush();
        }
        catch (IOException)
        {
        }
        finally
        {
            stream.Dispose();
        }
    }

    private static void DisposeUnannotated(Stream stream) => stream.Dispose();
}

public sealed class Service : IDisposable
{
    [Owning] private readonly FileStream _fs;

    public Service(string path)
    {
        _fs = File.OpenRead(path);
    }

    // CASE: [Calls("this", ..)] on a method that calls Dispose() on this.
    [Calls("this", "Dispose")]
    public void Shutdown()
    {
        Console.WriteLine("shutting down");
        Dispose();
    }

    // CASE: a field disposed through a helper whose [Calls] names its parameter.
    [Calls("_fs", "Dispose")]
    public void Dispose() => Helpers.CloseQuietly(_fs);
}

// CASE: [Calls] that names a method other than the field's obligation: verified as
// written, but it does not cover the owning field.
public sealed class WrongMethodNamed : IDisposable
{
    [Owning] private readonly FileStream _fs; // expect: RLC0003

    public WrongMethodNamed(string path)
    {
        _fs = File.OpenRead(path);
    }

    [Calls("_fs", "Flush")]
    public void Dispose() => _fs.Flush();
}

public static class CallSites
{
    // CASE: a call to a [Calls] helper discharges the argument.
    public static void DischargedByHelper(string path)
    {
        var fs = File.OpenRead(path);
        fs.ReadByte();
        Helpers.CloseQuietly(fs);
    }

    // CASE: calling a [Calls("this", ..)] method discharges the receiver.
    public static void DischargedByShutdown(string path)
    {
        var svc = new Service(path);
        svc.Shutdown();
    }

    // CASE: a helper whose [Calls] is not verified is still trusted at the call site
    // (the error is reported once, at the helper).
    public static void TrustsUnverifiedHelper(string path)
    {
        var fs = File.OpenRead(path);
        Helpers.CloseIf(fs, false);
    }
}
