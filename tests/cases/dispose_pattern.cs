// Case family: the .NET dispose pattern, `Dispose()` calling `Dispose(bool disposing)`.
// Rule: a [Calls] on `Dispose(bool disposing)` is verified on the paths where `disposing`
// is true, and a call `Dispose(true)` guarantees it (`Dispose(false)` does not). A class
// whose must-call method `Dispose()` is inherited and calls `Dispose(true)` is checked
// against the [Calls] of its own `Dispose(bool)` override. A `Dispose()` that only calls
// another method of its class (`Dispose() => Close();`, also with arguments other than a
// flag: `CloseAsync(reason)`) makes that method a disposal method too, and so does a
// method that only calls `Dispose()` or `DisposeAsync()`; an interface method that every
// implementation makes one is one of the interface's; an implementation's method is one
// too when it and `Dispose()` forward to the same field, `Dispose()` with its disposal and
// the method with one that is a disposal method on the field's type (the interface's own,
// read as a greatest fixed point), or when `Dispose()` does nothing.
// A class whose base is a type rlc-sharp does not know (WinForms' `Form` without its
// reference assemblies) but which overrides `Dispose(bool)` is disposable: the override
// is the dispose pattern of its base. An inherited must-call method that calls a
// virtual method of its class (a hook: `DisposeScope()`, an abstract `Close()`) disposes
// the fields that the subclass's override of that hook disposes.
// cases: 27
using System;
using System.IO;
using System.Threading;
using System.Threading.Tasks;
using RlcSharp.Annotations;

namespace Cases.DisposePattern;

// CASE: the standard pattern, both methods annotated.
public class StandardPattern : IDisposable
{
    [Owning] protected readonly FileStream _fs;

    public StandardPattern(string path)
    {
        _fs = File.OpenRead(path);
    }

    [Calls("_fs", "Dispose")]
    public void Dispose()
    {
        Dispose(true);
        GC.SuppressFinalize(this);
    }

    [Calls("_fs", "Dispose")]
    protected virtual void Dispose(bool disposing)
    {
        if (disposing)
        {
            _fs.Dispose();
        }
    }
}

// CASE: a finalizer calling Dispose(false) has no obligation to meet.
public sealed class WithFinalizer : IDisposable
{
    [Owning] private readonly FileStream _fs;

    public WithFinalizer(string path)
    {
        _fs = File.OpenRead(path);
    }

    ~WithFinalizer()
    {
        Dispose(false);
    }

    [Calls("_fs", "Dispose")]
    public void Dispose()
    {
        Dispose(true);
        GC.SuppressFinalize(this);
    }

    [Calls("_fs", "Dispose")]
    private void Dispose(bool disposing)
    {
        if (disposing)
        {
            _fs?.Dispose();
        }
    }
}

// CASE: the template Visual Studio generates, with a "disposed" flag: the path that skips
// the disposal is a second call's, and the guarantee is about the first: no RLC0006.
public sealed class DisposedFlagTemplate : IDisposable
{
    [Owning] private readonly FileStream _fs;
    private bool _disposedValue;

    public DisposedFlagTemplate(string path)
    {
        _fs = File.OpenRead(path);
    }

    [Calls("_fs", "Dispose")]
    private void Dispose(bool disposing)
    {
        if (!_disposedValue)
        {
            if (disposing)
            {
                _fs.Dispose();
            }
            _disposedValue = true;
        }
    }

    [Calls("_fs", "Dispose")]
    public void Dispose()
    {
        Dispose(disposing: true);
        GC.SuppressFinalize(this);
    }
}

// CASE: Dispose(bool) promises the field's disposal but never does it.
public sealed class DisposeBoolForgetsField : IDisposable
{
    [Owning] private readonly FileStream _fs;

    public DisposeBoolForgetsField(string path)
    {
        _fs = File.OpenRead(path);
    }

    [Calls("_fs", "Dispose")]
    public void Dispose() => Dispose(true);

    [Calls("_fs", "Dispose")]
    private void Dispose(bool disposing) // expect: RLC0006
    {
        if (disposing)
        {
            _fs.Flush();
        }
    }
}

// CASE: Dispose() passes false by mistake: its own [Calls] is not guaranteed.
public sealed class DisposePassesFalse : IDisposable
{
    [Owning] private readonly FileStream _fs;

    public DisposePassesFalse(string path)
    {
        _fs = File.OpenRead(path);
    }

    [Calls("_fs", "Dispose")]
    public void Dispose() => Dispose(false); // expect: RLC0006

    [Calls("_fs", "Dispose")]
    private void Dispose(bool disposing)
    {
        if (disposing)
        {
            _fs.Dispose();
        }
    }
}

// CASE: only Dispose() is annotated: with inference off, Dispose(bool) promises nothing,
// so the [Calls] of Dispose() cannot be verified (modular checking).
public sealed class OnlyOuterAnnotated : IDisposable
{
    [Owning] private readonly FileStream _fs;

    public OnlyOuterAnnotated(string path)
    {
        _fs = File.OpenRead(path);
    }

    [Calls("_fs", "Dispose")]
    public void Dispose() => Dispose(true); // expect: RLC0006

    private void Dispose(bool disposing)
    {
        if (disposing)
        {
            _fs.Dispose();
        }
    }
}

// CASE: a derived class adds an owning field and overrides Dispose(bool), restating
// the base's [Calls] (it calls base.Dispose(disposing)) and adding its own.
public class DerivedAddsField : StandardPattern
{
    [Owning] private readonly FileStream _extra;

    public DerivedAddsField(string path, string extra) : base(path)
    {
        _extra = File.OpenRead(extra);
    }

    [Calls("_fs", "Dispose")]
    [Calls("_extra", "Dispose")]
    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            _extra.Dispose();
        }
        base.Dispose(disposing);
    }
}

// CASE: the override drops the base's [Calls]: it weakens the overridden spec.
public class DerivedDropsBaseCalls : StandardPattern
{
    [Owning] private readonly FileStream _extra;

    public DerivedDropsBaseCalls(string path, string extra) : base(path)
    {
        _extra = File.OpenRead(extra);
    }

    [Calls("_extra", "Dispose")]
    protected override void Dispose(bool disposing) // expect: RLC0008
    {
        if (disposing)
        {
            _extra.Dispose();
        }
        base.Dispose(disposing);
    }
}

// CASE: the override disposes its new field but does not declare it in [Calls]: the
// class check verifies Dispose(bool)'s body, which disposes it.
public class DerivedFieldNotDeclared : StandardPattern
{
    [Owning] private readonly FileStream _extra;

    public DerivedFieldNotDeclared(string path, string extra) : base(path)
    {
        _extra = File.OpenRead(extra);
    }

    [Calls("_fs", "Dispose")]
    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            _extra.Dispose();
        }
        base.Dispose(disposing);
    }
}

// CASE: a derived class without new fields needs no override.
public sealed class DerivedNoNewFields : StandardPattern
{
    public DerivedNoNewFields(string path) : base(path)
    {
    }

    public int Peek() => _fs.ReadByte();
}

// CASE: a non-virtual `Dispose()` calls a virtual hook, which the subclass overrides to
// dispose its field.
public abstract class Scope : IDisposable
{
    protected virtual void DisposeScope() { }

    public void Dispose()
    {
        DisposeScope();
        GC.SuppressFinalize(this);
    }
}

public sealed class FileScope : Scope
{
    [Owning] private readonly FileStream _file;

    public FileScope(string path) => _file = File.OpenRead(path);

    protected override void DisposeScope() => _file.Dispose();
}

// CASE: the base's `Dispose(bool)` calls an abstract `Close()`, which the subclass
// implements by closing its field.
public abstract class RecordWriter : IDisposable
{
    private bool _disposed;

    public abstract void Close();

    protected virtual void Dispose(bool disposing)
    {
        if (!_disposed)
        {
            if (disposing)
            {
                Close();
            }
            _disposed = true;
        }
    }

    public void Dispose()
    {
        Dispose(true);
        GC.SuppressFinalize(this);
    }
}

public sealed class FileRecordWriter : RecordWriter
{
    [Owning] private readonly StreamWriter _writer;

    public FileRecordWriter(string path) => _writer = new StreamWriter(path);

    public override void Close() => _writer.Close();
}

// CASE: an override of the hook that leaves the field alone does not dispose it.
public sealed class LeakyScope : Scope
{
    [Owning] private readonly FileStream _file; // expect: RLC0003

    public LeakyScope(string path) => _file = File.OpenRead(path);

    protected override void DisposeScope() => _file.Flush();
}

public static class Users
{
    // CASE: users of the pattern: the derived object under `using` is discharged, the
    // other one is never disposed.
    public static void UseDerived(string a, string b)
    {
        using var d = new DerivedAddsField(a, b);
        var plain = new DerivedNoNewFields(a); // expect: RLC0001
        plain.Peek();
    }
}

public sealed class Connection : IDisposable
{
    [Owning] private readonly Stream _stream;

    public Connection(string path) => _stream = File.OpenRead(path);

    [Calls("_stream", "Dispose")]
    public void Close() => _stream.Dispose();

    [Calls("_stream", "Dispose")]
    public void Dispose() => Close();

    // CASE: `Close()`, which `Dispose()` only delegates to, releases the connection.
    public static void ClosedNotDisposed(string path)
    {
        var c = new Connection(path);
        c.Close();
    }
}

public sealed class Session : IDisposable
{
    [Owning] private readonly Stream _stream;

    public Session(string path) => _stream = File.OpenRead(path);

    public void Stop() => Console.WriteLine("stopping");

    [Calls("_stream", "Dispose")]
    public void Dispose()
    {
        Stop();
        _stream.Dispose();
    }

    // CASE: a method `Dispose()` calls among other work does not release it.
    public static void StoppedNotDisposed(string path)
    {
        var s = new Session(path); // expect: RLC0001
        s.Stop();
    }
}

public sealed class Link : IAsyncDisposable
{
    [Owning] private readonly Stream _stream;

    public Link(string path) => _stream = File.OpenRead(path);

    // Only disposes the link: calling it releases it.
    public async Task CloseAsync(CancellationToken token) => await DisposeAsync();

    [Calls("_stream", "DisposeAsync")]
    public async ValueTask DisposeAsync() => await _stream.DisposeAsync();

    // CASE: a method that only calls `DisposeAsync()` on its own object releases it.
    public static async Task ClosedAsync(string path, CancellationToken token)
    {
        var link = new Link(path);
        await link.CloseAsync(token);
    }

    // CASE: ... and is no release when it is never called.
    public static void NeverClosed(string path)
    {
        var link = new Link(path); // expect: RLC0001
        Console.WriteLine(link);
    }
}


// CASE: a designer class over an unknown base disposes its `components` in its
// `Dispose(bool)` override: nothing to report about the field.
public partial class DesignerForm : System.Windows.Forms.Form
{
    [Owning] private System.ComponentModel.IContainer components = null;

    public DesignerForm() { components = new System.ComponentModel.Container(); }

    protected override void Dispose(bool disposing)
    {
        if (disposing && (components != null))
        {
            components.Dispose();
        }
        base.Dispose(disposing);
    }
}

// CASE: the same override that forgets a field it owns.
public partial class ForgetfulForm : System.Windows.Forms.Form
{
    [Owning] private System.ComponentModel.IContainer components = null;
    [Owning] private readonly FileStream _log = File.OpenWrite("form.log"); // expect: RLC0003

    public ForgetfulForm() { components = new System.ComponentModel.Container(); }

    protected override void Dispose(bool disposing)
    {
        if (disposing && (components != null))
        {
            components.Dispose();
        }
        base.Dispose(disposing);
    }
}

public enum CloseReason
{
    Local,
    ProtocolError,
}

public interface IChannel : IAsyncDisposable
{
    ValueTask CloseAsync(CloseReason reason);

    ValueTask SendAsync(byte[] data);
}

public sealed class FileChannel : IChannel
{
    [Owning] private readonly Stream _file = File.OpenWrite("out");

    [Calls("_file", "Dispose")]
    public ValueTask CloseAsync(CloseReason reason)
    {
        _file.Dispose();
        return default;
    }

    public ValueTask SendAsync(byte[] data) => _file.WriteAsync(data);

    public ValueTask DisposeAsync() => CloseAsync(CloseReason.Local);

    // CASE: `DisposeAsync()` only calls `CloseAsync(reason)`, in every implementation of
    // the interface: closing through the interface with any reason releases the channel.
    public static async Task<bool> Handshake(Func<IChannel> open, bool accepted)
    {
        var channel = open();
        await channel.SendAsync(new byte[] { 5 });
        if (!accepted)
        {
            await channel.CloseAsync(CloseReason.ProtocolError);
            return false;
        }
        await channel.DisposeAsync();
        return true;
    }
}

// A handle released by `Disconnect()`: every implementation's `Dispose()` does what its
// `Disconnect()` does (calls it, forwards to the same field, or does nothing).
public interface IConnectHandle : IDisposable
{
    void Disconnect();
}

public interface IRequestHandle : IConnectHandle
{
    void Cancel();
}

public sealed class RemoveKeyHandle : IConnectHandle
{
    private readonly Action<string> _remove;
    private readonly string _key;

    public RemoveKeyHandle(string key, Action<string> remove)
    {
        _key = key;
        _remove = remove;
    }

    public void Disconnect() => _remove(_key);

    public void Dispose() => Disconnect();
}

public sealed class EmptyConnectHandle : IConnectHandle
{
    public void Dispose() { }

    public void Disconnect() { }
}

public sealed class ForwardingRequestHandle : IRequestHandle
{
    private readonly IConnectHandle _handle;

    public ForwardingRequestHandle(IConnectHandle handle) { _handle = handle; }

    public void Cancel() { }

    public void Disconnect() => _handle.Disconnect();

    public void Dispose() => _handle.Dispose();
}

public sealed class RequestClient : IDisposable
{
    private readonly System.Collections.Generic.Dictionary<Type, IRequestHandle> _handlers = new();

    // CASE: `Disconnect()` on the interface releases a handle whose implementations'
    // `Dispose()` only calls `Disconnect()`, does nothing, or forwards to a field whose
    // `Disconnect()` does the same; also for every element of a collection.
    public void Add(Func<IConnectHandle> connect)
    {
        var handle = new ForwardingRequestHandle(connect());
        _handlers.Add(typeof(Exception), handle);
    }

    public static void Once(Func<IConnectHandle> connect)
    {
        var handle = connect();
        handle.Disconnect();
    }

    public void Dispose()
    {
        foreach (var handle in _handlers.Values)
        {
            handle.Cancel();
            handle.Disconnect();
        }
    }
}

public interface ISubscription : IDisposable
{
    void Unsubscribe();
}

public sealed class LoggedSubscription : ISubscription
{
    [Owning] private readonly Stream _log = File.OpenWrite("sub.log");

    public void Unsubscribe() { }

    [Calls("_log", "Dispose")]
    public void Dispose()
    {
        Unsubscribe();
        _log.Dispose();
    }

    // CASE: an implementation whose `Dispose()` does more than `Unsubscribe()`: unsubscribing
    // through the interface does not release it.
    public static void Leave(Func<ISubscription> subscribe)
    {
        var s = subscribe(); // expect: RLC0001
        s.Unsubscribe();
    }
}

public interface IDetachable : IDisposable
{
    void Detach();
}

public sealed class DetachableFile : FileStream, IDetachable
{
    public DetachableFile(string path) : base(path, FileMode.Open) { }

    public void Detach() { }

    // CASE: an implementation whose `Dispose()` the program does not hold (inherited from
    // `FileStream`): detaching through the interface does not release it.
    public static void Leave(Func<IDetachable> open)
    {
        var d = open(); // expect: RLC0001
        d.Detach();
    }
}

public interface IPausable : IDisposable
{
    void Pause();
}

public sealed class TwoStreams : IPausable
{
    private readonly IPausable _first;
    private readonly IPausable _second;

    public TwoStreams(IPausable first, IPausable second)
    {
        _first = first;
        _second = second;
    }

    public void Pause() => _first.Pause();

    public void Dispose() => _second.Dispose();

    // CASE: `Dispose()` and `Pause()` forward to different fields: pausing through the
    // interface does not release it.
    public static void Leave(Func<IPausable> open)
    {
        var p = open(); // expect: RLC0001
        p.Pause();
    }
}

// CASE: fields disposed only when `disposing` is true and cleared on every path: clearing
// them on the finalizer's path (`disposing == false`), where managed resources are left
// to their own finalizers, loses nothing.
public class ClearsAfterDisposing : IDisposable
{
    [Owning] private FileStream? _log = File.OpenWrite("log");
    private bool _disposed;

    [Calls("_log", "Dispose")]
    public void Dispose()
    {
        Dispose(true);
        GC.SuppressFinalize(this);
    }

    [Calls("_log", "Dispose")]
    protected virtual void Dispose(bool disposing)
    {
        if (_disposed)
            return;
        if (disposing)
            _log?.Dispose();
        _log = null;
        _disposed = true;
    }
}

// CASE: ... but a field cleared without being disposed when `disposing` is true is lost.
public class ClearsWithoutDisposing : IDisposable
{
    [Owning] private FileStream? _log = File.OpenWrite("log"); // expect: RLC0003

    public void Dispose()
    {
        Dispose(true);
        GC.SuppressFinalize(this);
    }

    protected virtual void Dispose(bool disposing)
    {
        _log = null; // expect: RLC0004
    }
}
