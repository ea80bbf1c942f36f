// Case family: GC handles and pointers in interop code. A `GCHandle` must be freed
// (`Free()`); one handed to native code with `GCHandle.ToIntPtr` is owned by that code
// until `GCHandle.FromIntPtr(p).Free()` gives it back and frees it. Writes through a
// pointer (`*(p + 1) = v;`, `*p++ = v;`) are analysed like any statement. A test of
// whether the handle still holds anything (`if (h.IsAllocated) h.Free();`,
// `if (!handle.IsClosed) handle.Dispose();`) owes nothing on its released branch. A
// resource a handle roots (`GCHandle.Alloc(state)`) goes with the handle: the code that
// frees the handle disposes its `Target`.
// cases: 11
using System;
using System.IO;
using System.Runtime.InteropServices;
using RlcSharp.Annotations;

namespace Cases.NativeHandles;

public sealed unsafe class NativeCallbacks
{
    private IntPtr _data;

    // CASE: a handle handed to native code as an `IntPtr` is owned by that code.
    public void Register()
    {
        GCHandle handle = GCHandle.Alloc(this, GCHandleType.Normal);
        _data = GCHandle.ToIntPtr(handle);
    }

    // CASE: the handle taken back from native code is freed there; it is borrowed.
    public void OnClose()
    {
        if (_data != IntPtr.Zero)
        {
            GCHandle.FromIntPtr(_data).Free();
            _data = IntPtr.Zero;
        }
    }

    // CASE: a pinned handle never freed leaks the pinned memory.
    public static IntPtr Pin(byte[] buffer)
    {
        GCHandle pinned = GCHandle.Alloc(buffer, GCHandleType.Pinned); // expect: RLC0001
        return pinned.AddrOfPinnedObject();
    }

    // CASE: statements writing through a pointer expression do not hide the method.
    public static void Fill(byte* p, string path)
    {
        var fs = new FileStream(path, FileMode.Create); // expect: RLC0001
        *(p + 1) = 1;
        *p++ = 2;
        fs.WriteByte(*p);
    }

    // CASE: the same with the stream disposed.
    public static void FillAndClose(byte* p, string path)
    {
        using var fs = new FileStream(path, FileMode.Create);
        *(p + 1) = 1;
        *p++ = 2;
        fs.WriteByte(*p);
    }
}

public sealed class PinnedScratch : IDisposable
{
    private static readonly byte[] Buffer = new byte[64];
    [Owning] private GCHandle _pin;

    public PinnedScratch() { _pin = GCHandle.Alloc(Buffer, GCHandleType.Pinned); }

    public IntPtr Address => _pin.AddrOfPinnedObject();

    // CASE: the standard guard frees the handle whenever it holds one.
    [Calls("_pin", "Free")]
    public void Dispose()
    {
        if (_pin.IsAllocated)
        {
            _pin.Free();
        }
    }
}

public sealed class PinnedScratchWrongGuard : IDisposable
{
    private static readonly byte[] Buffer = new byte[64];
    [Owning] private GCHandle _pin;

    public PinnedScratchWrongGuard() { _pin = GCHandle.Alloc(Buffer, GCHandleType.Pinned); }

    public IntPtr Address => _pin.AddrOfPinnedObject();

    // CASE: the inverted guard frees only a handle that holds nothing.
    [Calls("_pin", "Free")]
    public void Dispose() // expect: RLC0006
    {
        if (!_pin.IsAllocated)
        {
            _pin.Free();
        }
    }
}

public static class HandleGuards
{
    // CASE: a local handle freed under the guard.
    public static void PinBriefly(byte[] buffer)
    {
        var h = GCHandle.Alloc(buffer, GCHandleType.Pinned);
        Console.WriteLine(h.AddrOfPinnedObject());
        if (h.IsAllocated) h.Free();
    }

    // CASE: a safe handle disposed unless it is already closed.
    public static void CloseUnlessClosed(string path)
    {
        var handle = File.OpenHandle(path);
        Console.WriteLine(handle.DangerousGetHandle());
        if (!handle.IsClosed) handle.Dispose();
    }

    // CASE: a resource rooted by a handle handed to native code goes with it; the native
    // destroy callback disposes `GCHandle.FromIntPtr(p).Target` and frees the handle.
    public static void HandToNative(string path, Action<IntPtr> setState)
    {
        var state = File.OpenRead(path);
        setState(GCHandle.ToIntPtr(GCHandle.Alloc(state)));
    }

    // CASE: disposed only when closed: the open handle leaks.
    public static void CloseOnlyWhenClosed(string path)
    {
        var handle = File.OpenHandle(path); // expect: RLC0001
        Console.WriteLine(handle.DangerousGetHandle());
        if (handle.IsClosed) handle.Dispose();
    }
}
