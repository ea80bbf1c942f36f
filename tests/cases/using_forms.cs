// Case family: the forms of `using` (statement, declaration, `await using`, nested,
// several declarators, on a factory result, on an expression) and what they do not cover;
// a `ref struct` with a public `Dispose()` is disposed by `using` without `IDisposable`.
// cases: 23
using System;
using System.Buffers;
using System.IO;
using System.Text;
using System.Threading.Tasks;

namespace Cases.UsingForms;

public static class UsingForms
{
    // CASE: a using statement disposes the resource it declares.
    public static int UsingStatement(string path)
    {
        using (var fs = new FileStream(path, FileMode.Open))
        {
            return fs.ReadByte();
        }
    }

    // CASE: a using declaration disposes at the end of the enclosing block.
    public static long UsingDeclaration(string path)
    {
        using var fs = new FileStream(path, FileMode.Open);
        return fs.Length;
    }

    // CASE: the same allocation without `using` and without Dispose() leaks.
    public static long NoUsing(string path)
    {
        var fs = new FileStream(path, FileMode.Open); // expect: RLC0001
        return fs.Length;
    }

    // CASE: `await using` declaration discharges through DisposeAsync().
    public static async Task<int> AwaitUsingDeclaration(string path, byte[] buffer)
    {
        await using var fs = new FileStream(path, FileMode.Open);
        return await fs.ReadAsync(buffer, 0, buffer.Length);
    }

    // CASE: `await using` statement form.
    public static async Task AwaitUsingStatement(string path, byte[] data)
    {
        await using (var fs = new FileStream(path, FileMode.Create))
        {
            await fs.WriteAsync(data, 0, data.Length);
        }
    }

    // CASE: nested using statements, the inner one wrapping the outer resource.
    public static string NestedUsings(string path)
    {
        using (var fs = new FileStream(path, FileMode.Open))
        using (var reader = new StreamReader(fs))
        {
            return reader.ReadToEnd();
        }
    }

    // CASE: nested using statements over two independent resources.
    public static void NestedIndependent(string from, string to)
    {
        using (var input = File.OpenRead(from))
        {
            using (var output = File.Create(to))
            {
                input.CopyTo(output);
            }
        }
    }

    // CASE: one using statement with several declarators disposes all of them.
    public static void MultipleDeclaratorsStatement(string a, string b)
    {
        using (FileStream first = File.OpenRead(a), second = File.OpenWrite(b))
        {
            first.CopyTo(second);
        }
    }

    // CASE: one using declaration with several declarators disposes all of them.
    public static void MultipleDeclaratorsDeclaration(string a, string b)
    {
        using FileStream first = File.OpenRead(a), second = File.OpenWrite(b);
        first.CopyTo(second);
    }

    // CASE: several declarators where only the first is under `using`; the second leaks.
    public static void SecondDeclaratorOutsideUsing(string a, string b)
    {
        using var first = File.OpenRead(a);
        FileStream second = File.OpenWrite(b); // expect: RLC0001
        first.CopyTo(second);
    }

    // CASE: using on the result of a factory method.
    public static string UsingFactoryResult(string path)
    {
        using var reader = File.OpenText(path);
        return reader.ReadToEnd();
    }

    // CASE: using on an expression naming an existing local (not a declaration).
    public static int UsingOnExistingLocal(string path)
    {
        var fs = File.OpenRead(path);
        using (fs)
        {
            return fs.ReadByte();
        }
    }

    // CASE: using on a call expression whose result is not named at all.
    public static void UsingOnCallExpression(string path)
    {
        using (File.Create(path))
        {
        }
    }

    // CASE: using over a wrapper chain written in one expression.
    public static string UsingWrapperChain(string path)
    {
        using (var reader = new StreamReader(new FileStream(path, FileMode.Open), Encoding.UTF8))
        {
            return reader.ReadToEnd();
        }
    }

    // CASE: a second resource created inside a using block needs its own using.
    public static void InnerResourceWithoutUsing(string path, string copy)
    {
        using (var input = File.OpenRead(path))
        {
            var output = File.Create(copy); // expect: RLC0001
            input.CopyTo(output);
        }
    }

    // CASE: a using statement with an empty body still disposes.
    public static void UsingEmptyBody(string path)
    {
        using (var fs = new FileStream(path, FileMode.OpenOrCreate))
        {
        }
    }

    // CASE: using on a value that may be null is fine (Dispose is skipped for null).
    public static void UsingOnMaybeNull(string path, bool open)
    {
        FileStream fs = open ? File.OpenRead(path) : null;
        using (fs)
        {
        }
    }

    // CASE: an early return from inside a using block still disposes.
    public static int EarlyReturnInsideUsing(string path)
    {
        using var fs = File.OpenRead(path);
        if (fs.Length == 0)
        {
            return -1;
        }
        return fs.ReadByte();
    }

    // CASE: a resource typed as IDisposable in a using statement.
    public static void UsingAsInterface(string path)
    {
        using (IDisposable handle = File.OpenRead(path))
        {
            Console.WriteLine(handle.GetType().Name);
        }
    }

    // CASE: a resource-free IDisposable (MemoryStream) needs no using at all.
    public static byte[] MemoryStreamWithoutUsing(byte[] data)
    {
        var ms = new MemoryStream();
        ms.Write(data, 0, data.Length);
        return ms.ToArray();
    }
}

public ref struct RentedBuffer
{
    private readonly byte[] _array;
    public RentedBuffer(int size) => _array = ArrayPool<byte>.Shared.Rent(size);
    public int Length => _array.Length;
    public void Dispose() => ArrayPool<byte>.Shared.Return(_array);
}

public static class RefStructs
{
    // CASE: a `ref struct` with a pattern `Dispose()` left undisposed.
    public static int NotDisposed()
    {
        var buffer = new RentedBuffer(256); // expect: RLC0001
        return buffer.Length;
    }

    // CASE: `using` disposes a `ref struct` through its pattern `Dispose()`.
    public static int UsingDeclaration()
    {
        using var buffer = new RentedBuffer(256);
        return buffer.Length;
    }

    // CASE: an explicit call of the pattern `Dispose()`.
    public static int DisposedExplicitly()
    {
        var buffer = new RentedBuffer(256);
        var n = buffer.Length;
        buffer.Dispose();
        return n;
    }
}
