import Foundation
import MindPadRules
import MindPadStorage

/// JSON shapes of the scores API (docs/openapi.yaml). Times are ISO 8601 UTC
/// with milliseconds; durations are milliseconds.
enum ScoresJSON {
    struct Entry: Encodable {
        let rank: Int
        let name: String
        let score: Int
        let time_ms: Int
        let achieved_at: String
        /// Boards of a game whose score stands for a value of its own only
        /// (`GameInfo.rankValue`; absent on the others): that value.
        let rank_value: Double?

        init(_ e: LeaderboardEntry, game: GameInfo? = nil) {
            rank = e.rank
            name = e.name
            score = e.score
            time_ms = e.durationMs
            achieved_at = ScoresJSON.timestamp(e.achievedAtMs)
            rank_value = game?.rankValue(score: e.score)
        }
    }

    struct Board: Encodable {
        let game: String
        let mode: String
        let period: String
        let period_start: String
        let next_reset: String?
        let entries: [Entry]
        let me: Entry?
        let around: [Entry]?

        /// Each entry carries its `rank_value` where the game (`info`) has one.
        init(_ b: Leaderboard, includeAround: Bool, info: GameInfo? = nil) {
            game = b.game
            mode = b.mode
            period = b.period.rawValue
            period_start = b.periodStart
            next_reset = b.nextResetMs.map(ScoresJSON.timestamp)
            let entry = { Entry($0, game: info) }
            entries = b.entries.map(entry)
            me = b.me.map(entry)
            around = includeAround ? b.around.map(entry) : nil
        }
    }

    struct Best: Encodable {
        let score: Int
        let time_ms: Int?
        let achieved_at: String?
    }

    struct Game: Encodable {
        let result_id: String
        let mode: String
        let score: Int
        let correct: Int
        let answered: Int
        let time_ms: Int
        let finished_at: String
        let room: String?
    }

    struct Profile: Encodable {
        let name: String
        let created_at: String
        let game: String
        let highscores: [String: Best]
        let recent: [Game]

        /// `p` holds one game's bests and games: the bests keyed by mode,
        /// every mode the game offers present.
        init(_ p: PlayerProfile, game info: GameInfo) {
            name = p.player.name
            created_at = ScoresJSON.timestamp(p.player.createdAtMs)
            game = info.identifier
            var bests: [String: Best] = [:]
            for mode in info.modes { bests[mode.rawValue] = Best(score: 0, time_ms: nil, achieved_at: nil) }
            for b in p.highscores where b.game == info.identifier {
                bests[b.mode] = Best(score: b.score, time_ms: b.durationMs, achieved_at: ScoresJSON.timestamp(b.achievedAtMs))
            }
            highscores = bests
            recent = p.recent.map {
                Game(result_id: $0.resultID, mode: $0.mode, score: $0.score, correct: $0.correct, answered: $0.answered,
                     time_ms: $0.durationMs, finished_at: ScoresJSON.timestamp($0.finishedAtMs), room: $0.roomID)
            }
        }
    }

    struct Registered: Encodable {
        let name: String
        let token: String
    }

    struct OwnReset: Encodable {
        let name: String
        let highscores_reset: Int
        /// Present when the reset was asked to take the level progress too.
        let levels_reset: Int?
    }

    struct AdminReset: Encodable {
        let scope: String
        let game: String?
        let mode: String?
        let player: String?
        let highscores_reset: Int
        let rows_changed: Int
        /// Present when the reset was asked to take the level progress too.
        let levels_reset: Int?
    }

    /// `GET /api/games`: what a client builds its menu from.
    struct Catalog: Encodable {
        struct Entry: Encodable {
            let id: String
            let names: LocalizedName
            let modes: [String]
            let normal_length: Int
            let answer_input: String
            let board_order: String
            /// Whether racers may bring a pet fish (`create_room`/`join_room` `fish`).
            let plays_with_fish: Bool
            /// Games with levels only (absent otherwise).
            let levels: [Level]?
            let pass_mark: Int?
            /// A family of games sharing one client module (`GameKind.group`; absent otherwise).
            let group: String?
        }

        struct Level: Encodable {
            let level: Int
            let name: LocalizedName
        }

        let games: [Entry]

        init(_ games: [GameInfo]) {
            self.games = games.map {
                Entry(id: $0.identifier, names: $0.names, modes: $0.modes.map(\.rawValue), normal_length: $0.normalQuestionCount,
                      answer_input: $0.answerInput.rawValue, board_order: $0.boardOrder.rawValue, plays_with_fish: $0.playsWithFish,
                      levels: $0.levels.isEmpty ? nil : $0.levels.enumerated().map { Level(level: $0.offset + 1, name: $0.element) },
                      pass_mark: $0.passMark, group: $0.group)
            }
        }
    }

    static func timestamp(_ ms: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: Double(ms) / 1000))
    }
}
