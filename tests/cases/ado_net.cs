// Case family: ADO.NET: DbConnection / DbCommand / DbDataReader / DbTransaction from
// Microsoft.Data.SqlClient and System.Data.Common, conn.CreateCommand(),
// cmd.ExecuteReader() with a CommandBehavior, DbProviderFactory, DataTable (no
// obligation), and a repository that owns its connection.
// cases: 17
using System;
using System.Collections.Generic;
using System.Data;
using System.Data.Common;
using System.Threading.Tasks;
using Microsoft.Data.SqlClient;
using RlcSharp.Annotations;

namespace Cases.AdoNet;

public static class Queries
{
    // CASE: connection, command and reader all under using.
    public static List<string> AllDisposed(string connectionString)
    {
        var names = new List<string>();
        using var connection = new SqlConnection(connectionString);
        connection.Open();
        using var command = connection.CreateCommand();
        command.CommandText = "SELECT Name FROM Customers";
        using var reader = command.ExecuteReader();
        while (reader.Read())
        {
            names.Add(reader.GetString(0));
        }
        return names;
    }

    // CASE: a connection that is opened and never disposed.
    public static int ConnectionLeaked(string connectionString)
    {
        var connection = new SqlConnection(connectionString); // expect: RLC0001
        connection.Open();
        using var command = new SqlCommand("SELECT 1", connection);
        return (int)command.ExecuteScalar();
    }

    // CASE: Close() discharges a connection.
    public static int ConnectionClosed(string connectionString)
    {
        var connection = new SqlConnection(connectionString);
        connection.Open();
        using var command = new SqlCommand("SELECT 1", connection);
        var result = (int)command.ExecuteScalar();
        connection.Close();
        return result;
    }

    // CASE: a command from CreateCommand() that is never disposed.
    public static int CommandLeaked(SqlConnection connection)
    {
        var command = connection.CreateCommand(); // expect: RLC0001
        command.CommandText = "DELETE FROM Sessions";
        return command.ExecuteNonQuery();
    }

    // CASE: a reader that is never disposed.
    public static bool ReaderLeaked(SqlCommand command)
    {
        var reader = command.ExecuteReader(); // expect: RLC0001
        return reader.Read();
    }

    // CASE: a reader with a CommandBehavior, under using.
    public static long ReaderWithBehavior(SqlCommand command)
    {
        long total = 0;
        using var reader = command.ExecuteReader(CommandBehavior.SequentialAccess);
        while (reader.Read())
        {
            total += reader.GetInt64(0);
        }
        return total;
    }

    // CASE: a transaction that is committed but not disposed.
    public static void TransactionLeaked(SqlConnection connection)
    {
        var transaction = connection.BeginTransaction(); // expect: RLC0001
        using var command = new SqlCommand("UPDATE Stock SET Count = 0", connection, transaction);
        command.ExecuteNonQuery();
        transaction.Commit();
    }

    // CASE: a transaction under using, committed.
    public static void TransactionDisposed(SqlConnection connection)
    {
        using var transaction = connection.BeginTransaction();
        using var command = new SqlCommand("UPDATE Stock SET Count = 0", connection, transaction);
        command.ExecuteNonQuery();
        transaction.Commit();
    }

    // CASE: async connection, command and reader with `await using`.
    public static async Task<int> AsyncAllDisposed(string connectionString)
    {
        await using var connection = new SqlConnection(connectionString);
        await connection.OpenAsync();
        await using var command = new SqlCommand("SELECT COUNT(*) FROM Orders", connection);
        await using var reader = await command.ExecuteReaderAsync();
        return await reader.ReadAsync() ? reader.GetInt32(0) : 0;
    }

    // CASE: an async reader that is never disposed.
    public static async Task<bool> AsyncReaderLeaked(DbCommand command)
    {
        var reader = await command.ExecuteReaderAsync(); // expect: RLC0001
        return await reader.ReadAsync();
    }

    // CASE: a DataTable filled from a reader has no obligation.
    public static DataTable LoadTable(DbCommand command)
    {
        var table = new DataTable();
        using (var reader = command.ExecuteReader())
        {
            table.Load(reader);
        }
        return table;
    }

    // CASE: a helper that opens and returns a connection.
    public static SqlConnection OpenConnection(string connectionString)
    {
        var connection = new SqlConnection(connectionString);
        connection.Open();
        return connection;
    }

    // CASE: DbProviderFactory.CreateConnection result under using.
    public static void ProviderFactoryDisposed(DbProviderFactory factory, string connectionString)
    {
        using var connection = factory.CreateConnection();
        connection.ConnectionString = connectionString;
        connection.Open();
    }

    // CASE: DbProviderFactory.CreateCommand result never disposed.
    public static object ProviderCommandLeaked(DbProviderFactory factory, DbConnection connection)
    {
        var command = factory.CreateCommand(); // expect: RLC0001
        command.Connection = connection;
        command.CommandText = "SELECT 1";
        return command.ExecuteScalar();
    }
}

// CASE: a repository that owns its connection and disposes it.
public sealed class CustomerRepository : IDisposable
{
    [Owning] private readonly SqlConnection _connection;

    public CustomerRepository(string connectionString)
    {
        _connection = new SqlConnection(connectionString);
        _connection.Open();
    }

    public int Count()
    {
        using var command = new SqlCommand("SELECT COUNT(*) FROM Customers", _connection);
        return (int)command.ExecuteScalar();
    }

    [Calls("_connection", "Dispose")]
    public void Dispose() => _connection.Dispose();
}

// CASE: a repository that owns its connection but forgets to dispose it.
public sealed class ForgetfulRepository : IDisposable
{
    [Owning] private readonly SqlConnection _connection; // expect: RLC0003

    public ForgetfulRepository(string connectionString)
    {
        _connection = new SqlConnection(connectionString);
    }

    public void Dispose()
    {
        Console.WriteLine("disposed");
    }
}

public static class RepositoryUsers
{
    // CASE: the repository used under using; a second one leaked.
    public static int UseRepositories(string connectionString)
    {
        using var good = new CustomerRepository(connectionString);
        var leaked = new CustomerRepository(connectionString); // expect: RLC0001
        return good.Count() + leaked.Count();
    }
}
