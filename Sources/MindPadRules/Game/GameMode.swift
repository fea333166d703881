/// How a race is played and scored. The same three modes apply to every game
/// kind; a kind supplies the questions and the points for one answer.
public enum GameMode: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// A fixed number of questions (`GameKind.normalQuestionCount`), no time
    /// limit. Each correct answer scores the kind's points; a wrong one scores 0.
    case normal
    /// Play until the first wrong answer; each correct answer scores the
    /// kind's points.
    case survival
    /// As many questions as possible until the race length runs out; the
    /// score is the number of correct answers and a wrong answer ends nothing.
    case timeAttack = "time_attack"

    public var description: String {
        switch self {
        case .normal: "Normal"
        case .survival: "Survival"
        case .timeAttack: "Time Attack"
        }
    }
}
