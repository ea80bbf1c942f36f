// Locals (explicit and var), fields, properties, parameters, member-access chains.
namespace Res.Locals
{
    public class Node
    {
        public Node Next;
        public string Name { get; set; }
        public int Count => 3;
        public static Node Root = new Node();
        public Node Child() => new Node();
    }

    public class User
    {
        private readonly Node _node = new Node();

        public void M(Node p, int n)
        {
            Node a = p;
            //       ^ Node
            var b = p.Next;
            //      ^^^^^^ Node -> Res.Locals.Node.Next
            var c = p.Next.Next.Name;
            //      ^^^^^^^^^^^^^^^^ string -> Res.Locals.Node.Name
            var d = _node.Child().Count;
            //      ^^^^^^^^^^^^^ Node -> Res.Locals.Node.Child()
            var e = Node.Root;
            //      ^^^^^^^^^ Node -> Res.Locals.Node.Root
            var f = this._node;
            //      ^^^^^^^^^^ Node -> Res.Locals.User._node
            var g = n;
            //      ^ int
            var h = d;
            //      ^ int
        }
    }
}
