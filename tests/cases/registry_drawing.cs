// Case family: Microsoft.Win32.RegistryKey (OpenSubKey / CreateSubKey / OpenBaseKey
// results are owning; the static root keys are not) and System.Drawing (Bitmap,
// Graphics.FromImage, Pen, SolidBrush, Font, Image.FromFile; Pens/Brushes are shared).
// cases: 14
using System;
using System.Drawing;
using Microsoft.Win32;

namespace Cases.RegistryDrawing;

public static class RegistryAccess
{
    // CASE: OpenSubKey under using; Registry.CurrentUser is a shared root key.
    public static object ReadValue(string path, string name)
    {
        using var key = Registry.CurrentUser.OpenSubKey(path);
        return key?.GetValue(name);
    }

    // CASE: OpenSubKey never disposed.
    public static object ReadValueLeaked(string path, string name)
    {
        var key = Registry.CurrentUser.OpenSubKey(path); // expect: RLC0001
        return key?.GetValue(name);
    }

    // CASE: OpenSubKey used inline and dropped.
    public static object ReadInline(string path, string name)
    {
        return Registry.LocalMachine.OpenSubKey(path)?.GetValue(name); // expect: RLC0001
    }

    // CASE: CreateSubKey under using.
    public static void WriteValue(string path, string name, string value)
    {
        using var key = Registry.CurrentUser.CreateSubKey(path);
        key.SetValue(name, value);
    }

    // CASE: OpenBaseKey and a subkey, both under using.
    public static object Read64(string path, string name)
    {
        using var hive = RegistryKey.OpenBaseKey(RegistryHive.LocalMachine, RegistryView.Registry64);
        using var key = hive.OpenSubKey(path);
        return key?.GetValue(name);
    }
}

public static class Drawing
{
    // CASE: a bitmap and its graphics under using; Pens.Black is shared.
    public static Bitmap DrawFrame(int width, int height)
    {
        var bitmap = new Bitmap(width, height);
        using (var g = Graphics.FromImage(bitmap))
        {
            g.DrawRectangle(Pens.Black, 0, 0, width - 1, height - 1);
        }
        return bitmap;
    }

    // CASE: Graphics.FromImage never disposed.
    public static void GraphicsLeaked(Bitmap bitmap)
    {
        var g = Graphics.FromImage(bitmap); // expect: RLC0001
        g.Clear(Color.White);
    }

    // CASE: a pen never disposed.
    public static void PenLeaked(Graphics g)
    {
        var pen = new Pen(Color.Red, 2); // expect: RLC0001
        g.DrawLine(pen, 0, 0, 10, 10);
    }

    // CASE: a brush and a font under using.
    public static void DrawText(Graphics g, string text)
    {
        using var brush = new SolidBrush(Color.Blue);
        using var font = new Font("Arial", 12);
        g.DrawString(text, font, brush, 0, 0);
    }

    // CASE: a font never disposed.
    public static SizeF MeasureLeaked(Graphics g, string text)
    {
        var font = new Font("Arial", 12); // expect: RLC0001
        return g.MeasureString(text, font);
    }

    // CASE: Image.FromFile never disposed.
    public static Size SizeOfImage(string path)
    {
        var image = Image.FromFile(path); // expect: RLC0001
        return image.Size;
    }

    // CASE: a thumbnail made from an image under using, returned to the caller.
    public static Bitmap Thumbnail(string path, int size)
    {
        using var image = Image.FromFile(path);
        return new Bitmap(image, new Size(size, size));
    }

    // CASE: the caller disposes the bitmap it received.
    public static int ThumbnailWidth(string path)
    {
        using var thumb = Thumbnail(path, 64);
        return thumb.Width;
    }

    // CASE: the caller drops the bitmap it received.
    public static void DrawFrameDropped()
    {
        DrawFrame(10, 10); // expect: RLC0001
    }
}
