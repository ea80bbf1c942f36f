// Case family: GC handles and pointers in interop code. A `GCHandle` must be freed
// (`Free()`); one handed to native code with `GCHandle.ToIntPtr` is owned by that code
// until `GCHandle.FromIntPtr(p).Free()` gives it back and frees it. Writes through a
// pointer (`*(p + 1) = v;`, `*p++ = v;`) are analysed like any statement.
// cases: 5
using System;
using System.IO;
using System.Runtime.InteropServices;

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
