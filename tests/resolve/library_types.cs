// Library model types: factories, wrappers, ADO.NET, HttpClient, async results.
using System.IO;
using System.Net.Http;
using System.Threading.Tasks;
using System.Data.Common;

namespace Res.Library
{
    public class User
    {
        public async Task M(string path, HttpClient client, DbConnection conn)
        {
            var a = File.OpenRead(path);
            //      ^^^^^^^^^^^^^^^^^^^ FileStream -> System.IO.File.OpenRead(string)
            var b = new StreamReader(a);
            //      ^^^^^^^^^^^^^^^^^^^ StreamReader -> System.IO.StreamReader.StreamReader(Stream)
            var c = b.ReadLine();
            //      ^^^^^^^^^^^^ string -> System.IO.TextReader.ReadLine()
            var d = await client.GetAsync(path);
            //      ^^^^^^^^^^^^^^^^^^^^^^^^^^^ HttpResponseMessage
            var e = conn.CreateCommand();
            //      ^^^^^^^^^^^^^^^^^^^^ DbCommand -> System.Data.Common.DbConnection.CreateCommand()
            var f = e.ExecuteReader();
            //      ^^^^^^^^^^^^^^^^^ DbDataReader
            var g = await d.Content.ReadAsStreamAsync();
            //      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ Stream
        }
    }
}
