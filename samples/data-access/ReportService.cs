using System;
using System.Collections.Generic;
using System.Data;
using System.Data.Common;
using System.Data.SqlClient;
using System.IO;
using System.Text;

namespace DataAccess
{
    /// <summary>Builds sales reports from the repositories and raw queries.</summary>
    public sealed class ReportService
    {
        private readonly string _connectionString;
        private readonly DbProviderFactory _factory;

        public ReportService(string connectionString)
            : this(connectionString, SqlClientFactory.Instance)
        {
        }

        public ReportService(string connectionString, DbProviderFactory factory)
        {
            _connectionString = connectionString;
            _factory = factory;
        }

        /// <summary>Total sales of each customer of a city.</summary>
        public Dictionary<string, decimal> SalesByCustomer(string city)
        {
            var totals = new Dictionary<string, decimal>();
            using (var customers = new CustomerRepository(_connectionString))
            using (var orders = new OrderRepository(_connectionString))
            {
                foreach (var customer in customers.FindByCity(city))
                {
                    totals[customer.Name] = orders.TotalFor(customer.Id);
                }
            }
            return totals;
        }

        /// <summary>The name of one customer.</summary>
        public string CustomerName(int id)
        {
            var customers = new CustomerRepository(_connectionString); // LEAK: the repository (and its open connection) is never disposed
            var customer = customers.GetById(id);
            return customer == null ? null : customer.Name;
        }

        /// <summary>Orders and totals per city, through the provider-independent API.</summary>
        public List<CitySales> SalesByCity()
        {
            var result = new List<CitySales>();
            using (var connection = _factory.CreateConnection())
            {
                connection.ConnectionString = _connectionString;
                connection.Open();
                using (var command = connection.CreateCommand())
                {
                    command.CommandText = "SELECT c.City, COUNT(o.Id), COALESCE(SUM(o.Total), 0) FROM Customers c LEFT JOIN Orders o ON o.CustomerId = c.Id GROUP BY c.City";
                    using (var reader = command.ExecuteReader())
                    {
                        while (reader.Read())
                        {
                            result.Add(new CitySales(reader.GetString(0), reader.GetInt32(1), reader.GetDecimal(2)));
                        }
                    }
                }
            }
            return result;
        }

        /// <summary>The largest order, through the provider-independent API.</summary>
        public decimal LargestOrder()
        {
            using (var connection = _factory.CreateConnection())
            {
                connection.ConnectionString = _connectionString;
                connection.Open();
                using (var command = connection.CreateCommand())
                {
                    command.CommandText = "SELECT MAX(Total) FROM Orders";
                    var reader = command.ExecuteReader(); // LEAK: the reader is read once and dropped
                    return reader.Read() && !reader.IsDBNull(0) ? reader.GetDecimal(0) : 0m;
                }
            }
        }

        /// <summary>Writes the per-city report as CSV.</summary>
        public void ExportCsv(string path)
        {
            var rows = SalesByCity();
            using (var writer = new StreamWriter(path, false, Encoding.UTF8))
            {
                writer.WriteLine("city,orders,total");
                foreach (var row in rows)
                {
                    writer.WriteLine(row.City + "," + row.Orders + "," + row.Total);
                }
            }
        }

        /// <summary>A snapshot of the orders table (a DataTable holds no connection).</summary>
        public DataTable OrdersSnapshot()
        {
            return Database.Load(_connectionString, "SELECT Id, CustomerId, Total, PlacedAt FROM Orders");
        }

        /// <summary>Opens a connection for a caller that runs its own queries.</summary>
        public DbConnection OpenConnection()
        {
            var connection = _factory.CreateConnection();
            connection.ConnectionString = _connectionString;
            connection.Open();
            return connection;
        }

        /// <summary>Counts customers on a connection from OpenConnection().</summary>
        public int CountCustomers()
        {
            using (var connection = OpenConnection())
            using (var command = connection.CreateCommand())
            {
                command.CommandText = "SELECT COUNT(*) FROM Customers";
                return Convert.ToInt32(command.ExecuteScalar());
            }
        }
    }
}
