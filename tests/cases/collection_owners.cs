// rlc-case: infer
// Case family: composites that adopt what they are given. A method that adds its
// parameter to a collection field whose elements its class disposes (`this.items.Add(p)`,
// `this.items[k] = p`) takes it over: the parameter is `[Owning]` (rule
// `owning-param-stored`), as for one stored into an owning field. A collection its class
// does not dispose element-wise leaves the obligation with the caller. A parameter of a
// collection type whose elements every path takes over (added one by one to such a field,
// the collection kept there, or its elements disposed) is `[Owning]` too (rule
// `owning-param-elements`): the elements of the collection a caller builds for it (a
// collection expression, an array, a local list, a `params` array's arguments) go with it.
// cases: 15
using System;
using System.Collections.Generic;
using System.IO;

namespace Cases.CollectionOwners;

public abstract class Processor : IDisposable
{
    public abstract void Dispose();
}

public sealed class FileProcessor : Processor
{
    private readonly Stream _log;

    public FileProcessor(string path) => _log = new FileStream(path, FileMode.Append);

    public override void Dispose() => _log.Dispose();
}

// CASE: a composite whose `Add` keeps its argument in a list it disposes element-wise, and
// whose constructor adopts the elements of the collection it is given.
public sealed class CompositeProcessor : Processor
{
    private readonly List<Processor> _items = new();

    public CompositeProcessor() { }

    public CompositeProcessor(IEnumerable<Processor> processors)
    {
        foreach (var p in processors)
            _items.Add(p);
    }

    public void Add(Processor p) => _items.Add(p);

    public override void Dispose()
    {
        foreach (var p in _items)
            p.Dispose();
    }
}

// CASE: a registry keyed by name, whose indexer store takes the element over.
public sealed class ProcessorRegistry : IDisposable
{
    private readonly Dictionary<string, Processor> _byName = new();

    public void Put(string name, Processor p) => _byName[name] = p;

    public void Dispose()
    {
        foreach (var p in _byName.Values)
            p.Dispose();
    }
}

// CASE: a list nobody disposes element-wise: its `Add` does not take the argument, and a
// caller that drops what it made leaks it.
public sealed class ProcessorList
{
    private readonly List<Processor> _items = new();

    public void Add(Processor p) => _items.Add(p);

    public int Count => _items.Count;
}

// CASE: a provider that hands its processors to a composite: nothing is lost.
public sealed class Provider : IDisposable
{
    private Processor? _current;

    public void Add(Processor processor)
    {
        if (_current == null)
        {
            _current = processor;
        }
        else if (_current is CompositeProcessor composite)
        {
            composite.Add(processor);
        }
        else
        {
            var c = new CompositeProcessor([_current]);
            c.Add(processor);
            _current = c;
        }
    }

    public static void Register(CompositeProcessor composite, ProcessorRegistry registry, ProcessorList list, string path)
    {
        composite.Add(new FileProcessor(path));
        registry.Put(path, new FileProcessor(path));
        list.Add(new FileProcessor(path)); // expect: RLC0001
    }

    public void Dispose() => _current?.Dispose();
}

// CASE: a composite that keeps a copy of the list it is given and disposes its elements.
public sealed class CompositeReader : IDisposable
{
    private readonly List<Processor> _readers;

    public CompositeReader(IEnumerable<Processor> readers) => _readers = new List<Processor>(readers);

    public void Dispose()
    {
        foreach (var r in _readers)
            r.Dispose();
    }
}

// CASE: a method that disposes the elements of the array it is given.
public static class Closer
{
    public static void CloseAll(Processor[] processors)
    {
        foreach (var p in processors)
            p.Dispose();
    }
}

// CASE: callers hand over the collections they build: a collection expression, an array,
// a local list.
public static class CompositeUser
{
    public static Processor Both(string a, string b) =>
        new CompositeProcessor([new FileProcessor(a), new FileProcessor(b)]);

    public static CompositeReader Readers(string a, string b) =>
        new CompositeReader(new Processor[] { new FileProcessor(a), new FileProcessor(b) });

    public static void Close(string[] paths)
    {
        var all = new List<Processor>();
        foreach (var path in paths)
            all.Add(new FileProcessor(path));
        Closer.CloseAll(all.ToArray());
    }
}

// CASE: a composite that reads the processors it is given but does not keep them: their
// elements stay the caller's, and a caller that drops the collection leaks them.
public sealed class ProcessorCounter
{
    private readonly int _count;

    public ProcessorCounter(IEnumerable<Processor> processors)
    {
        foreach (var p in processors)
            _count++;
    }

    public static ProcessorCounter Count(string a) => new ProcessorCounter([new FileProcessor(a)]); // expect: RLC0005
}

// CASE: a composite that keeps only some of the processors it is given does not take the
// collection's elements: the caller's collection leaks those it drops.
public sealed class FirstOnly : IDisposable
{
    private readonly List<Processor> _items = new();

    public FirstOnly(IEnumerable<Processor> processors)
    {
        foreach (var p in processors)
        {
            if (_items.Count == 0)
                _items.Add(p);
        }
    }

    public static FirstOnly Of(string a, string b) => new FirstOnly([new FileProcessor(a), new FileProcessor(b)]); // expect: RLC0005, RLC0005

    public void Dispose()
    {
        foreach (var p in _items)
            p.Dispose();
    }
}

// CASE: an [Owning] collection parameter whose elements are disposed on one path only:
// reported at the parameter.
public static class HalfCloser
{
    public static void CloseIf([RlcSharp.Annotations.Owning] Processor[] processors, bool close) // expect: RLC0001
    {
        if (!close)
            return;
        foreach (var p in processors)
            p.Dispose();
    }
}

// A tree node that adopts its children, one or several at a time.
public sealed class Node : IDisposable
{
    private readonly List<Node> _children = new();
    private readonly FileStream _log = File.OpenWrite("node.log");

    public void Add(Node child) => _children.Add(child);

    public void Add(params Node[] children)
    {
        foreach (var c in children)
            Add(c);
    }

    public void Dispose()
    {
        foreach (var c in _children)
            c.Dispose();
        _log.Dispose();
    }
}

public static class Trees
{
    // CASE: a `params` array whose elements every path takes over is `[Owning]`
    // (`owning-param-elements`): each argument is handed over, inline or named.
    public static Node Build()
    {
        var root = new Node();
        var left = new Node();
        root.Add(left, new Node());
        return root;
    }

    // CASE: ... and what is not among the arguments still leaks.
    public static Node Forget()
    {
        var root = new Node();
        var stray = new Node(); // expect: RLC0001
        root.Add(new Node());
        return root;
    }
}

// A view that keeps its subviews in a list it reaches only through a getter over the
// field (`=> _subviews ?? []`), adds at an index and returns the view it adopted, and
// disposes the subviews by index, removing each first.
public class View : IDisposable
{
    private readonly List<View>? _subviews = [];

    internal IList<View> SubViews => _subviews ?? [];

    public View? AddAt(int index, View? view)
    {
        if (view is null)
            return null;
        SubViews.Insert(index, view);
        return view;
    }

    public View? Add(View? view) => AddAt(SubViews.Count, view);

    public View? Remove(View? view)
    {
        if (view is null)
            return null;
        SubViews.Remove(view);
        return view;
    }

    public void Dispose()
    {
        for (int i = SubViews.Count - 1; i >= 0; i--)
        {
            View subview = SubViews[i];
            Remove(subview);
            subview.Dispose();
        }
    }
}

// A getter that can return something other than its field is not the field.
public class Panel : IDisposable
{
    private readonly List<View> _views = new();
    private readonly List<View> _spare = new();

    private List<View> Views => _views.Count > 0 ? _views : _spare;

    public void Add(View view) => Views.Add(view);

    public void Dispose()
    {
        foreach (var v in _views)
            v.Dispose();
    }
}

public static class Screens
{
    // CASE: a child added through a getter over the parent's disposed subview list is
    // the parent's (the getter stands for its field), and `Add` returning the child it
    // keeps gives the caller nothing to dispose (`[return: NotOwning]`).
    public static View Build()
    {
        var parent = new View();
        var child = new View();
        parent.Add(child);
        parent.AddAt(0, new View());
        return parent;
    }

    // CASE: a getter that may return another list (here one never disposed) is no
    // field: what is added through it stays the caller's.
    public static Panel Fill()
    {
        var panel = new Panel();
        panel.Add(new View()); // expect: RLC0001
        return panel;
    }
}

// A container whose `Children` setter adopts each element of the array it is given.
public class Group : IDisposable
{
    private readonly List<View> _children = new();

    public View[] Children
    {
        set
        {
            foreach (var c in value)
                _children.Add(c);
        }
    }

    public void Dispose()
    {
        foreach (var c in _children)
            c.Dispose();
    }
}

public static class Groups
{
    // CASE: an array assigned to a setter whose every path adopts its elements hands
    // them over (`owning-param-elements` on the setter's value).
    public static Group Build()
    {
        var group = new Group();
        group.Children = new[] { new View(), new View() };
        return group;
    }
}
