import Foundation

/// A finished game as storage keeps it. Codable so it can wait in the
/// journal while the database is away.
public struct GameResultRecord: Codable, Sendable, Equatable {
    /// Chosen when the game ends (a UUID); makes the write idempotent.
    public var resultID: String
    public var playerID: Int64
    /// The game's identifier, e.g. `mindpad`: each game has its own boards.
    public var game: String
    /// Whether the game's boards put lower scores first; false for games
    /// where more is better.
    public var lowerScoreWins: Bool
    /// A mode key such as `normal`, `survival`, `time_attack`.
    public var mode: String
    /// The level raced (games with levels, 1…20), nil otherwise. Storing a
    /// result with a level updates the player's `level_progress`.
    public var level: Int?
    /// Correct answers that pass `level`: the game's own pass mark
    /// (`GameInfo.passMark`), carried with the result so that storage never
    /// assumes one game's ladder for another. Nil without a level, and in
    /// journal lines written before it (`ScoreStore.defaultPassMark` then:
    /// the kids' ladder, the only one there was).
    public var passMark: Int?
    public var score: Int
    public var correct: Int
    public var answered: Int
    /// Total time; in Time Attack, when the final score was reached.
    public var durationMs: Int
    public var roomID: String?
    public var raceID: String?
    /// Milliseconds since 1970, UTC.
    public var finishedAtMs: Int64
    /// How many of `answered` were typed on the keypad (0…answered).
    public var keypadAnswers: Int
    /// The player's pet fish the game was played with (the Fish game), if
    /// any; storing the result raises that fish's best score.
    public var fishID: UUID?
    /// What the game's kind adds to the result (migration 0018,
    /// `game_results.detail`): a JSON object as text, which this layer
    /// stores and reads back but never looks into; nil for a kind that adds
    /// nothing.
    public var detail: String?
    /// The part of the detail only a replay shows (`game_results.replay_detail`):
    /// a JSON object as text, deleted with the run's answers
    /// (`AnswerStore.deleteAnswers`); nil when there is none.
    public var replayDetail: String?
    /// Members of a journal line written before 0018 that held a kind's
    /// detail in a shape of its own, by key, as JSON text: the server's
    /// kinds make them `detail` again before the line is written
    /// (`ResultRecorder`); a member no kind takes is not stored.
    public var legacyDetails: [String: String] = [:]
    /// Whether the run ended by the rules rather than by the racer leaving
    /// (migration 0011); nil in journal lines written before it.
    public var completed: Bool?
    /// Every graded answer of the run, in order (migration 0010), written to
    /// `result_answers` with the result; within `AnswerRecord`'s bounds.
    public var answers: [AnswerRecord]
    /// Kept off the public boards: a class's lesson result whose teacher
    /// did not allow them (issue 46). Stored and counted all the same.
    public var offBoards = false

    /// The game of every result stored before results named their game
    /// (migration 0006 made those rows this game's; journal lines of that
    /// time have no `game`).
    public static let legacyGame = "mindpad"

    public init(resultID: String = UUID().uuidString.lowercased(), playerID: Int64, game: String = legacyGame,
                lowerScoreWins: Bool = false, mode: String, level: Int? = nil, passMark: Int? = nil,
                score: Int, correct: Int, answered: Int, durationMs: Int,
                roomID: String? = nil, raceID: String? = nil, finishedAtMs: Int64,
                keypadAnswers: Int = 0, fishID: UUID? = nil, detail: String? = nil, replayDetail: String? = nil,
                answers: [AnswerRecord] = [],
                completed: Bool? = nil) {
        self.resultID = resultID
        self.playerID = playerID
        self.game = game
        self.lowerScoreWins = lowerScoreWins
        self.mode = mode
        self.level = level
        self.passMark = passMark
        self.score = score
        self.correct = correct
        self.answered = answered
        self.durationMs = durationMs
        self.roomID = roomID
        self.raceID = raceID
        self.finishedAtMs = finishedAtMs
        self.keypadAnswers = keypadAnswers
        self.fishID = fishID
        self.detail = detail
        self.replayDetail = replayDetail
        self.answers = AnswerRecord.bounded(answers)
        self.completed = completed
    }
}

extension GameResultRecord {
    private enum CodingKeys: String, CodingKey {
        case resultID, playerID, game, lowerScoreWins, mode, score, correct, answered, durationMs, roomID, raceID, finishedAtMs
        case keypadAnswers, fishID, level, passMark, detail, replayDetail, answers, completed, offBoards
        /// Journal lines from 0009 to 0018: the path finder's round, in
        /// the shape of its table of that time (`legacyDetails`).
        case path
    }

    /// Journal lines written before games had names are MindPad results;
    /// lines written before the keypad and fish (0007) had none, and lines
    /// written before levels (0008) have no `level`, and lines written
    /// before answers were kept (0010) no `answers`, and lines written
    /// before 0011 no `completed`; lines written before 0018 carry a kind's
    /// detail as a member of its own (`legacyDetails`).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        resultID = try c.decode(String.self, forKey: .resultID)
        playerID = try c.decode(Int64.self, forKey: .playerID)
        game = try c.decodeIfPresent(String.self, forKey: .game) ?? Self.legacyGame
        lowerScoreWins = try c.decodeIfPresent(Bool.self, forKey: .lowerScoreWins) ?? false
        mode = try c.decode(String.self, forKey: .mode)
        level = try c.decodeIfPresent(Int.self, forKey: .level)
        passMark = try c.decodeIfPresent(Int.self, forKey: .passMark)
        score = try c.decode(Int.self, forKey: .score)
        correct = try c.decode(Int.self, forKey: .correct)
        answered = try c.decode(Int.self, forKey: .answered)
        durationMs = try c.decode(Int.self, forKey: .durationMs)
        roomID = try c.decodeIfPresent(String.self, forKey: .roomID)
        raceID = try c.decodeIfPresent(String.self, forKey: .raceID)
        finishedAtMs = try c.decode(Int64.self, forKey: .finishedAtMs)
        keypadAnswers = try c.decodeIfPresent(Int.self, forKey: .keypadAnswers) ?? 0
        fishID = try c.decodeIfPresent(UUID.self, forKey: .fishID)
        detail = try c.decodeIfPresent(String.self, forKey: .detail)
        replayDetail = try c.decodeIfPresent(String.self, forKey: .replayDetail)
        if let legacy = try c.decodeIfPresent(JournalJSON.self, forKey: .path) { legacyDetails["path"] = legacy.text }
        answers = AnswerRecord.bounded(try c.decodeIfPresent([AnswerRecord].self, forKey: .answers) ?? [])
        completed = try c.decodeIfPresent(Bool.self, forKey: .completed)
        offBoards = try c.decodeIfPresent(Bool.self, forKey: .offBoards) ?? false
    }

    /// The key a board orders by, smaller first: -score where more is better.
    public var rankKey: Int { lowerScoreWins ? score : -score }

    /// Whether the result may enter the boards: not a run the racer left
    /// in a game where less is better (it scored 0, which would top the
    /// board).
    public var entersBoards: Bool { !offBoards && (!lowerScoreWins || completed != false) }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(resultID, forKey: .resultID)
        try c.encode(playerID, forKey: .playerID)
        try c.encode(game, forKey: .game)
        try c.encode(lowerScoreWins, forKey: .lowerScoreWins)
        try c.encode(mode, forKey: .mode)
        try c.encodeIfPresent(level, forKey: .level)
        try c.encodeIfPresent(passMark, forKey: .passMark)
        try c.encode(score, forKey: .score)
        try c.encode(correct, forKey: .correct)
        try c.encode(answered, forKey: .answered)
        try c.encode(durationMs, forKey: .durationMs)
        try c.encodeIfPresent(roomID, forKey: .roomID)
        try c.encodeIfPresent(raceID, forKey: .raceID)
        try c.encode(finishedAtMs, forKey: .finishedAtMs)
        try c.encode(keypadAnswers, forKey: .keypadAnswers)
        try c.encodeIfPresent(fishID, forKey: .fishID)
        try c.encodeIfPresent(detail, forKey: .detail)
        try c.encodeIfPresent(replayDetail, forKey: .replayDetail)
        try c.encode(answers, forKey: .answers)
        try c.encodeIfPresent(completed, forKey: .completed)
        if offBoards { try c.encode(offBoards, forKey: .offBoards) }
    }
}

/// What storing a result did.
public struct RecordOutcome: Sendable, Equatable {
    /// False when a result with this id was already stored (a replay).
    public var stored: Bool
    /// The result beat the player's all-time best in its mode.
    public var personalBest: Bool
    /// The all-time best before this result, if there was one.
    public var previousBest: Int?

    public init(stored: Bool, personalBest: Bool, previousBest: Int?) {
        self.stored = stored
        self.personalBest = personalBest
        self.previousBest = previousBest
    }
}

/// Whether a token proves a name (`ScoreStore.authenticate`).
public enum PlayerAuthentication: Sendable, Equatable {
    case player(PlayerRecord)
    /// Nobody has the name.
    case unknownPlayer
    /// The name is someone's, and the token is none of theirs.
    case wrongToken
}

public struct PlayerRecord: Sendable, Equatable {
    public var id: Int64
    public var name: String
    public var createdAtMs: Int64

    public init(id: Int64, name: String, createdAtMs: Int64) {
        self.id = id
        self.name = name
        self.createdAtMs = createdAtMs
    }
}

/// The periods a leaderboard covers. Days are UTC days; weeks are ISO weeks
/// (Monday 00:00 UTC to the next Monday).
public enum LeaderboardPeriod: String, Sendable, CaseIterable, Codable {
    case all, day, week

    /// The first day of the period containing `instant`, as `yyyy-mm-dd`.
    public func start(containing instant: Date) -> String {
        switch self {
        case .all: return "1970-01-01"
        case .day: return Self.dayString(Self.utcMidnight(instant))
        case .week: return Self.dayString(Self.mondayMidnight(instant))
        }
    }

    /// When the period containing `instant` ends; nil for all-time.
    public func nextReset(after instant: Date) -> Date? {
        switch self {
        case .all: return nil
        case .day: return Self.utcMidnight(instant).addingTimeInterval(86_400)
        case .week: return Self.mondayMidnight(instant).addingTimeInterval(7 * 86_400)
        }
    }

    static func utcMidnight(_ d: Date) -> Date {
        Date(timeIntervalSince1970: (d.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400)
    }

    static func mondayMidnight(_ d: Date) -> Date {
        let midnight = utcMidnight(d)
        // 1970-01-01 was a Thursday: days since then, shifted so Monday is 0.
        let days = Int((midnight.timeIntervalSince1970 / 86_400).rounded())
        let weekday = ((days + 3) % 7 + 7) % 7
        return midnight.addingTimeInterval(-Double(weekday) * 86_400)
    }

    static func dayString(_ d: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day], from: d)
        return String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
    }
}

public struct LeaderboardEntry: Sendable, Equatable {
    public var rank: Int
    public var playerID: Int64
    public var name: String
    public var score: Int
    public var durationMs: Int
    public var achievedAtMs: Int64
}

public struct Leaderboard: Sendable, Equatable {
    public var game: String
    public var mode: String
    public var period: LeaderboardPeriod
    public var periodStart: String
    public var nextResetMs: Int64?
    public var entries: [LeaderboardEntry]
    /// With `around`: the player's own entry (nil if they have none)…
    public var me: LeaderboardEntry?
    /// …and their neighbours, in board order, including the player.
    public var around: [LeaderboardEntry]
}

public struct PlayerProfile: Sendable, Equatable {
    public struct Best: Sendable, Equatable {
        public var game: String
        public var mode: String
        public var score: Int
        public var durationMs: Int
        public var achievedAtMs: Int64
    }

    public var player: PlayerRecord
    public var highscores: [Best]
    public var recent: [GameResultRecord]
}

/// Who an admin reset covers.
/// What a reset removed.
public struct ResetOutcome: Sendable, Equatable {
    /// All-time bests removed.
    public var bests: Int
    /// Board rows removed, across every period.
    public var rows: Int
    /// Levels' progress rows removed (0 unless the reset was asked to).
    public var levels: Int
    /// Players' learned hands removed (a reset of every game and mode).
    public var hands: Int

    public init(bests: Int, rows: Int, levels: Int = 0, hands: Int = 0) {
        (self.bests, self.rows, self.levels, self.hands) = (bests, rows, levels, hands)
    }
}

public enum ResetScope: Sendable, Equatable {
    case all
    case mode(String)
    case player(id: Int64, name: String)
    case playerMode(id: Int64, name: String, mode: String)

    /// The scope's name in the audit table and the API.
    public var label: String {
        switch self {
        case .all: "all"
        case .mode: "mode"
        case .player: "player"
        case .playerMode: "player_mode"
        }
    }
}
