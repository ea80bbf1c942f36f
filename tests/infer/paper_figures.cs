// Recovery suite: the inference paper's figures 1 to 5 rewritten in C#.
using System;
using System.Data.Common;
using System.IO;
using System.Net.Sockets;
using RlcSharp.Annotations;

namespace Infer.PaperFigures;

// Figure 1: MySqlCon. The disposal method is `Dispose` but the class is not
// IDisposable, so it gets [MustCall("Dispose")]; `CloseCon` closes its parameter.
[MustCall("Dispose")]
public class MySqlCon
{
    [Owning]
    private readonly DbConnection _con;

    [MustCallAlias]
    public MySqlCon([MustCallAlias] DbConnection con)
    {
        _con = con;
    }

    public void Use()
    {
    }

    [Calls("this._con", "Dispose")]
    public void Dispose()
    {
        CloseCon(_con);
    }

    public static DbConnection CreateCon(DbProviderFactory factory)
    {
        DbConnection obj = factory.CreateConnection();
        return obj;
    }

    public static void UseCon(DbConnection obj)
    {
    }

    public static void CloseCon([Owning] DbConnection obj)
    {
        obj.Close();
    }
}

// Figure 2: Learner. Three methods close the socket, but only `CloseSockSync` on every
// path: `CloseSocket(true)` leaves it open, so a `[Calls]` on `CloseSocket` (and on
// `Shutdown`, which relies on it) is one the checker rejects (RLC0006), and inference,
// which proposes only what the checker verifies, proposes neither. The paper's
// inference accepts them.
public class Learner
{
    [Owning]
    protected Socket Sock;

    [Calls("this.Sock", "Close")]
    private void CloseSockSync()
    {
        try
        {
            if (Sock != null)
            {
                Sock.Close();
                Sock = null;
            }
        }
        catch (SocketException)
        {
        }
    }

    private void CloseSocket(bool async)
    {
        if (Sock != null)
        {
            if (!async)
            {
                CloseSockSync();
            }
        }
    }

    public void Shutdown()
    {
        CloseSocket(false);
    }
}

// Figure 3: BlockChecksumComputer. The paper's inference misses these because the
// subclass reaches the fields only through getters; written with the fields used
// directly (the better design the paper suggests), the fields and the subclass's
// disposal are inferred. No class has a method covering both fields, so no [MustCall].
public abstract class BlockChecksumComputer
{
    [Owning]
    protected readonly Stream MetadataIn;
    [Owning]
    protected readonly Stream ChecksumIn;

    protected BlockChecksumComputer(string meta, string checksum)
    {
        MetadataIn = File.OpenRead(meta);
        ChecksumIn = File.OpenRead(checksum);
    }

    public abstract void Compute();
}

public sealed class ReplicatedBlockChecksumComputer : BlockChecksumComputer
{
    public ReplicatedBlockChecksumComputer(string meta, string checksum) : base(meta, checksum)
    {
    }

    [Calls("this.ChecksumIn", "Dispose")]
    [Calls("this.MetadataIn", "Dispose")]
    public override void Compute()
    {
        try
        {
            ChecksumIn.ReadByte();
        }
        finally
        {
            ChecksumIn.Dispose();
            MetadataIn.Dispose();
        }
    }
}

// Figure 4: ConnectionWrapper. Inference makes the field owning and `Close` the
// class's disposal method.
[MustCall("Close")]
public class ConnectionWrapper
{
    [Owning]
    private readonly DbConnection _con;

    public ConnectionWrapper(DbProviderFactory factory)
    {
        _con = factory.CreateConnection();
    }

    [Calls("this._con", "Close")]
    public void Close()
    {
        _con.Close();
    }
}

// Figure 5: the optimistic [Calls] on a close() whose later closes are skipped when an
// earlier one throws.
[MustCall("Close")]
public class Journal
{
    [Owning]
    private readonly Stream _storage;
    [Owning]
    private readonly Stream _committedTxnId;
    [Owning]
    private readonly Stream _curSegment;

    public Journal(string dir)
    {
        _storage = File.OpenRead(dir + "/storage");
        _committedTxnId = File.OpenRead(dir + "/txn");
        _curSegment = File.OpenRead(dir + "/segment");
    }

    [Calls("this._storage", "Close")]
    [Calls("this._committedTxnId", "Dispose")]
    [Calls("this._curSegment", "Dispose")]
    public void Close()
    {
        _storage.Close();
        CloseStream(_committedTxnId);
        CloseStream(_curSegment);
    }

    private static void CloseStream([Owning] Stream s)
    {
        s?.Dispose();
    }
}
