@testable import MindPadRules

/// Drives one room with a manual clock: no sleeps, no threads.
struct RaceHarness<Kind: GameKind> {
    var machine: RaceStateMachine<Kind>
    var now: RaceInstant = .zero
    /// Every effect so far, in order.
    var log: [RaceEffect<Kind>] = []
    /// The timer the owner would hold.
    var timer: RaceInstant?

    init(kind: Kind, configuration: RaceConfiguration, seed: UInt64 = 42) {
        machine = RaceStateMachine(kind: kind, configuration: configuration, seed: seed)
    }

    @discardableResult
    mutating func send(_ event: RaceEvent<Kind>) -> [RaceEffect<Kind>] {
        let effects = machine.handle(event, at: now)
        log += effects
        for effect in effects {
            switch effect {
            case .scheduleTick(let at): timer = at
            case .cancelTick: timer = nil
            default: break
            }
        }
        return effects
    }

    mutating func wait(_ duration: RaceDuration) {
        now = now + duration
    }

    /// Moves the clock to the pending timer and delivers the tick, as a
    /// punctual owner would.
    @discardableResult
    mutating func fireTimer() -> [RaceEffect<Kind>] {
        guard let at = timer else { return [] }
        now = max(now, at)
        return send(.tick)
    }

    /// The last question sent to `player`.
    func lastQuestion(for player: PlayerID) -> QuestionDelivery<Kind>? {
        log.questions.last { $0.player == player }
    }

    /// Answers `player`'s current question with `answer`.
    @discardableResult
    mutating func answer(_ player: PlayerID, _ answer: Kind.Answer) -> [RaceEffect<Kind>] {
        let delivery = lastQuestion(for: player)!
        return send(.answer(player, question: delivery.id, answer))
    }

    /// Answers `player`'s current question correctly.
    @discardableResult
    mutating func answerCorrectly(_ player: PlayerID) -> [RaceEffect<Kind>] {
        let delivery = lastQuestion(for: player)!
        return send(.answer(player, question: delivery.id, machine.kind.correctAnswer(to: delivery.question)))
    }
}

extension RaceHarness where Kind == MindPadArithmetic {
    init(_ configuration: RaceConfiguration, seed: UInt64 = 42) {
        self.init(kind: MindPadArithmetic(), configuration: configuration, seed: seed)
    }

    /// Answers `player`'s current question with a wrong digit.
    @discardableResult
    mutating func answerWrongly(_ player: PlayerID) -> [RaceEffect<Kind>] {
        let delivery = lastQuestion(for: player)!
        let wrong = Digit((delivery.question.answer.value + 1) % 10)!
        return send(.answer(player, question: delivery.id, wrong))
    }
}

func name(_ raw: String) -> PlayerName {
    try! PlayerName(validating: raw)
}

/// Lets array extensions pick effects of any game kind.
protocol RaceEffectConvertible {
    associatedtype Kind: GameKind
    var effect: RaceEffect<Kind> { get }
}

extension RaceEffect: RaceEffectConvertible {
    var effect: RaceEffect<Kind> { self }
}

extension Array where Element: RaceEffectConvertible {
    var questions: [QuestionDelivery<Element.Kind>] {
        compactMap { if case .sendQuestion(let d) = $0.effect { d } else { nil } }
    }
    var outcomes: [AnswerOutcome<Element.Kind>] {
        compactMap { if case .answerGraded(let o) = $0.effect { o } else { nil } }
    }
    var logged: [AnswerOutcome<Element.Kind>] {
        compactMap { if case .answerLogged(let o) = $0.effect { o } else { nil } }
    }
    var results: [PlayerResult] {
        compactMap { if case .playerFinished(let r) = $0.effect { r } else { nil } }
    }
    var standings: [Standings] {
        compactMap { if case .raceFinished(let s) = $0.effect { s } else { nil } }
    }
    var rejections: [(PlayerID, RaceError)] {
        compactMap { if case .rejected(let p, let e) = $0.effect { (p, e) } else { nil } }
    }
    var rejectionCodes: [String] { rejections.map(\.1.code) }
    var snapshots: [RoomSnapshot] {
        compactMap { if case .roomUpdated(let s) = $0.effect { s } else { nil } }
    }
    var progressUpdates: [RaceProgress] {
        compactMap { if case .progress(let p) = $0.effect { p } else { nil } }
    }
    var disposed: Bool {
        contains { if case .roomDisposed = $0.effect { true } else { false } }
    }
}
