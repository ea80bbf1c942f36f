// Case family: the examples of "Lightweight and Modular Resource Leak Verification"
// (Kellogg et al., ESEC/FSE 2021) rewritten in C#: Fig. 1, Fig. 3, the closeSocket
// ownership example (section 3), wrappers and getFd resource aliases (section 4),
// SocketContainer.reconnect with [CreatesMustCallFor] (section 5.1), the unconnected
// socket (section 5.2), and Fig. 5 with a nullable return. Fig. 4 needs every call to
// throw and lives in exceptions_all.cs.
// cases: 17
#nullable enable
using System;
using System.IO;
using System.Net;
using System.Net.Sockets;
using RlcSharp.Annotations;

namespace Cases.PaperFigures;

public static class Figures
{
    // CASE: Fig. 1: a socket created in a try, closed in finally behind a null check.
    public static void FigureOne(string myHost, int myPort)
    {
        Socket? s = null;
        try
        {
            s = new Socket(SocketType.Stream, ProtocolType.Tcp);
            s.Connect(myHost, myPort);
        }
        catch (Exception)
        {
            // do nothing
        }
        finally
        {
            if (s != null)
            {
                s.Close();
            }
        }
    }

    // CASE: Fig. 3: on one branch the only reference is overwritten with null.
    public static void FigureThree(bool drop)
    {
        Socket? s = new Socket(SocketType.Stream, ProtocolType.Tcp);
        if (drop)
        {
            s = null; // expect: RLC0004
        }
        else
        {
            var t = s;
            t.Close();
        }
    }

    // CASE: Fig. 3 corrected: the null branch closes the socket first.
    public static void FigureThreeFixed(bool drop)
    {
        Socket? s = new Socket(SocketType.Stream, ProtocolType.Tcp);
        if (drop)
        {
            s.Close();
            s = null;
        }
        else
        {
            var t = s;
            t.Close();
        }
    }

    // CASE: section 3: closeSocket takes ownership of its parameter.
    public static void CloseSocket([Owning] Socket t)
    {
        t.Close();
    }

    // CASE: section 3: the caller hands its socket to closeSocket.
    public static void Example(string myHost, int myPort)
    {
        var s = new Socket(SocketType.Stream, ProtocolType.Tcp);
        s.Connect(myHost, myPort);
        CloseSocket(s);
    }

    // CASE: section 3 without the annotation: the caller keeps the obligation.
    public static void CloseSocketUnannotated(Socket t)
    {
        t.Close();
    }

    // CASE: section 3: handing the socket to the unannotated version is a (false) leak.
    public static void ExampleUnannotated(string myHost, int myPort)
    {
        var s = new Socket(SocketType.Stream, ProtocolType.Tcp); // expect: RLC0001
        s.Connect(myHost, myPort);
        CloseSocketUnannotated(s);
    }

    // CASE: section 4.1: a wrapper over a resource-free stream has no obligation.
    public static byte[] BufferedOverMemory(byte[] data)
    {
        var ms = new MemoryStream();
        var b = new BufferedStream(ms);
        b.Write(data, 0, data.Length);
        b.Flush();
        return ms.ToArray();
    }

    // CASE: section 4.1: closing either the wrapper or the wrapped stream is enough.
    public static void BufferedOverFile(string path, byte[] data)
    {
        var f = new FileStream(path, FileMode.Create);
        var b = new BufferedStream(f);
        b.Write(data, 0, data.Length);
        b.Close();
    }

    // CASE: section 4.2: getFd: the descriptor of an open file, wrapped by a stream
    // factory; closing the stream closes the file (both are resource aliases).
    public static void GetFd(IFileSystem fs, string myFile)
    {
        var file = fs.OpenRandomAccess(myFile, "rws");
        IDisposable? input = null;
        try
        {
            input = fs.InputStreamFor(file.GetFd());
            input.Dispose();
        }
        catch (Exception)
        {
            file.Dispose();
        }
    }

    // CASE: section 5.2: a socket created unconnected has no obligation yet.
    public static LazySocket CreateSocket()
    {
        var sock = LazySocket.CreateUnconnected();
        sock.SetTimeout(30);
        return sock;
    }

    // CASE: section 5.2: an unconnected socket that is dropped is fine.
    public static void ConfigureOnly()
    {
        var sock = LazySocket.CreateUnconnected();
        sock.SetTimeout(30);
    }

    // CASE: section 5.2: connecting creates the obligation (reported at the call).
    public static void ConnectAndForget(string host)
    {
        var sock = LazySocket.CreateUnconnected();
        sock.Connect(host); // expect: RLC0001
    }

    // CASE: section 5.2: connected and closed.
    public static void ConnectAndClose(string host)
    {
        var sock = LazySocket.CreateUnconnected();
        sock.Connect(host);
        sock.Close();
    }

    // CASE: Fig. 5 with Optional replaced by a nullable return: verified.
    public static Socket? CreateServerSocket(bool enabled, EndPoint endPoint)
    {
        Socket? serverSocket = null;
        try
        {
            if (enabled)
            {
                serverSocket = new Socket(SocketType.Stream, ProtocolType.Tcp);
                serverSocket.ExclusiveAddressUse = false;
                serverSocket.Bind(endPoint);
                return serverSocket;
            }
        }
        catch (Exception)
        {
            serverSocket?.Dispose();
        }
        return null;
    }

    // CASE: Fig. 5 as written: the paper's checker cannot move ownership into a generic
    // container (its second most common false positive); `Maybe.Of` stores its argument
    // in the `Maybe` it returns, so the caller owns the socket on the normal path, and
    // only the path where `Bind` throws and the catch swallows it leaks.
    public static Maybe<Socket> CreateServerSocketOptional(bool enabled, EndPoint endPoint)
    {
        try
        {
            if (enabled)
            {
                var serverSocket = new Socket(SocketType.Stream, ProtocolType.Tcp); // expect: RLC0002
                serverSocket.Bind(endPoint);
                return Maybe.Of(serverSocket);
            }
        }
        catch (SocketException)
        {
            // log an error
        }
        return Maybe<Socket>.Empty;
    }
}

// CASE: section 5.1: SocketContainer, whose owning non-readonly field is re-created by
// Reconnect.
[MustCall("Close")]
public sealed class SocketContainer
{
    [Owning] private Socket _sock;

    public SocketContainer()
    {
        _sock = new Socket(SocketType.Stream, ProtocolType.Tcp);
    }

    [Calls("_sock", "Close")]
    public void Close() => _sock.Close();

    // Closing an already closed socket is harmless, so the rewrite closes unconditionally
    // (the checker does not know what `isClosed()` means).
    [CreatesMustCallFor("this")]
    public void Reconnect()
    {
        _sock.Close();
        _sock = new Socket(SocketType.Stream, ProtocolType.Tcp);
    }
}

// The getFd example of section 4.2 over interfaces standing for the library.
public sealed class FileDescriptor
{
}

public interface IRandomAccessFile : IDisposable
{
    [MustCallAlias]
    FileDescriptor GetFd();
}

public interface IFileSystem
{
    IRandomAccessFile OpenRandomAccess(string path, string mode);

    [MustCallAlias]
    IDisposable InputStreamFor([MustCallAlias] FileDescriptor fd);
}

// Section 5.2: a socket whose obligation starts when it connects.
[MustCall("Close")]
public sealed class LazySocket
{
    [Owning] private Socket? _socket;

    private LazySocket()
    {
    }

    [return: MustCall]
    public static LazySocket CreateUnconnected() => new LazySocket();

    public void SetTimeout(int seconds) => Console.WriteLine(seconds);

    [CreatesMustCallFor("this")]
    public void Connect(string host)
    {
        _socket?.Dispose();
        _socket = new Socket(SocketType.Stream, ProtocolType.Tcp);
        _socket.Connect(host, 80);
    }

    [Calls("_socket", "Dispose")]
    public void Close() => _socket?.Dispose();
}

public readonly struct Maybe<T>
{
    private readonly T _value;
    private readonly bool _has;

    public Maybe(T value)
    {
        _value = value;
        _has = true;
    }

    public static Maybe<T> Empty => default;

    public bool HasValue => _has;

    public T Value => _value;
}

public static class Maybe
{
    public static Maybe<T> Of<T>(T value) => new Maybe<T>(value);
}
