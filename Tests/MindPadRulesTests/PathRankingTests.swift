import Foundation
import Testing

@testable import MindPadRules

/// `PathRanking` against a direct transcription of the seed's two
/// functions (`../shared/seeds/003_*`), over random histories with ties in
/// start time and in rank value and missing end times.
@Suite struct PathRankingTests {
    // MARK: The seed, transcribed (Date → seconds since 1970)

    struct GameState {
        var startTime: Date
        var endTime: Date?
        var stepCount: Int
        var gridSize: Int
        var id: Int

        func getRankValue() -> Double {
            let timeDiff = abs((endTime?.timeIntervalSince1970 ?? 0) - startTime.timeIntervalSince1970)
            return Double(stepCount) * timeDiff / Double(gridSize)
        }
    }

    static func rankGameHistory(history: [GameState]) -> [GameState] {
        var gameHistory = history
        gameHistory.sort(){$0.startTime > $1.startTime}
        var lastFive = Array(gameHistory.prefix(5))
        lastFive.sort(){$0.getRankValue() < $1.getRankValue()}
        return lastFive
    }

    // MARK: Properties

    static func round(_ s: GameState) -> PathRanking.Round {
        PathRanking.Round(startTime: s.startTime.timeIntervalSince1970, endTime: s.endTime?.timeIntervalSince1970,
                          stepCount: s.stepCount, gridSize: s.gridSize)
    }

    /// A random history: starts from a few seconds (ties), durations from a
    /// few values (ties in rank value), some rounds never ended.
    static func history(_ generator: inout SeededGenerator) -> [GameState] {
        let count = generator.int(in: 0...12)
        let base = 1_763_900_000.0
        return (0..<count).map { id in
            let start = base + Double(generator.int(in: 0...9)) * 60 + (generator.bool() ? 0 : 0.5)
            let ended = generator.int(in: 0...4) != 0
            let duration = Double([10, 20, 12.5, 30, 7.25][generator.int(in: 0...4)])
            let size = [16, 20, 24, 25, 30, 36][generator.int(in: 0...5)]
            return GameState(startTime: Date(timeIntervalSince1970: start),
                             endTime: ended ? Date(timeIntervalSince1970: start + duration) : nil,
                             stepCount: generator.int(in: 0...15), gridSize: size, id: id)
        }
    }

    @Test func matchesTheSeedOnRandomHistories() {
        var generator = SeededGenerator(seed: 16)
        var exact = 0, startTies = 0, valueTies = 0, unended = 0
        for _ in 0..<4000 {
            let history = Self.history(&generator)
            let seed = Self.rankGameHistory(history: history)
            let ours = PathRanking.rank(history) { Self.round($0) }
            #expect(ours.count == min(5, history.count))
            // The same rank values in the same (ascending) order, always.
            #expect(ours.map { Self.round($0).rankValue } == seed.map { $0.getRankValue() })
            // Five of the most recent: every round left out started no later
            // than every round kept (ties at the cut may pick either).
            let kept = Set(ours.map(\.id))
            let keptStarts = ours.map(\.startTime)
            for left in history where !kept.contains(left.id) {
                #expect(keptStarts.allSatisfy { $0 >= left.startTime })
            }
            #expect(ours.map(\.startTime).sorted() == seed.map(\.startTime).sorted() || Self.tieAtTheCut(history))
            // Equal values: the earlier start first (the seed leaves it to its sort).
            for (a, b) in zip(ours, ours.dropFirst()) where a.getRankValue() == b.getRankValue() {
                #expect(a.startTime <= b.startTime)
            }
            // Without any tie the seed's order is the only one: identical.
            let starts = Set(history.map(\.startTime)), values = Set(seed.map { $0.getRankValue() })
            if starts.count == history.count && values.count == seed.count {
                #expect(ours.map(\.id) == seed.map(\.id))
                exact += 1
            }
            if starts.count < history.count { startTies += 1 }
            if values.count < seed.count { valueTies += 1 }
            if seed.contains(where: { $0.endTime == nil }) { unended += 1 }
        }
        // The histories did exercise every case.
        #expect(exact > 200 && startTies > 1000 && valueTies > 200 && unended > 1000, "\(exact) \(startTies) \(valueTies) \(unended)")
    }

    @Test func aRoundWithoutAnEndCountsTheEpochAndRanksLast() {
        let start = 1_763_900_000.0
        let rounds = [
            PathRanking.Round(startTime: start, endTime: nil, stepCount: 3, gridSize: 20),
            PathRanking.Round(startTime: start + 60, endTime: start + 90, stepCount: 40, gridSize: 16),
            PathRanking.Round(startTime: start + 120, endTime: start + 125, stepCount: 5, gridSize: 36),
        ]
        #expect(rounds[0].rankValue == 3 * start / 20)
        #expect(PathRanking.rank(rounds) == [rounds[2], rounds[1], rounds[0]])
        // The seed's formula, kept exactly: a round never moved (0 steps) is
        // worth 0 with or without an end, and so ranks first.
        let still = PathRanking.Round(startTime: start + 180, endTime: nil, stepCount: 0, gridSize: 20)
        #expect(still.rankValue == 0 && PathRanking.rank(rounds + [still]).first == still)
    }

    @Test func onlyTheFiveMostRecentAreRanked() {
        let start = 1_763_900_000.0
        // The oldest round is the best, but not among the five most recent.
        let rounds = (0..<7).map { (i: Int) -> PathRanking.Round in
            let begin: Double = start + Double(i) * 60
            let seconds: Double = i == 0 ? 1 : 10 + Double(i)
            return PathRanking.Round(startTime: begin, endTime: begin + seconds, stepCount: 5, gridSize: 20)
        }
        let ranked = PathRanking.rank(rounds)
        #expect(ranked == Array(rounds[2...6]))
        #expect(Self.rankGameHistory(history: rounds.enumerated().map {
            GameState(startTime: Date(timeIntervalSince1970: $1.startTime), endTime: $1.endTime.map(Date.init(timeIntervalSince1970:)),
                      stepCount: $1.stepCount, gridSize: $1.gridSize, id: $0)
        }).map(\.id) == [2, 3, 4, 5, 6])
    }

    static func tieAtTheCut(_ history: [GameState]) -> Bool {
        guard history.count > 5 else { return false }
        let sorted = history.map(\.startTime).sorted(by: >)
        return sorted[4] == sorted[5]
    }
}
