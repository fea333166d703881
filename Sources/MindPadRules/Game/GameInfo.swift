/// How a racer gives an answer, which decides the client's input and the
/// server's path: handwriting is streamed as strokes and read on the
/// server; a tap or a move is sent with `submit` as the kind's `Answer`.
public enum AnswerInput: String, Sendable, Hashable, Codable, CaseIterable {
    /// One digit written on the pad (MindPad).
    case drawnDigit = "drawn_digit"
    /// A whole number written on the pad, left to right (Add-One digits).
    case drawnNumber = "drawn_number"
    /// One of the options shown.
    case choice
    /// One of the options shown, or, when the right answer is one digit
    /// (the prompt says `drawable`), that digit written on the pad and read
    /// on the server as `drawn_digit` is (the kids' exercises).
    case choiceOrDigit = "choice_or_digit"
    /// A move on a board (the grid path finder).
    case move

    /// Whether the answer is handwriting, streamed as strokes.
    public var isHandwriting: Bool {
        switch self {
        case .drawnDigit, .drawnNumber: true
        case .choice, .choiceOrDigit, .move: false
        }
    }

    /// Whether a drawing may be an answer at all (per question for
    /// `choice_or_digit`: `GameKind.isDrawable`).
    public var acceptsDrawing: Bool {
        switch self {
        case .drawnDigit, .drawnNumber, .choiceOrDigit: true
        case .choice, .move: false
        }
    }
}

/// Which end of a leaderboard is the top.
public enum BoardOrder: String, Sendable, Hashable, Codable {
    /// More is better (points, correct answers).
    case higherFirst = "higher_first"
    /// Less is better (the path finder's steps × time / size).
    case lowerFirst = "lower_first"
}

/// A name in every language the client speaks.
public struct LocalizedName: Sendable, Hashable, Codable {
    public let en: String
    public let zh: String
    public init(en: String, zh: String) {
        self.en = en
        self.zh = zh
    }
}

/// What the catalog says about a kind: enough for a client to build its
/// menu and for the server to create rooms and order boards.
public struct GameInfo: Sendable, Hashable {
    public let identifier: String
    public let names: LocalizedName
    public let modes: [GameMode]
    public let normalQuestionCount: Int
    public let answerInput: AnswerInput
    public let boardOrder: BoardOrder
    /// Whether racers may bring a fish (`GameKind.playsWithFish`).
    public let playsWithFish: Bool
    /// The ladder of levels (`GameKind.levels`); empty without levels.
    public let levels: [LocalizedName]
    /// Correct answers that pass a level (`GameKind.passMark`).
    public let passMark: Int?
    /// The family of games it belongs to (`GameKind.group`), if any.
    public let group: String?
    /// A board's rank value per score (`GameKind.scorePerRankValue`), if any.
    public let scorePerRankValue: Int?

    /// The rank value a score stands for on the boards (`rank_value`); nil
    /// for a game whose score is its value.
    public func rankValue(score: Int) -> Double? { scorePerRankValue.map { Double(score) / Double($0) } }

    /// Whether `level` is one of the game's levels.
    public func hasLevel(_ level: Int) -> Bool { levels.indices.contains(level - 1) }

    /// How many levels the ladder has; nil without levels.
    public var levelCount: Int? { levels.isEmpty ? nil : levels.count }

    /// Whether the game has a ladder of levels (and so progress per player).
    public var hasLevels: Bool { !levels.isEmpty }
}

/// A handwritten answer as the recognizer read it: the digits, left to
/// right. (The rules never see strokes or pixels.)
public struct HandwrittenAnswer: Sendable, Hashable {
    public let digits: [Int]
    public init(digits: [Int]) {
        self.digits = digits
    }
}

extension GameKind {
    public var info: GameInfo {
        GameInfo(identifier: identifier, names: names, modes: modes, normalQuestionCount: normalQuestionCount,
                 answerInput: answerInput, boardOrder: boardOrder, playsWithFish: playsWithFish,
                 levels: levels, passMark: passMark, group: group, scorePerRankValue: scorePerRankValue)
    }
}
