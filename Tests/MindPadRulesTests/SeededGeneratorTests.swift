import Testing

@testable import MindPadRules

@Suite struct SeededGeneratorTests {
    @Test func splitMix64MatchesReferenceVector() {
        // Reference outputs of SplitMix64 seeded with 0 (Vigna's splitmix64.c).
        var mixer = SplitMix64(state: 0)
        #expect(mixer.next() == 0xE220_A839_7B1D_CDAF)
        #expect(mixer.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(mixer.next() == 0x06C4_5D18_8009_454F)
    }

    @Test func xoshiro256StarStarMatchesReferenceVector() {
        // Reference outputs of xoshiro256** from state {1, 2, 3, 4}.
        var generator = SeededGenerator(state: (1, 2, 3, 4))
        #expect(generator.next() == 11520)
        #expect(generator.next() == 0)
        #expect(generator.next() == 1_509_978_240)
        #expect(generator.next() == 1_215_971_899_390_074_240)
    }

    @Test func seedingIsPinned() {
        // Pinned once: a change here changes every race's questions.
        var generator = SeededGenerator(seed: 42)
        let first = (0..<3).map { _ in generator.next() }
        #expect(first == Pinned.seed42)
        var streamed = SeededGenerator(seed: 42, stream: 7)
        #expect(streamed.next() == Pinned.seed42Stream7)
    }

    @Test func sameSeedSameSequence() {
        for seed in [0, 1, 42, UInt64.max] as [UInt64] {
            var a = SeededGenerator(seed: seed)
            var b = SeededGenerator(seed: seed)
            for _ in 0..<1000 { #expect(a.next() == b.next()) }
        }
    }

    @Test func streamsDiffer() {
        var seen = Set<UInt64>()
        for stream in 0..<1000 as Range<UInt64> {
            var generator = SeededGenerator(seed: 7, stream: stream)
            seen.insert(generator.next())
        }
        #expect(seen.count == 1000)
    }

    @Test func boundedDrawStaysInRangeAndIsRoughlyUniform() {
        var generator = SeededGenerator(seed: 2026)
        var counts = [Int](repeating: 0, count: 7)
        let draws = 70_000
        for _ in 0..<draws {
            let value = generator.int(in: 3...9)
            #expect((3...9).contains(value))
            counts[value - 3] += 1
        }
        // Each bucket expects 10,000; 5 sigma is about 460.
        for count in counts { #expect(abs(count - 10_000) < 500) }
    }

    @Test func boundedDrawHandlesEdgeRanges() {
        var generator = SeededGenerator(seed: 1)
        #expect(generator.int(in: 5...5) == 5)
        #expect(generator.next(below: 1) == 0)
        for _ in 0..<100 {
            let value = generator.int(in: Int.min...Int.max)
            _ = value  // must not trap
            #expect((-3...(-1)).contains(generator.int(in: -3...(-1))))
            #expect(generator.next(below: UInt64.max) < UInt64.max)
        }
    }

    @Test func coinIsFair() {
        var generator = SeededGenerator(seed: 99)
        let heads = (0..<10_000).count { _ in generator.bool() }
        #expect(abs(heads - 5000) < 250)
    }
}

/// Values recorded from the first build; they must never change.
enum Pinned {
    static let seed42: [UInt64] = [1_546_998_764_402_558_742, 6_990_951_692_964_543_102, 12_544_586_762_248_559_009]
    static let seed42Stream7: UInt64 = 15_345_366_077_727_054_347
}
