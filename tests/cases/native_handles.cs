// Case family: GC handles and pointers in interop code. A `GCHandle` must be freed
// (`Free()`); one handed to native code with `GCHandle.ToIntPtr` is owned by that code
// until `GCHandle.FromIntPtr(p).Free()` gives it back and frees it. Writes through a
// pointer (`*(p + 1) = v;`, `*p++ = v;`, `*(long*)(p + 8) = v;`), through a `ref` to a
// dereference (`ref *(t + i)`) or through a ref-returning call (`First() = v;`) are
// analysed like any statement. A test of
// whether the handle still holds anything (`if (h.IsAllocated) h.Free();`,
// `if (!handle.IsClosed) handle.Dispose();`, a `SafeHandle` subclass's own `IsInvalid`)
// owes nothing on its released branch. A
// resource a handle roots (`GCHandle.Alloc(state)`) goes with the handle: the code that
// frees the handle disposes its `Target`. A safe handle made over a handle it does not
// own (`ownsHandle: false`, directly or through its own constructor's `base(h, false)`)
// releases nothing: it owes nothing, and neither does a method that only returns one.
// cases: 20
using System;
using System.IO;
using System.Runtime.InteropServices;
using Microsoft.Win32.SafeHandles;
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

    // CASE: stores through a pointer cast of an expression, a `ref` to a dereference and
    // ref-returning calls do not hide the method.
    public static void Store(byte* p, int* table, int i, string path)
    {
        var fs = new FileStream(path, FileMode.Create); // expect: RLC0001
        *(long*)(p + 8) = 1;
        ref var slot = ref *(table + i);
        slot = 2;
        First() = 3;
        At(p) = 4;
        fs.WriteByte(*p);
    }

    // CASE: the same with the stream disposed.
    public static void StoreAndClose(byte* p, int* table, int i, string path)
    {
        using var fs = new FileStream(path, FileMode.Create);
        *(long*)(p + 8) = 1;
        ref var slot = ref *(table + i);
        slot = 2;
        First() = 3;
        At(p) = 4;
        fs.WriteByte(*p);
    }

    private static readonly int[] Slots = new int[1];

    private static ref int First() => ref Slots[0];

    private static ref long At(byte* p) => ref *(long*)p;
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

internal sealed class BufferHandle : SafeHandle
{
    public BufferHandle() : base(IntPtr.Zero, true)
    {
    }

    public override bool IsInvalid => handle == IntPtr.Zero;

    protected override bool ReleaseHandle() => true;
}

internal sealed class Buffer : IDisposable
{
    [Owning] private readonly BufferHandle _handle;

    [MustCallAlias]
    public Buffer([MustCallAlias] BufferHandle handle) => _handle = handle;

    // CASE: the wrapper disposes its handle unless the handle's own `IsInvalid` says it
    // holds nothing: it disposes it on every path that matters.
    public void Dispose()
    {
        if (_handle != null && !_handle.IsInvalid)
        {
            _handle.Dispose();
        }
    }

    // CASE: a wrapper in `using` disposes the handle it was given.
    public static void Use()
    {
        using (var buffer = new Buffer(new BufferHandle()))
        {
        }
    }
}

internal sealed class CallbackBuffer : SafeHandle
{
    private CallbackBuffer() : base(IntPtr.Zero, true)
    {
    }

    private CallbackBuffer(IntPtr borrowed) : base(borrowed, false)
    {
    }

    [return: NotOwning]
    public static CallbackBuffer Borrow(IntPtr borrowed) => new CallbackBuffer(borrowed);

    public static CallbackBuffer Create() => new CallbackBuffer();

    public override bool IsInvalid => handle == IntPtr.Zero;

    protected override bool ReleaseHandle() => true;
}

internal sealed class CallbackBufferView : SafeHandle
{
    public CallbackBufferView(IntPtr borrowed) : base(borrowed, false)
    {
    }

    public override bool IsInvalid => handle == IntPtr.Zero;

    protected override bool ReleaseHandle() => true;
}

internal sealed class NativeChunk : SafeHandleZeroOrMinusOneIsInvalid
{
    public NativeChunk(IntPtr chunk, bool owns) : base(owns)
    {
        SetHandle(chunk);
    }

    protected override bool ReleaseHandle() => true;
}

internal static class BorrowedHandles
{
    // CASE: a handle over memory the native caller lent owes nothing (`infer` proposes
    // the `[return: NotOwning]` of `Borrow`).
    public static int Borrowed(IntPtr data)
    {
        var buffer = CallbackBuffer.Borrow(data);
        var made = new CallbackBufferView(data);
        return buffer.IsInvalid ? 0 : 1;
    }

    // CASE: the same class made owning must be disposed.
    public static bool Owned()
    {
        var buffer = CallbackBuffer.Create(); // expect: RLC0001
        return buffer.IsInvalid;
    }

    // CASE: `ownsHandle` passed on through the subclass's own constructor.
    public static void Chunks(IntPtr chunk)
    {
        var lent = new NativeChunk(chunk, false);
        var owned = new NativeChunk(chunk, true); // expect: RLC0001
    }

    // CASE: the library's own handles with `ownsHandle: false` release nothing.
    public static void FileHandles(IntPtr raw)
    {
        var lent = new SafeFileHandle(raw, ownsHandle: false);
        var owned = new SafeFileHandle(raw, ownsHandle: true); // expect: RLC0001
    }

    // CASE: an ownership flag only known at run time keeps the obligation.
    public static void Unknown(IntPtr raw, bool owns)
    {
        var handle = new SafeFileHandle(raw, owns); // expect: RLC0001
    }
}
