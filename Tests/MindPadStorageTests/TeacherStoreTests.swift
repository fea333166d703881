import Foundation
import MindPadStorage
import MindPadTestSupport
import Testing

/// Teachers' passwords, tokens and classes (issue 46, migration 0019).
@Suite struct PasswordHashTests {
    /// RFC 7914 §11's PBKDF2-HMAC-SHA256 vectors (the first 32 bytes).
    @Test func pbkdf2MatchesThePublishedVectors() {
        #expect(LibCrypto.hex(LibCrypto.pbkdf2SHA256(password: "passwd".utf8, salt: Array("salt".utf8), iterations: 1))
                == "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc")
        #expect(LibCrypto.hex(LibCrypto.pbkdf2SHA256(password: "Password".utf8, salt: Array("NaCl".utf8), iterations: 80_000))
                == "4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56")
    }

    @Test func aHashVerifiesItsPasswordAndNothingElse() {
        let stored = PasswordHash.make("correct horse", iterations: 1_000)
        #expect(stored.hasPrefix("pbkdf2-sha256$1000$") && stored.split(separator: "$").map(\.count) == [13, 4, 32, 64])
        #expect(PasswordHash.verify("correct horse", against: stored))
        #expect(!PasswordHash.verify("correct horsE", against: stored))
        #expect(!PasswordHash.verify("", against: stored))
        // A fresh salt each time: the same password never hashes alike.
        #expect(PasswordHash.make("correct horse", iterations: 1_000) != stored)
        // The iterations travel with the hash.
        #expect(PasswordHash.verify("口令是一匹马", against: PasswordHash.make("口令是一匹马", iterations: 7)))
        // Anything else stored is no match, not a crash.
        for bad in ["", "plain", "pbkdf2-sha256$0$00$00", "pbkdf2-sha256$1000$zz$" + String(repeating: "0", count: 64),
                    "md5$1$" + String(repeating: "0", count: 32) + "$" + String(repeating: "0", count: 64),
                    String(stored.dropLast())] {
            #expect(!PasswordHash.verify("correct horse", against: bad), "\(bad)")
        }
        #expect(PasswordHash.refusal("short") != nil && PasswordHash.refusal(String(repeating: "x", count: 129)) != nil)
        #expect(PasswordHash.refusal("eight ch") == nil)
    }

    @Test func classCodesUseTheUnmistakableAlphabetEvenly() {
        let codes = (0..<3_000).map { _ in ClassCode.generate() }
        #expect(codes.allSatisfy { $0.count == 6 && $0.allSatisfy(ClassCode.alphabet.contains) })
        #expect(Set(codes).count > 2_990)
        // Every character turns up, none more than about twice as often as another.
        var seen: [Character: Int] = [:]
        for c in codes.joined() { seen[c, default: 0] += 1 }
        #expect(seen.count == 31 && (seen.values.max() ?? 0) < 2 * (seen.values.min() ?? 1))
        #expect(ClassCode.normalized(" abc-2de ") == "ABC2DE" && ClassCode.normalized("abc-0de") == nil)
        #expect(ClassCode.normalized("ab0def") == nil && ClassCode.normalized("ABCDEFG") == nil)
    }
}

@Suite struct TeacherStoreTests {
    func teacher(_ store: TeacherStore, _ name: String, token: String = PlayerToken.generate()) throws -> TeacherRecord? {
        try store.createTeacher(name: name, nameKey: name.lowercased(), passwordHash: PasswordHash.make("pass " + name, iterations: 10),
                                tokenHash: PlayerToken.hash(token))
    }

    @Test func aTeacherSignsUpOnceAndIsFoundByTokenAndByName() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let store = TeacherStore(try db.connect())
        let token = PlayerToken.generate()
        let ms = try #require(try teacher(store, "Ms Rao", token: token))
        #expect(ms.name == "Ms Rao")
        #expect(try teacher(store, "MS RAO") == nil, "the name is taken, whatever its case")
        #expect(try store.teacher(tokenHash: PlayerToken.hash(token)) == ms)
        #expect(try store.teacher(tokenHash: PlayerToken.hash("guess")) == nil)
        let found = try #require(try store.credentials(nameKey: "ms rao"))
        #expect(found.teacher == ms && PasswordHash.verify("pass Ms Rao", against: found.passwordHash))
        #expect(try store.credentials(nameKey: "nobody") == nil)
        // A second device's token.
        let other = PlayerToken.generate()
        try store.addToken(teacherID: ms.id, tokenHash: PlayerToken.hash(other))
        #expect(try store.teacher(tokenHash: PlayerToken.hash(other)) == ms)
        // A name that looks like SQL is a name.
        let odd = try #require(try teacher(store, "x'); DROP TABLE t--"))
        #expect(odd.name == "x'); DROP TABLE t--")
        // The table refuses a password kept in any other form.
        #expect(throws: PostgresError.self) {
            _ = try store.createTeacher(name: "Plain", nameKey: "plain", passwordHash: "hunter22", tokenHash: PlayerToken.hash("t"))
        }
    }

    @Test func aTeachersClassesAreTheirsAlone() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let store = TeacherStore(try db.connect())
        let ms = try #require(try teacher(store, "Ms Rao")), mr = try #require(try teacher(store, "Mr Lee"))
        let first = try #require(try store.createClass(id: LibCrypto.uuidV4(), teacherID: ms.id, name: "3B", joinCode: "ABC234"))
        let second = try #require(try store.createClass(id: LibCrypto.uuidV4(), teacherID: ms.id, name: "Maths club 🧮",
                                                        joinCode: ClassCode.generate()))
        // A code already given out is not given twice: the caller draws another.
        #expect(try store.createClass(id: LibCrypto.uuidV4(), teacherID: mr.id, name: "4A", joinCode: "ABC234") == nil)
        let theirs = try #require(try store.createClass(id: LibCrypto.uuidV4(), teacherID: mr.id, name: "4A",
                                                        joinCode: ClassCode.generate()))
        #expect(try store.classes(teacherID: ms.id) == [first, second])
        #expect(try store.classes(teacherID: mr.id) == [theirs])
        // Another teacher's class is no class of theirs: not read, not deleted.
        #expect(try store.ownClass(id: first.id, teacherID: mr.id) == nil)
        #expect(try store.ownClass(id: first.id, teacherID: ms.id) == first)
        #expect(try !store.deleteClass(id: first.id, teacherID: mr.id))
        #expect(try store.classes(teacherID: ms.id).count == 2)
        #expect(try store.deleteClass(id: first.id, teacherID: ms.id))
        #expect(try store.classes(teacherID: ms.id) == [second])
        // Names and codes the table does not take.
        #expect(throws: PostgresError.self) {
            _ = try store.createClass(id: LibCrypto.uuidV4(), teacherID: ms.id, name: String(repeating: "x", count: 41), joinCode: "XYZ234")
        }
        #expect(throws: PostgresError.self) {
            _ = try store.createClass(id: LibCrypto.uuidV4(), teacherID: ms.id, name: "5C", joinCode: "ABC0I1")
        }
        // A teacher deleted takes their tokens and classes along, and nobody else's.
        #expect(try store.deleteTeacher(id: ms.id))
        #expect(try store.classes(teacherID: ms.id).isEmpty && store.classes(teacherID: mr.id) == [theirs])
        let left = try store.connection.query("SELECT count(*) AS n FROM teacher_tokens WHERE teacher_id = \(ms.id)::bigint")
        #expect(left.value("n") == "0")
    }
}
