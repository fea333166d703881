import Testing

@testable import MindPadRules

@Suite struct StandingsTests {
    static func result(
        _ id: String, seat: Int, mode: GameMode = .normal, score: Int, correct: Int = 0, wrong: Int = 0,
        duration: Int64 = 60_000, reached: Int64 = 0, completed: Bool = true
    ) -> PlayerResult {
        PlayerResult(
            player: PlayerID(id), name: name(id), kind: "mindpad", mode: mode, round: 1, seed: 1,
            score: score, correct: correct, wrong: wrong, duration: .milliseconds(duration),
            scoreReachedAfter: .milliseconds(reached), completed: completed, seat: seat
        )
    }

    static func order(_ mode: GameMode, _ results: [PlayerResult]) -> [String] {
        let standings = Standings(round: 1, mode: mode, results: results)
        #expect(standings.entries.map(\.rank) == Array(1...results.count))
        return standings.entries.map(\.result.player.rawValue)
    }

    @Test func normalTieBreaks() {
        // Score first.
        #expect(Self.order(.normal, [Self.result("a", seat: 0, score: 100), Self.result("b", seat: 1, score: 150)]) == ["b", "a"])
        // Equal score: completed beats abandoned.
        #expect(Self.order(.normal, [
            Self.result("a", seat: 0, score: 90, duration: 10_000, completed: false),
            Self.result("b", seat: 1, score: 90, duration: 90_000),
        ]) == ["b", "a"])
        // Then more correct answers.
        #expect(Self.order(.normal, [
            Self.result("a", seat: 0, score: 90, correct: 4), Self.result("b", seat: 1, score: 90, correct: 5),
        ]) == ["b", "a"])
        // Then the shorter duration.
        #expect(Self.order(.normal, [
            Self.result("a", seat: 0, score: 90, correct: 5, duration: 50_000),
            Self.result("b", seat: 1, score: 90, correct: 5, duration: 40_000),
        ]) == ["b", "a"])
        // Then join order.
        #expect(Self.order(.normal, [Self.result("b", seat: 1, score: 90), Self.result("a", seat: 0, score: 90)]) == ["a", "b"])
    }

    @Test func survivalTieBreaks() {
        #expect(Self.order(.survival, [
            Self.result("a", seat: 0, mode: .survival, score: 60, correct: 2, wrong: 1),
            Self.result("b", seat: 1, mode: .survival, score: 60, correct: 3, wrong: 1),
        ]) == ["b", "a"])
        #expect(Self.order(.survival, [
            Self.result("a", seat: 0, mode: .survival, score: 60, correct: 2, wrong: 1, completed: false),
            Self.result("b", seat: 1, mode: .survival, score: 60, correct: 2, wrong: 1),
        ]) == ["b", "a"])
        #expect(Self.order(.survival, [
            Self.result("a", seat: 0, mode: .survival, score: 60, correct: 2, wrong: 1, duration: 9000),
            Self.result("b", seat: 1, mode: .survival, score: 60, correct: 2, wrong: 1, duration: 8000),
        ]) == ["b", "a"])
    }

    @Test func timeAttackTiesGoToWhoeverReachedTheScoreFirst() {
        #expect(Self.order(.timeAttack, [
            Self.result("a", seat: 0, mode: .timeAttack, score: 12, reached: 140_000),
            Self.result("b", seat: 1, mode: .timeAttack, score: 12, reached: 120_500),
            Self.result("c", seat: 2, mode: .timeAttack, score: 13, reached: 149_999),
        ]) == ["c", "b", "a"])
        // Wrong answers do not matter; the same instant falls back to join order.
        #expect(Self.order(.timeAttack, [
            Self.result("b", seat: 1, mode: .timeAttack, score: 5, wrong: 0, reached: 1000),
            Self.result("a", seat: 0, mode: .timeAttack, score: 5, wrong: 9, reached: 1000),
        ]) == ["a", "b"])
    }

    @Test func emptyStandingsHaveNoWinner() {
        #expect(Standings(round: 1, mode: .normal, results: []).winner == nil)
    }

    @Test func lowerFirstKindsRankTheLowestCompletedScoreFirst() {
        let results = [
            Self.result("a", seat: 0, mode: .normal, score: 40, correct: 3),
            Self.result("b", seat: 1, mode: .normal, score: 25, correct: 3),
            Self.result("c", seat: 2, mode: .normal, score: 5, correct: 1, completed: false),
            Self.result("d", seat: 3, mode: .normal, score: 25, correct: 4),
        ]
        let standings = Standings(round: 1, mode: .normal, results: results, order: .lowerFirst)
        // Completed before abandoned, then lower score, then the mode's keys (more correct).
        #expect(standings.entries.map(\.result.player) == ["d", "b", "a", "c"])
        // The same results where more is better.
        #expect(Standings(round: 1, mode: .normal, results: results).entries.map(\.result.player) == ["a", "d", "b", "c"])
    }
}
