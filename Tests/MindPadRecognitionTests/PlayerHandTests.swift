import Foundation
import MindPadJSON
import Testing

@testable import MindPadRecognition

/// `PlayerHand` against its Python twin (tools/train/adapt.py's `Hand`, which
/// the adaptation figures of docs/recognition.md were measured with), and its
/// storage.
struct PlayerHandTests {
    struct Fixture {
        let model: HandModel
        let learned: [(digit: Int, hidden: [Float])]
        let counts: [UInt16]
        let means: [UInt16]
        let probes: [(hidden: [Float], shift: [Float])]
    }

    static func fixture() throws -> Fixture {
        let json = try JSON.parse(PlayerHandFixture.json)
        let width = try #require(json["width"]?.integer)
        let floats = { (j: JSON?) in (j?.array ?? []).compactMap { $0.number.map(Float.init) } }
        return Fixture(
            model: try HandModel(json: try #require(json["model"]?.string), width: width),
            learned: (json["learned"]?.array ?? []).map { ($0["digit"]?.integer ?? -1, floats($0["hidden"])) },
            counts: (json["counts"]?.array ?? []).compactMap { $0.integer.map(UInt16.init) },
            means: (json["means"]?.array ?? []).compactMap { $0.integer.map(UInt16.init) },
            probes: (json["probes"]?.array ?? []).map { (floats($0["hidden"]), floats($0["shift"])) })
    }

    static func taught(_ f: Fixture) -> PlayerHand {
        var hand = PlayerHand(width: f.model.width)
        for (digit, hidden) in f.learned {
            hidden.withUnsafeBufferPointer { hand.learn(hidden: $0, digit: digit, model: f.model) }
        }
        return hand
    }

    @Test func learnsAsItsPythonTwinDoes() throws {
        let f = try Self.fixture()
        #expect(f.learned.count == 14 && f.probes.count == 3)
        let hand = Self.taught(f)
        #expect(hand.counts == f.counts)
        // The means are kept in half precision on both sides: the same bits.
        #expect(hand.means.map(\.bitPattern) == f.means)
        // The digit 1 was taught 8 times and the model stops at 4: an exponential mean.
        #expect(hand.counts[1] == 4 && hand.learned == f.counts.reduce(0) { $0 + Int($1) })
    }

    @Test func shiftsAsItsPythonTwinDoes() throws {
        let f = try Self.fixture()
        let hand = Self.taught(f)
        for probe in f.probes {
            let shift = probe.hidden.withUnsafeBufferPointer { hand.shift(hidden: $0, model: f.model) }
            for c in 0..<10 {
                #expect(abs(shift[c] - probe.shift[c]) <= 1e-3 * max(1, abs(probe.shift[c])), "digit \(c)")
            }
            // Digits never taught move nothing.
            for c in [2, 3, 4, 5, 8] { #expect(shift[c] == 0) }
        }
        // A drawing exactly like the player's own 1s gains for 1 (and for no
        // digit it was not taught).
        let ownOne = (0..<64).map { Float(hand.means[64 + $0]) }
        let atOwnOne = ownOne.withUnsafeBufferPointer { hand.shift(hidden: $0, model: f.model) }
        #expect(atOwnOne[1] > 0)
        #expect(atOwnOne[3] == 0)
    }

    @Test func anEmptyHandShiftsNothing() throws {
        let f = try Self.fixture()
        let hand = PlayerHand(width: f.model.width)
        #expect(hand.learned == 0)
        let shift = f.probes[0].hidden.withUnsafeBufferPointer { hand.shift(hidden: $0, model: f.model) }
        #expect(shift == SIMD16<Float>())
    }

    @Test func isStoredInAtMostFourKilobytesAndReadBackTheSame() throws {
        let f = try Self.fixture()
        let hand = Self.taught(f)
        let bytes = hand.bytes
        #expect(bytes.count <= 4096)
        #expect(bytes.count == 6 + 20 + 20 * 64)
        #expect(try PlayerHand(bytes: bytes, width: 64) == hand)
        // Even the widest network a hand may serve (128 hidden units) fits.
        #expect(PlayerHand(width: 128).bytes.count <= 4096)
    }

    @Test func refusesBytesThatAreNoHandOfItsWidth() throws {
        let hand = Self.taught(try Self.fixture())
        var bytes = hand.bytes
        #expect(throws: RecognitionError.self) { try PlayerHand(bytes: bytes, width: 32) }
        #expect(throws: RecognitionError.self) { try PlayerHand(bytes: Array(bytes.dropLast()), width: 64) }
        #expect(throws: RecognitionError.self) { try PlayerHand(bytes: [], width: 64) }
        bytes[0] = UInt8(ascii: "X")
        #expect(throws: RecognitionError.self) { try PlayerHand(bytes: bytes, width: 64) }
        var infinite = hand.bytes
        infinite[26] = 0x00; infinite[27] = 0x7C  // +infinity in half precision
        #expect(throws: RecognitionError.self) { try PlayerHand(bytes: infinite, width: 64) }
    }

    @Test func aModelWithBadConstantsIsRefused() throws {
        let f = try Self.fixture()
        let json = try JSON.parse(PlayerHandFixture.json)
        let text = try #require(json["model"]?.string)
        #expect(throws: RecognitionError.self) { try HandModel(json: text, width: 0) }
        #expect(throws: RecognitionError.self) { try HandModel(json: text.replacingOccurrences(of: "\"kernel\":", with: "\"k\":"), width: 64) }
        #expect(throws: RecognitionError.self) {
            try HandModel(json: text.replacingOccurrences(of: "\"sigma2\":", with: "\"sigma2\":-"), width: 64)
        }
        #expect(throws: RecognitionError.self) { try HandModel(json: "[]", width: 64) }
    }
}
