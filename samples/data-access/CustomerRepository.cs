using System;
using System.Collections.Generic;
using System.Data;
using System.Data.SqlClient;

namespace DataAccess
{
    /// <summary>
    /// Customer queries over one connection that the repository opens in its constructor
    /// and closes in Dispose().
    /// </summary>
    public sealed class CustomerRepository : IDisposable
    {
        private const string Columns = "Id, Name, City, Active";

        private readonly SqlConnection _connection;

        public CustomerRepository(string connectionString)
        {
            _connection = new SqlConnection(connectionString);
            _connection.Open();
        }

        public Customer GetById(int id)
        {
            using (var command = Database.CreateCommand(_connection, "SELECT " + Columns + " FROM Customers WHERE Id = @id", Database.Parameter("@id", SqlDbType.Int, id)))
            using (var reader = command.ExecuteReader(CommandBehavior.SingleRow))
            {
                return reader.Read() ? Read(reader) : null;
            }
        }

        public List<Customer> FindByCity(string city)
        {
            var customers = new List<Customer>();
            using (var command = new SqlCommand("SELECT " + Columns + " FROM Customers WHERE City = @city", _connection))
            {
                command.Parameters.AddWithValue("@city", city);
                using (var reader = command.ExecuteReader())
                {
                    while (reader.Read())
                    {
                        customers.Add(Read(reader));
                    }
                }
            }
            return customers;
        }

        public Customer FindFirstInactive()
        {
            var command = new SqlCommand("SELECT " + Columns + " FROM Customers WHERE Active = 0 ORDER BY Id", _connection); // LEAK: the command is never disposed
            using (var reader = command.ExecuteReader())
            {
                return reader.Read() ? Read(reader) : null;
            }
        }

        public List<string> Names(int limit)
        {
            var names = new List<string>();
            using (var command = new SqlCommand("SELECT Name FROM Customers ORDER BY Name", _connection))
            {
                var reader = command.ExecuteReader(); // LEAK: the early return skips reader.Dispose()
                while (reader.Read())
                {
                    names.Add(reader.GetString(0));
                    if (names.Count == limit)
                    {
                        return names;
                    }
                }
                reader.Dispose();
            }
            return names;
        }

        public int Insert(Customer customer)
        {
            using (var command = new SqlCommand("INSERT INTO Customers (Name, City, Active) OUTPUT INSERTED.Id VALUES (@name, @city, @active)", _connection))
            {
                command.Parameters.AddWithValue("@name", customer.Name);
                command.Parameters.AddWithValue("@city", customer.City);
                command.Parameters.AddWithValue("@active", customer.Active);
                customer.Id = (int)command.ExecuteScalar();
                return customer.Id;
            }
        }

        public void Move(int customerId, string newCity)
        {
            using (var transaction = _connection.BeginTransaction(IsolationLevel.Serializable))
            {
                using (var update = new SqlCommand("UPDATE Customers SET City = @city WHERE Id = @id", _connection, transaction))
                {
                    update.Parameters.AddWithValue("@city", newCity);
                    update.Parameters.AddWithValue("@id", customerId);
                    update.ExecuteNonQuery();
                }
                using (var audit = new SqlCommand("INSERT INTO Audit (CustomerId, Change) VALUES (@id, 'moved')", _connection, transaction))
                {
                    audit.Parameters.AddWithValue("@id", customerId);
                    audit.ExecuteNonQuery();
                }
                transaction.Commit();
            }
        }

        public int Deactivate(IEnumerable<int> ids)
        {
            var transaction = _connection.BeginTransaction(); // LEAK: committed but never disposed
            var changed = 0;
            foreach (var id in ids)
            {
                using (var command = new SqlCommand("UPDATE Customers SET Active = 0 WHERE Id = @id", _connection, transaction))
                {
                    command.Parameters.AddWithValue("@id", id);
                    changed += command.ExecuteNonQuery();
                }
            }
            transaction.Commit();
            return changed;
        }

        private static Customer Read(IDataRecord record)
        {
            return new Customer
            {
                Id = record.GetInt32(0),
                Name = record.GetString(1),
                City = record.IsDBNull(2) ? null : record.GetString(2),
                Active = record.GetBoolean(3),
            };
        }

        public void Dispose()
        {
            _connection.Dispose();
        }
    }
}
