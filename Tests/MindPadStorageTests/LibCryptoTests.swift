import Foundation
import MindPadStorage
import MindPadTestSupport
import Testing

@Suite struct LibCryptoTests {
    // NIST FIPS 180-4 example vectors.
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func nistVectors(input: String, expected: String) {
        #expect(LibCrypto.sha256Hex(input.utf8) == expected)
    }

    @Test func millionAs() {
        let input = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(LibCrypto.sha256Hex(input) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Hashes stored by earlier releases (computed by the hand-written
    /// SHA-256 this replaced): every stored token hash must still match.
    @Test(arguments: [
        ("t", "e3b98a4da31a127d4bde6e43033f66ba274cab0eb7eb1c70ec41402bf6273dd8"),
        ("0f1e2d3c4b5a69788796a5b4c3d2e1f00112233445566778899aabbccddeeff",
         "752c249695db74be9cacb5859af2e2f1fe0063edc93c4af9f6a032cd640f0c0e"),
        ("tökén-ü 🔑", "805da3aed503c918313c94cb690a46b245d975b47d1fc5cc0c4e0e6a32f783d8"),
    ])
    func tokenHashesAreUnchanged(token: String, stored: String) {
        #expect(PlayerToken.hash(token) == stored)
        #expect(PlayerToken.matches(token, storedHash: stored))
    }

    /// The checksums `schema_migrations` holds for the migrations already
    /// applied in deployments (computed by the replaced implementation):
    /// a different digest would stop every existing server from starting.
    @Test func appliedMigrationChecksumsAreUnchanged() throws {
        let applied = [
            1: "cbc04ddf7d35ce64c83ed31a311d64dbc2a8ac66c341269eebcfcaa3de613d80",
            2: "4c1a8934d25eb3460b9b059b7d2cb5859529d50a22e2f27c2c69c652d31558f1",
            3: "2c94f173f7abde212792d37ddb151552ade8c596ddb79cef8224eb44e9e9ca2b",
            4: "8998e722e6341ff3ea245d2b297e7fdcc02614773f93d486989ded2b36c93ad9",
            5: "51b3c611871df9d7ff64e45dd54c7131ba4a6f8f41ff381a32a7c3ebaf7d7af8",
        ]
        let files = try MigrationFile.load(from: ServerProcess.projectRoot.appendingPathComponent("Migrations"))
        for (version, checksum) in applied {
            let file = try #require(files.first { $0.version == version })
            #expect(file.checksum == checksum, "\(file.fileName)")
        }
    }

    @Test func randomBytesAreFreshEachTime() {
        let draws = (0..<64).map { _ in LibCrypto.randomBytes(32) }
        #expect(draws.allSatisfy { $0.count == 32 })
        #expect(Set(draws.map { LibCrypto.hex($0) }).count == 64)
        let token = PlayerToken.generate()
        #expect(token.count == 64)
        #expect(token.allSatisfy { "0123456789abcdef".contains($0) })
    }

    @Test func hexIsLowerCaseTwoDigitsPerByte() {
        #expect(LibCrypto.hex([0x00, 0x0f, 0xa0, 0xff]) == "000fa0ff")
    }

    /// Version 4, variant 10, in the text form PostgreSQL's uuid and
    /// Foundation both read back unchanged.
    @Test func uuidV4HasItsVersionAndVariantAndIsFresh() {
        let ids = (0..<256).map { _ in LibCrypto.uuidV4() }
        #expect(Set(ids).count == ids.count)
        for id in ids {
            #expect(id.wholeMatch(of: /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/) != nil, "\(id)")
            #expect(UUID(uuidString: id)?.uuidString.lowercased() == id)
        }
    }
}
