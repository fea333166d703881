import Testing

@testable import MindPadRules

@Suite struct DifficultyScheduleTests {
    @Test func normalSchedule() {
        var generator = SeededGenerator(seed: 1)
        let schedule = (0..<12).map { DifficultySchedule.difficulty(mode: .normal, index: $0, using: &generator) }
        #expect(schedule == [1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3])
    }

    @Test func timeAttackDrawsOneToThreeUniformly() {
        var counts = [0, 0, 0]
        for seed in 0..<6000 as Range<UInt64> {
            var generator = SeededGenerator(seed: seed)
            counts[DifficultySchedule.difficulty(mode: .timeAttack, index: 3, using: &generator) - 1] += 1
        }
        for count in counts { #expect(abs(count - 2000) < 200, "\(counts)") }
    }

    @Test func survivalRampsUp() {
        #expect(DifficultySchedule.survivalRange(index: 0) == 1...2)
        #expect(DifficultySchedule.survivalRange(index: 4) == 1...2)
        #expect(DifficultySchedule.survivalRange(index: 5) == 1...3)
        #expect(DifficultySchedule.survivalRange(index: 14) == 1...3)
        #expect(DifficultySchedule.survivalRange(index: 15) == 2...3)
        #expect(DifficultySchedule.survivalRange(index: 29) == 2...3)
        #expect(DifficultySchedule.survivalRange(index: 30) == 3...3)
        #expect(DifficultySchedule.survivalRange(index: 1000) == 3...3)
        // Never easier later: both bounds only climb.
        for index in 1..<100 {
            let before = DifficultySchedule.survivalRange(index: index - 1)
            let now = DifficultySchedule.survivalRange(index: index)
            #expect(now.lowerBound >= before.lowerBound && now.upperBound >= before.upperBound)
        }
    }

    @Test func survivalDrawsCoverEachWindow() {
        let kind = MindPadArithmetic()
        var seen: [Int: Set<Int>] = [:]
        for seed in 0..<2000 as Range<UInt64> {
            for index in [0, 5, 15, 30] {
                seen[index, default: []].insert(kind.question(seed: seed, index: index, mode: .survival).difficulty)
            }
        }
        #expect(seen == [0: [1, 2], 5: [1, 2, 3], 15: [2, 3], 30: [3]])
    }

    @Test func averageSurvivalDifficultyClimbs() {
        let kind = MindPadArithmetic()
        func average(_ index: Int) -> Double {
            let total = (0..<1000 as Range<UInt64>).reduce(0) { $0 + kind.question(seed: $1, index: index, mode: .survival).difficulty }
            return Double(total) / 1000
        }
        #expect(average(0) < average(10))
        #expect(average(10) < average(20))
        #expect(average(20) < average(40))
    }
}
