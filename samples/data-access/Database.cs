using System;
using System.Collections.Generic;
using System.Data;
using System.Data.Common;
using System.Data.SqlClient;

namespace DataAccess
{
    /// <summary>Connection and command helpers shared by the repositories.</summary>
    public static class Database
    {
        /// <summary>Opens a connection; the caller owns it.</summary>
        public static SqlConnection OpenConnection(string connectionString)
        {
            var connection = new SqlConnection(connectionString);
            connection.Open();
            return connection;
        }

        /// <summary>A command with parameters; the caller owns it.</summary>
        public static SqlCommand CreateCommand(SqlConnection connection, string sql, params SqlParameter[] parameters)
        {
            var command = new SqlCommand(sql, connection);
            command.CommandType = CommandType.Text;
            command.CommandTimeout = 30;
            foreach (var parameter in parameters)
            {
                command.Parameters.Add(parameter);
            }
            return command;
        }

        /// <summary>Runs a statement on its own connection.</summary>
        public static int Execute(string connectionString, string sql, params SqlParameter[] parameters)
        {
            using (var connection = OpenConnection(connectionString))
            using (var command = CreateCommand(connection, sql, parameters))
            {
                return command.ExecuteNonQuery();
            }
        }

        /// <summary>Counts the rows of a table.</summary>
        public static int CountRows(string connectionString, string table)
        {
            var connection = OpenConnection(connectionString); // LEAK: the connection is never closed or disposed
            using (var command = CreateCommand(connection, "SELECT COUNT(*) FROM " + table))
            {
                return (int)command.ExecuteScalar();
            }
        }

        /// <summary>Whether the server answers.</summary>
        public static bool Ping(string connectionString)
        {
            var connection = new SqlConnection(connectionString);
            try
            {
                connection.Open();
                return true;
            }
            catch (SqlException)
            {
                return false;
            }
            finally
            {
                connection.Close();
            }
        }

        /// <summary>Loads a query's result into a DataTable (which holds no connection).</summary>
        public static DataTable Load(string connectionString, string sql)
        {
            var table = new DataTable();
            using (var connection = new SqlConnection(connectionString))
            using (var adapter = new SqlDataAdapter(sql, connection))
            {
                adapter.Fill(table);
            }
            return table;
        }

        /// <summary>Column names of a table, through the provider-independent API.</summary>
        public static List<string> ColumnNames(DbProviderFactory factory, string connectionString, string table)
        {
            var names = new List<string>();
            using (var connection = factory.CreateConnection())
            {
                connection.ConnectionString = connectionString;
                connection.Open();
                using (var command = connection.CreateCommand())
                {
                    command.CommandText = "SELECT * FROM " + table + " WHERE 1 = 0";
                    using (var reader = command.ExecuteReader(CommandBehavior.SchemaOnly))
                    {
                        for (var i = 0; i < reader.FieldCount; i++)
                        {
                            names.Add(reader.GetName(i));
                        }
                    }
                }
            }
            return names;
        }

        /// <summary>The first value of a query, through the provider-independent API.</summary>
        public static object Scalar(DbProviderFactory factory, string connectionString, string sql)
        {
            using (var connection = factory.CreateConnection())
            {
                connection.ConnectionString = connectionString;
                connection.Open();
                var command = factory.CreateCommand(); // LEAK: the command from the factory is never disposed
                command.Connection = connection;
                command.CommandText = sql;
                return command.ExecuteScalar();
            }
        }

        /// <summary>Runs several statements in one transaction.</summary>
        public static void ExecuteBatch(string connectionString, IEnumerable<string> statements)
        {
            using (var connection = OpenConnection(connectionString))
            using (var transaction = connection.BeginTransaction())
            {
                try
                {
                    foreach (var sql in statements)
                    {
                        using (var command = new SqlCommand(sql, connection, transaction))
                        {
                            command.ExecuteNonQuery();
                        }
                    }
                    transaction.Commit();
                }
                catch
                {
                    transaction.Rollback();
                    throw;
                }
            }
        }

        /// <summary>A parameter with an explicit type.</summary>
        public static SqlParameter Parameter(string name, SqlDbType type, object value)
        {
            var parameter = new SqlParameter(name, type);
            parameter.Value = value ?? DBNull.Value;
            return parameter;
        }
    }
}
