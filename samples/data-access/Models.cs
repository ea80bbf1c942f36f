using System;

namespace DataAccess
{
    /// <summary>A customer row.</summary>
    public sealed class Customer
    {
        public int Id { get; set; }

        public string Name { get; set; }

        public string City { get; set; }

        public bool Active { get; set; }

        public override string ToString()
        {
            return Id + " " + Name + " (" + City + ")";
        }
    }

    /// <summary>An order row.</summary>
    public sealed class Order
    {
        public int Id { get; set; }

        public int CustomerId { get; set; }

        public decimal Total { get; set; }

        public DateTime PlacedAt { get; set; }
    }

    /// <summary>Per-city totals for the sales report.</summary>
    public sealed class CitySales
    {
        public CitySales(string city, int orders, decimal total)
        {
            City = city;
            Orders = orders;
            Total = total;
        }

        public string City { get; private set; }

        public int Orders { get; private set; }

        public decimal Total { get; private set; }
    }
}
