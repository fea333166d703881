import MindPadRules
import MindPadStorage

/// JSON shapes of the level progress API (docs/openapi.yaml).
enum LevelsJSON {
    struct Level: Encodable {
        let level: Int
        let best_correct: Int
        let best_duration_ms: Int
        let passed: Bool
    }

    struct Game: Encodable {
        let game: String
        /// The highest level open to the player (1 before any is passed).
        let unlocked: Int
        /// The levels played, in order; a level never played is absent.
        let levels: [Level]
    }

    struct Progress: Encodable {
        let games: [Game]

        /// One entry per game of `ladders` (each with levels), in their
        /// order, from the player's `records`; rows above a game's ladder
        /// (a ladder made shorter) are left out.
        init(_ ladders: [GameInfo], _ records: [LevelRecord]) {
            games = ladders.compactMap { info in
                guard let count = info.levelCount else { return nil }
                let mine = records.filter { $0.game == info.identifier && $0.level <= count }
                return Game(game: info.identifier, unlocked: LevelLadder.highestOpen(passed: Set(mine.filter(\.passed).map(\.level)), levelCount: count),
                            levels: mine.map { Level(level: $0.level, best_correct: $0.bestCorrect,
                                                     best_duration_ms: $0.bestDurationMs, passed: $0.passed) })
            }
        }
    }

    struct Reset: Encodable {
        let reset: Int
    }
}
