using System;
using System.Collections.Generic;
using System.Data;
using System.Data.SqlClient;

namespace DataAccess
{
    /// <summary>
    /// Order queries. Like CustomerRepository it opens a connection in its constructor,
    /// but its Dispose() only clears the cache and forgets the connection.
    /// </summary>
    public sealed class OrderRepository : IDisposable
    {
        private readonly SqlConnection _connection; // LEAK: Dispose() never disposes the connection the constructor opens
        private readonly Dictionary<int, Order> _cache = new Dictionary<int, Order>();

        public OrderRepository(string connectionString)
        {
            _connection = new SqlConnection(connectionString);
            _connection.Open();
        }

        public Order Get(int id)
        {
            Order cached;
            if (_cache.TryGetValue(id, out cached))
            {
                return cached;
            }
            using (var command = new SqlCommand("SELECT Id, CustomerId, Total, PlacedAt FROM Orders WHERE Id = @id", _connection))
            {
                command.Parameters.AddWithValue("@id", id);
                using (var reader = command.ExecuteReader(CommandBehavior.SingleRow))
                {
                    if (!reader.Read())
                    {
                        return null;
                    }
                    var order = Read(reader);
                    _cache[id] = order;
                    return order;
                }
            }
        }

        public List<Order> ForCustomer(int customerId, DateTime since)
        {
            var orders = new List<Order>();
            using (var command = _connection.CreateCommand())
            {
                command.CommandText = "SELECT Id, CustomerId, Total, PlacedAt FROM Orders WHERE CustomerId = @customer AND PlacedAt >= @since ORDER BY PlacedAt";
                command.Parameters.AddWithValue("@customer", customerId);
                command.Parameters.AddWithValue("@since", since);
                using (var reader = command.ExecuteReader())
                {
                    while (reader.Read())
                    {
                        orders.Add(Read(reader));
                    }
                }
            }
            return orders;
        }

        public decimal TotalFor(int customerId)
        {
            using (var command = _connection.CreateCommand())
            {
                command.CommandText = "SELECT COALESCE(SUM(Total), 0) FROM Orders WHERE CustomerId = @customer";
                command.Parameters.AddWithValue("@customer", customerId);
                return (decimal)command.ExecuteScalar();
            }
        }

        public void Place(Order order)
        {
            var command = _connection.CreateCommand(); // LEAK: CreateCommand() returns a command the caller must dispose
            command.CommandText = "INSERT INTO Orders (CustomerId, Total, PlacedAt) OUTPUT INSERTED.Id VALUES (@customer, @total, @at)";
            command.Parameters.AddWithValue("@customer", order.CustomerId);
            command.Parameters.AddWithValue("@total", order.Total);
            command.Parameters.AddWithValue("@at", order.PlacedAt);
            order.Id = (int)command.ExecuteScalar();
            _cache[order.Id] = order;
        }

        public void CopyToArchive(DateTime before)
        {
            using (var bulk = new SqlBulkCopy(_connection))
            using (var command = new SqlCommand("SELECT Id, CustomerId, Total, PlacedAt FROM Orders WHERE PlacedAt < @before", _connection))
            {
                command.Parameters.AddWithValue("@before", before);
                bulk.DestinationTableName = "OrdersArchive";
                using (var reader = command.ExecuteReader())
                {
                    bulk.WriteToServer(reader);
                }
            }
        }

        private static Order Read(IDataRecord record)
        {
            return new Order
            {
                Id = record.GetInt32(0),
                CustomerId = record.GetInt32(1),
                Total = record.GetDecimal(2),
                PlacedAt = record.GetDateTime(3),
            };
        }

        public void Dispose()
        {
            _cache.Clear();
        }
    }
}
