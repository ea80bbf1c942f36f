// rlc-case: infer
// Case family: sockets and their streams. `TcpClient.GetStream()` returns a stream that
// owns the client's socket, so disposing either the client or the stream releases it:
// the stream is a resource alias of the client. A `NetworkStream` made over a socket
// owns it only with `ownsSocket: true`.
// cases: 6
using System;
using System.Net;
using System.Net.Sockets;

namespace Cases.Sockets;

public sealed class Connection : IDisposable
{
    private readonly NetworkStream _stream;

    public Connection(TcpClient client) => _stream = client.GetStream();

    public void Send(byte[] data) => _stream.Write(data);

    public void Dispose() => _stream.Dispose();
}

public static class Clients
{
    // CASE: the client goes into a connection that disposes the client's stream,
    // which closes the client's socket.
    public static Connection Connect(int port)
    {
        var client = new TcpClient();
        client.Connect(IPAddress.Loopback, port);
        return new Connection(client);
    }

    // CASE: neither the client nor its stream is disposed.
    public static void SendAndForget(int port, byte[] data)
    {
        var client = new TcpClient(); // expect: RLC0001
        client.Connect(IPAddress.Loopback, port);
        var stream = client.GetStream();
        stream.Write(data);
    }

    // CASE: disposing the stream releases the client's socket.
    public static void StreamDisposed(int port, byte[] data)
    {
        var client = new TcpClient();
        client.Connect(IPAddress.Loopback, port);
        using var stream = client.GetStream();
        stream.Write(data);
    }

    // CASE: disposing the client releases its stream too.
    public static void ClientDisposed(int port, byte[] data)
    {
        using var client = new TcpClient();
        client.Connect(IPAddress.Loopback, port);
        var stream = client.GetStream();
        stream.Write(data);
    }

    // CASE: a stream made over a socket does not own it by default.
    public static void SocketStreamNotOwning(EndPoint remote, byte[] data)
    {
        var socket = new Socket(SocketType.Stream, ProtocolType.Tcp); // expect: RLC0001
        socket.Connect(remote);
        using var stream = new NetworkStream(socket);
        stream.Write(data);
    }

    // CASE: with `ownsSocket: true` disposing the stream closes the socket.
    public static void SocketStreamOwning(EndPoint remote, byte[] data)
    {
        var socket = new Socket(SocketType.Stream, ProtocolType.Tcp);
        socket.Connect(remote);
        using var stream = new NetworkStream(socket, ownsSocket: true);
        stream.Write(data);
    }
}
