import Journal
import Testing

/// SHA-256 against the test vectors of FIPS 180-4 (the report's CSP hashes and
/// the OTLP trace ids depend on it).
@Suite struct SHA256Tests {
  @Test(arguments: [
    ("", "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="),
    ("abc", "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0="),
    ("abcdbcdecdefdefgefghfghighijhijkijkljklmjklmnlmnomnopnopq", "Qc9HpfV979WpGmjNpJO8A2kWy2lHq1A684NLZXIh+Ng="),
    (String(repeating: "a", count: 1000), "Qe3s5C1j6Nm/UVqbppMuHCDLyfWl0TRkWttdsblzfqM="),
  ])
  func sha256(_ input: String, _ digest: String) {
    #expect(SHA256.base64(Array(input.utf8)) == digest)
  }
}
