// Case family: System.Security.Cryptography (hash algorithms, HMAC, Aes and its
// transforms, CryptoStream with leaveOpen, RandomNumberGenerator, RSA keys),
// X509Certificate2 / X509Store, and System.Text.Json's JsonDocument.
// cases: 18
using System;
using System.IO;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using System.Text.Json;
using System.Threading.Tasks;

namespace Cases.CryptoJsonCerts;

public static class Hashing
{
    // CASE: SHA256.Create() under using.
    public static byte[] HashDisposed(byte[] data)
    {
        using var sha = SHA256.Create();
        return sha.ComputeHash(data);
    }

    // CASE: SHA256.Create() never disposed.
    public static byte[] HashLeaked(byte[] data)
    {
        var sha = SHA256.Create(); // expect: RLC0001
        return sha.ComputeHash(data);
    }

    // CASE: `Clear()` on a hash algorithm, symmetric or asymmetric algorithm is its
    // `Dispose()`.
    public static byte[] HashCleared(byte[] data)
    {
        var md5 = MD5.Create();
        var hash = md5.ComputeHash(data);
        md5.Clear();
        md5 = null;
        var aes = Aes.Create();
        aes.GenerateKey();
        aes.Clear();
        return hash;
    }

    // CASE: `Clear()` on one path only.
    public static byte[] HashClearedOnePath(byte[] data, bool clear)
    {
        var sha = SHA1.Create(); // expect: RLC0001
        var hash = sha.ComputeHash(data);
        if (clear) sha.Clear();
        return hash;
    }

    // CASE: the static one-shot API owns nothing.
    public static byte[] OneShot(byte[] data) => SHA256.HashData(data);

    // CASE: an HMAC under using.
    public static byte[] Mac(byte[] key, byte[] data)
    {
        using var hmac = new HMACSHA256(key);
        return hmac.ComputeHash(data);
    }

    // CASE: RandomNumberGenerator.Create() never disposed; the static API owns nothing.
    public static byte[] Random(int size)
    {
        var rng = RandomNumberGenerator.Create(); // expect: RLC0001
        var bytes = new byte[size];
        rng.GetBytes(bytes);
        return RandomNumberGenerator.GetBytes(size).Length == size ? bytes : Array.Empty<byte>();
    }
}

public static class Encryption
{
    // CASE: Aes, its encryptor and a CryptoStream that leaves the output open, all disposed.
    public static void Encrypt(Stream output, byte[] key, byte[] iv, byte[] plain)
    {
        using var aes = Aes.Create();
        using var encryptor = aes.CreateEncryptor(key, iv);
        using var crypto = new CryptoStream(output, encryptor, CryptoStreamMode.Write, leaveOpen: true);
        crypto.Write(plain, 0, plain.Length);
    }

    // CASE: an encryptor transform that is never disposed.
    public static byte[] EncryptorLeaked(byte[] key, byte[] iv, byte[] block)
    {
        using var aes = Aes.Create();
        var encryptor = aes.CreateEncryptor(key, iv); // expect: RLC0001
        return encryptor.TransformFinalBlock(block, 0, block.Length);
    }

    // CASE: a CryptoStream that owns a file stream (leaveOpen defaults to false).
    public static void EncryptToFile(string path, ICryptoTransform transform, byte[] plain)
    {
        using var crypto = new CryptoStream(File.Create(path), transform, CryptoStreamMode.Write);
        crypto.Write(plain, 0, plain.Length);
    }
}

public static class Certificates
{
    // CASE: a certificate loaded from a file and never disposed.
    public static string ThumbprintLeaked(string path)
    {
        var cert = new X509Certificate2(path); // expect: RLC0001
        return cert.Thumbprint;
    }

    // CASE: a certificate under using, its private key disposed too.
    public static byte[] Sign(string path, string password, byte[] data)
    {
        using var cert = new X509Certificate2(path, password);
        using var key = cert.GetRSAPrivateKey();
        return key.SignData(data, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1);
    }

    // CASE: a public key object obtained from a certificate and never disposed.
    public static int KeySizeLeaked(X509Certificate2 cert)
    {
        var key = cert.GetRSAPublicKey(); // expect: RLC0001
        return key.KeySize;
    }

    // CASE: a store under using.
    public static int CountCertificates()
    {
        using var store = new X509Store(StoreName.My, StoreLocation.CurrentUser);
        store.Open(OpenFlags.ReadOnly);
        return store.Certificates.Count;
    }
}

public static class Json
{
    // CASE: JsonDocument.Parse under using.
    public static string NameDisposed(string json)
    {
        using var doc = JsonDocument.Parse(json);
        return doc.RootElement.GetProperty("name").GetString();
    }

    // CASE: JsonDocument.Parse used inline and dropped (its pooled buffers do not go back to the pool).
    public static int CountInline(string json)
    {
        return JsonDocument.Parse(json).RootElement.GetArrayLength(); // expect: RLC0011
    }

    // CASE: JsonDocument.ParseAsync under using; JsonElement values need nothing.
    public static async Task<JsonValueKind> KindAsync(Stream utf8Json)
    {
        using var doc = await JsonDocument.ParseAsync(utf8Json);
        var root = doc.RootElement;
        return root.ValueKind;
    }

    // CASE: JsonSerializer owns nothing.
    public static string Serialize(object value) => JsonSerializer.Serialize(value);
}
