import MindPadJSON
import MindPadRules
import MindPadStorage

/// JSON shapes of a player's path-finder rounds (docs/openapi.yaml,
/// `GET /api/players/{name}/path_rounds`), read from the rounds the path
/// finder stored as its results' detail (`PathRoundResult`).
enum PathRoundsJSON {
    /// The path finder's game id (its kind's `identifier`).
    static let game = PathFinder().identifier

    /// A stored round in wall-clock time: the race started `durationMs`
    /// before the result was stored (the path finder races Normal only, so
    /// the stored duration is the run's), and the round's times are from
    /// the race start.
    struct StoredRound: Sendable, Equatable {
        let round: PathRoundResult
        /// Milliseconds since 1970, UTC.
        let startedAtMs: Int64
        let endedAtMs: Int64?

        init?(_ stored: DetailStore.Detailed) {
            guard let members = try? JSON.parse(stored.detail), let round = PathRoundResult(members: members) else { return nil }
            let raceStart = stored.finishedAtMs - Int64(stored.durationMs)
            self.round = round
            startedAtMs = raceStart + (round.gridShownAfter ?? .zero).milliseconds
            endedAtMs = round.goalReachedAfter.map { raceStart + $0.milliseconds }
        }

        /// The round as the seed's ranking sees it (seconds since 1970).
        var ranking: PathRanking.Round {
            PathRanking.Round(startTime: Double(startedAtMs) / 1000, endTime: endedAtMs.map { Double($0) / 1000 },
                              stepCount: round.steps, gridSize: round.gridSize)
        }

        /// The rank value the round shows: of a finished round, its score's
        /// (the seed's value rounded to thousandths, `PathFinder.points`), so
        /// the last five say what the round's result and the boards said, to
        /// the digit; of a round never finished, the seed's value itself.
        var rankValue: Double { round.rankValue ?? ranking.rankValue }
    }

    struct Round: Encodable {
        let rank: Int
        let stored: StoredRound

        private enum Keys: String, CodingKey {
            case rank, started_at, ended_at, steps, best_steps, tries, rows, columns, grid_size, seconds, rank_value
        }

        /// `ended_at` and `seconds` are written as null for a round never
        /// finished, never left out.
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            let round = stored.round
            try c.encode(rank, forKey: .rank)
            try c.encode(ScoresJSON.timestamp(stored.startedAtMs), forKey: .started_at)
            if let end = stored.endedAtMs {
                try c.encode(ScoresJSON.timestamp(end), forKey: .ended_at)
            } else {
                try c.encodeNil(forKey: .ended_at)
            }
            try c.encode(round.steps, forKey: .steps)
            try c.encode(round.bestSteps, forKey: .best_steps)
            try c.encode(round.tries, forKey: .tries)
            try c.encode(round.rows, forKey: .rows)
            try c.encode(round.columns, forKey: .columns)
            try c.encode(round.gridSize, forKey: .grid_size)
            if let end = stored.endedAtMs {
                try c.encode(Double(end - stored.startedAtMs) / 1000, forKey: .seconds)
            } else {
                try c.encodeNil(forKey: .seconds)
            }
            try c.encode(stored.rankValue, forKey: .rank_value)
        }
    }

    struct Rounds: Encodable {
        let player: String
        let rounds: [Round]

        /// The seed's leader board: of `recent` (the player's most recent
        /// rounds, as storage read them), the five most recent ranked best
        /// first by `PathRanking`.
        init(player: String, recent: [StoredRound]) {
            self.player = player
            rounds = PathRanking.rank(recent, round: \.ranking).enumerated().map { Round(rank: $0.offset + 1, stored: $0.element) }
        }
    }
}
