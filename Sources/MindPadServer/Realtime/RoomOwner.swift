import Foundation
import Logging
import MindPadJSON
import MindPadRecognition
import MindPadRules

/// The owner of one room of one game kind, a machine (issue 44, item 3):
/// it feeds each event with the time it is given into its
/// `RaceStateMachine<Kind>` and turns the effects into `RoomAction`s for
/// the hub to carry out (sends, broadcasts, results to storage, the room's
/// timers, progress coalesced to ~5 Hz). It holds no hub and reads no
/// clock. It is the only place that touches the kind's types: prompts and
/// answers cross the wire through their `Codable` forms. Service thread only.
final class RoomOwner<Kind: GameKind>: GameRoom {
    let code: String
    let game: GameInfo
    private(set) var race: RaceStateMachine<Kind>
    /// How often progress goes out at most (`RealtimeOptions.progressInterval`).
    private let progressInterval: RaceDuration
    private let logger: Logger
    /// What this call asks of the hub so far (`take`).
    private var actions: [RoomAction] = []
    /// The time of the call under way.
    private var now: RaceInstant
    /// Members after the last event, to notice who left or timed out.
    private var members: Set<PlayerID> = []
    /// Each member's `players` row, for storing their results (taken from
    /// their `join` event once the rules let them in).
    private var accounts: [PlayerID: Int64] = [:]
    /// The fish each member brought (games that play with fish), stored
    /// with their results; from their `join` event like `accounts`.
    private var fish: [PlayerID: UUID] = [:]
    private var pendingProgress: RaceProgress?
    private var lastProgressAt: RaceInstant?
    /// The progress timer is set (`RoomTimer.progress`).
    private var progressTimerSet = false
    /// This round's `finished` and `result_saved` of each racer, sent again
    /// when they come back within the grace (they may have missed them).
    private var ended: [PlayerID: (round: Int, finished: OutgoingMessage, saved: OutgoingMessage?)] = [:]
    /// Members getting the whole picture (`room`) in the current batch of
    /// effects: they do not need its `room_updated` too.
    private var resyncing: Set<PlayerID> = []
    /// What the room says while a finished result is not yet durable.
    private var held = HeldMessages()
    /// Each player's results whose `result_saved` has not been said yet,
    /// and what waits for the room's last words to them (`left_room`).
    private var lastWords = LastWords()
    /// Each fish racer's right answers this round and their fish's
    /// reaction to them so far (`fish`).
    private var reactions: [PlayerID: (correct: Int, reaction: FishReaction)] = [:]
    /// The current round's race id (`RaceID`), drawn when it starts; nil
    /// before the first race.
    private var raceID: String?
    /// This round's graded answers of each racer, until their run ends.
    private var answers = AnswerLog()
    /// What an event brings beside the rules' own payload, handed down
    /// with it (never kept between events): who is joining with which
    /// account and fish, or how an answer came in (its drawing, its tap).
    struct Arrival {
        var joiner: (id: PlayerID, account: Int64, fish: UUID?)?
        var answer: (player: PlayerID, input: AnswerLog.Input, strokes: [[StrokePoint]]?, choice: TappedChoice?)?
    }

    /// The last `spectating` sent (the leader's question as it stood), so
    /// spectators hear only of changes.
    private var spectated: OutgoingMessage?
    /// This race's `question` messages, by question: the racers of a room
    /// get the same questions (one seed), so each is encoded once for the
    /// room rather than once per racer. A prompt that changed under the same
    /// id (the path finder's moves) is encoded again. Emptied at each start.
    private var questions: [QuestionID: (prompt: Kind.Prompt, message: OutgoingMessage)] = [:]

    /// A lesson's room (`RaceConfiguration.conducted`): its class's name,
    /// in the room's messages so its pupils know their teacher sees their
    /// pad; the teacher hears the room too (`RoomAction.toConductor`).
    let lesson: String?

    init(code: String, race: RaceStateMachine<Kind>, now: RaceInstant, progressInterval: RaceDuration, logger: Logger,
         lesson: String? = nil) {
        self.code = code
        self.lesson = race.configuration.conducted ? lesson ?? "" : nil
        self.game = race.kind.info
        self.race = race
        self.now = now
        self.progressInterval = progressInterval
        self.logger = logger
    }

    /// The actions asked for since the last call began, in order (taken).
    private func take() -> [RoomAction] {
        defer { actions = [] }
        return actions
    }

    var snapshot: RoomSnapshot { race.snapshot }

    /// The round's race has started (its `raceID` is this round's).
    static func hasRun(_ phase: RoomPhase) -> Bool {
        switch phase {
        case .running, .finished: true
        case .lobby, .countdown, .disposed: false
        }
    }

    var isRacing: Bool {
        switch race.phase {
        case .countdown, .running: true
        case .lobby, .finished, .disposed: false
        }
    }

    func handle(_ event: RoomEvent, at now: RaceInstant, request: String?) -> [RoomAction] {
        self.now = now
        let raceEvent: RaceEvent<Kind>
        var arrival = Arrival()
        switch event {
        case .join(let player, let withFish):
            arrival.joiner = (player.id, player.accountID, withFish)
            raceEvent = .join(player.id, name: player.name)
        case .leave(let id): raceEvent = .leave(id)
        case .disconnect(let id): raceEvent = .disconnect(id)
        case .reconnect(let id): raceEvent = .reconnect(id)
        case .setReady(let id, let ready): raceEvent = .setReady(id, ready)
        case .start(let id): raceEvent = .start(by: id)
        case .rematch(let id, let seed): raceEvent = .rematch(by: id, seed: seed)
        case .conduct(let conduct): raceEvent = .conduct(conduct)
        }
        feed(raceEvent, at: now, request: request, arrival: arrival)
        return take()
    }

    func timerFired(_ timer: RoomTimer, at now: RaceInstant) -> [RoomAction] {
        self.now = now
        switch timer {
        case .tick:
            feed(.tick, at: now, request: nil)
        case .progress:
            progressTimerSet = false
            flushProgress(force: false)
        }
        return take()
    }

    func refusal(ofAnswerBy player: PlayerID, to question: QuestionID, at now: RaceInstant) -> RaceError? {
        race.refusal(ofAnswerBy: player, to: question, at: now)
    }

    func accepts(handwritten digits: [Int]) -> Bool {
        race.kind.answer(handwritten: HandwrittenAnswer(digits: digits)) != nil
    }

    func submit(_ submitted: SubmittedAnswer, by player: PlayerID, to question: QuestionID, receivedAt: RaceInstant,
                at now: RaceInstant, request: String) -> (graded: Bool?, actions: [RoomAction]) {
        self.now = now
        let graded = grade(submitted, by: player, to: question, receivedAt: receivedAt, request: request)
        return (graded, take())
    }

    private func grade(_ submitted: SubmittedAnswer, by player: PlayerID, to question: QuestionID, receivedAt: RaceInstant,
                       request: String) -> Bool? {
        switch submitted {
        case .handwriting(let reading, let confidence, let strokes, let choice):
            guard let answer = race.kind.answer(handwritten: reading) else {
                let read = reading.digits.map(String.init).joined()
                say(ServerMessage.error(ProtocolError(.unreadableAnswer, read.isEmpty
                    ? "Nothing could be read in that drawing; write the answer again."
                    : "That reads as \(read), which cannot be an answer here; write it again.", request: request)), to: player)
                return nil
            }
            return feed(.answer(player, question: question, answer, confidence: confidence), at: receivedAt, request: request,
                        arrival: Arrival(answer: (player, .drawn, strokes, choice)))
        case .wire(let json, let keypad):
            let answer: Kind.Answer
            do {
                answer = try JSONValueDecoder().decode(Kind.Answer.self, from: json)
            } catch {
                say(ServerMessage.error(ProtocolError(.badAnswer, "\"answer\" is not an answer to this game: \(Self.reason(error))", request: request)), to: player)
                return nil
            }
            return feed(.answer(player, question: question, answer, keypad: keypad), at: receivedAt, request: request,
                        arrival: Arrival(answer: (player, keypad ? .keypad : .tap, nil, nil)))
        }
    }

    /// One entry of the run's answer log, with how it came in (and its
    /// drawing) when it is the answer `arrival` brought.
    private func log(_ o: AnswerOutcome<Kind>, answer: JSON, expected: JSON?, arrival: Arrival, graded: inout Bool?) {
        let how = arrival.answer?.player == o.player ? arrival.answer : nil
        if how != nil { graded = o.isCorrect }
        answers.add(o.player, question: o.question, prompt: encode(o.prompt), answer: answer, expected: expected,
                    correct: o.isCorrect, points: o.points, input: how?.input ?? (o.keypad ? .keypad : .tap),
                    confidence: o.confidence, askedAfter: o.askedAfter, answeredAfter: o.answeredAfter,
                    strokes: how?.strokes, choice: how?.choice)
    }

    /// Feeds `event` and carries out its effects; whether the answer
    /// `arrival` brought was graded right (nil: not graded).
    @discardableResult
    private func feed(_ event: RaceEvent<Kind>, at now: RaceInstant, request: String?, arrival: Arrival = Arrival()) -> Bool? {
        let effects = race.handle(event, at: now)
        var graded: Bool?
        let clockNow = self.now
        resyncing = Set(effects.compactMap { effect in
            if case .resync(let id, _, _, _) = effect { return id }
            return nil
        })
        for effect in effects { carryOut(effect, now: clockNow, request: request, arrival: arrival, graded: &graded) }
        resyncing = []
        syncMembers(joiner: arrival.joiner)
        tellSpectators()
        return graded
    }

    private func carryOut(_ effect: RaceEffect<Kind>, now: RaceInstant, request: String?, arrival: Arrival, graded: inout Bool?) {
        switch effect {
        case .roomUpdated(let snapshot):
            // A member who joins or comes back gets `room` instead, first.
            broadcast(ServerMessage.roomUpdated(code: code, snapshot: snapshot, now: now, lesson: lesson), except: resyncing)
        case .resync(let id, let room, let progress, let standings):
            say(ServerMessage.room(code: code, you: id, snapshot: room, progress: progress, standings: standings,
                                   race: Self.hasRun(room.phase) ? raceID : nil, now: now, lesson: lesson), to: id)
            if let ended = ended[id], ended.round == race.round {
                say(ended.finished, to: id)
                if let saved = ended.saved { say(saved, to: id) }
            }
            // A spectator joining a running race sees its question at once.
            if let spectated, room.members.contains(where: { $0.id == id && $0.role == .spectator }) {
                say(spectated, to: id)
            }
        case .countdownStarted(let round, let startsAt):
            broadcast(ServerMessage.countdown(round: round, startsAt: startsAt, now: now))
        case .raceStarted(let round, let mode, _, let endsAt):
            let id = RaceID.make()
            raceID = id
            answers.reset()
            reactions = [:]
            questions = [:]
            broadcast(ServerMessage.raceStarted(round: round, mode: mode, race: id, endsAt: endsAt, now: now))
            actions.append(.raceBegan(id))
        case .sendQuestion(let delivery):
            // The pad takes the answer only where the kind says it may, as
            // the question now stands (the path finder: while guessing).
            actions.append(.questionSent(delivery.id, to: delivery.player,
                                         input: race.kind.handwriting(for: delivery.question, attempt: delivery.attempt)))
            let sent = question(delivery)
            say(sent, to: delivery.player)
            if lesson != nil {
                actions.append(.toConductor(ServerMessage.padQuestion(player: delivery.player, question: delivery.id,
                                                                      prompt: encode(delivery.prompt))))
            }
        case .answerGraded(let o):
            // A retry keeps the question open: its answer stays unsaid.
            let answer = encode(o.answer), expected = o.retry ? nil : encode(o.correctAnswer)
            say(ServerMessage.graded(question: o.question, answer: answer, expected: expected,
                                     confidence: o.confidence, correct: o.isCorrect, points: o.points,
                                     score: o.score, runOver: o.finishedRun, retry: o.retry), to: o.player)
            if lesson != nil {
                actions.append(.toConductor(ServerMessage.padGraded(player: o.player, question: o.question, answer: answer,
                                                                    expected: expected, correct: o.isCorrect,
                                                                    confidence: o.confidence, score: o.score)))
            }
            // The run's answer log (not the path finder's moves).
            if o.isReviewable { log(o, answer: answer, expected: expected, arrival: arrival, graded: &graded) }
            tellFish(o)
        case .answerLogged(let o):
            log(o, answer: encode(o.answer), expected: encode(o.correctAnswer), arrival: arrival, graded: &graded)
        case .progress(let progress):
            pendingProgress = progress
            flushProgress(force: false)
        case .playerFinished(let result):
            actions.append(.questionSent(nil, to: result.player, input: nil))
            let run = answers.take(result.player)
            let finished = ServerMessage.finished(result, race: raceID, answers: run.map(\.json))
            ended[result.player] = (result.round, finished, nil)
            guard let account = accounts[result.player] else {
                say(finished, to: result.player)
                break
            }
            // From here what the room says to this racer waits until their
            // result is in the fsynced journal (HeldMessages): nobody hears
            // their run is over before it would survive a crash. The room
            // lives until its results are durable and saved, even if its last
            // member left meanwhile (shutdown): what it holds must still go.
            held.hold(result.player)
            lastWords.expect(result.player)
            say(finished, to: result.player)
            actions.append(.store(FinishedRun(result: result, account: account, fish: fish[result.player],
                                              race: raceID ?? "\(code)-\(result.round)", answers: run.map(\.record))))
        case .raceFinished(let standings):
            flushProgress(force: true)
            broadcast(ServerMessage.standings(standings, race: raceID))
        case .rejected(let id, let error):
            say(ServerMessage.error(ProtocolError(error, request: request)), to: id)
        case .scheduleTick(let at):
            actions.append(.setTimer(.tick, at: at))
        case .cancelTick:
            actions.append(.cancelTimer(.tick))
        case .roomDisposed:
            progressTimerSet = false
            actions.append(.disposed)
        case .conductorRefused(let error):
            actions.append(.toConductor(ServerMessage.error(ProtocolError(error, request: request))))
        }
    }

    /// `player`'s finished run is durable: what the room held for them goes.
    func resultDurable(_ player: PlayerID, at now: RaceInstant) -> [RoomAction] {
        self.now = now
        for message in held.release(player) { actions.append(.send(message, to: player)) }
        sayLastWordsIfDone(to: player)
        return take()
    }

    /// Storage answered for `player`'s run of `round`: `saved` is its `result_saved`.
    func resultSaved(_ player: PlayerID, round: Int, _ saved: OutgoingMessage, at now: RaceInstant) -> [RoomAction] {
        self.now = now
        if let e = ended[player], e.round == round { ended[player] = (round, e.finished, saved) }
        say(saved, to: player)
        lastWords.said(player)
        sayLastWordsIfDone(to: player)
        return take()
    }

    /// The `question` message for `delivery`, encoded once per question
    /// and prompt.
    private func question(_ delivery: QuestionDelivery<Kind>) -> OutgoingMessage {
        if let known = questions[delivery.id], known.prompt == delivery.prompt { return known.message }
        let message = ServerMessage.question(delivery.id, prompt: encode(delivery.prompt))
        questions[delivery.id] = (delivery.prompt, message)
        return message
    }

    /// A kind's prompt or answer on the wire. Kinds are plain `Codable`
    /// values, so this cannot fail for a kind that passed its tests; if it
    /// ever does, the client gets `null` and the log says why.
    private func encode<T: Encodable>(_ value: T) -> JSON {
        do {
            return try JSONValueEncoder().encode(value)
        } catch {
            logger.error("could not encode a game value", metadata: ["game": "\(game.identifier)", "error": "\(error)"])
            return .null
        }
    }

    private static func reason(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .keyNotFound(_, let c), .dataCorrupted(let c):
            let path = c.codingPath.map { $0.intValue.map(String.init) ?? JSONValueEncoder.snakeCase($0.stringValue) }
                .joined(separator: ".")
            return path.isEmpty ? c.debugDescription : "\(path): \(c.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    /// Sends the latest progress now if the last one went out at least one
    /// interval ago (or `force`), else once that interval is over.
    private func flushProgress(force: Bool) {
        guard let progress = pendingProgress else { return }
        let interval = progressInterval
        if force || lastProgressAt.map({ now - $0 >= interval }) ?? true {
            if progressTimerSet { actions.append(.cancelTimer(.progress)) }
            progressTimerSet = false
            pendingProgress = nil
            lastProgressAt = now
            broadcast(ServerMessage.progress(progress))
        } else if !progressTimerSet, let last = lastProgressAt {
            progressTimerSet = true
            actions.append(.setTimer(.progress, at: last + interval))
        }
    }

    private func broadcast(_ message: OutgoingMessage, except skipped: Set<PlayerID> = []) {
        say(message, to: race.snapshot.members.filter { $0.isConnected && !skipped.contains($0.id) }.map(\.id))
        if lesson != nil { actions.append(.toConductor(message)) }
    }

    /// The whole picture for the teacher conducting a lesson's room, who
    /// (re)connects: as `room` to a member, with no `you`.
    func conductorPicture(at now: RaceInstant) -> [RoomAction] {
        self.now = now
        let snapshot = race.snapshot
        actions.append(.toConductor(ServerMessage.room(code: code, you: nil, snapshot: snapshot, progress: race.progress,
                                                       standings: race.standings,
                                                       race: Self.hasRun(snapshot.phase) ? raceID : nil, now: now,
                                                       lesson: lesson)))
        for delivery in race.playingQuestions {
            actions.append(.toConductor(ServerMessage.padQuestion(player: delivery.player, question: delivery.id,
                                                                  prompt: encode(delivery.prompt))))
        }
        return take()
    }

    private func say(_ message: OutgoingMessage, to player: PlayerID) { say(message, to: [player]) }

    /// Sends now, or, to a racer whose finished result is not yet durable,
    /// once it is.
    private func say(_ message: OutgoingMessage, to players: [PlayerID]) {
        for player in players {
            if held.isHolding(player) { held.keep(message, for: player) } else { actions.append(.send(message, to: player)) }
        }
    }

    /// Sends spectators the leader's question when it changed (another
    /// leader, their next question, or the prompt as their moves left it).
    /// Racers never get it.
    /// Nothing is worked out while nobody watches.
    private func tellSpectators() {
        let spectators = race.snapshot.members.filter { $0.isConnected && $0.role == .spectator }.map(\.id)
        guard !spectators.isEmpty, let delivery = race.leadersQuestion else {
            spectated = nil
            return
        }
        let message = ServerMessage.spectating(delivery.id, prompt: encode(delivery.prompt), racer: delivery.player)
        guard message != spectated else { return }
        spectated = message
        say(message, to: spectators)
    }

    private func syncMembers(joiner: (id: PlayerID, account: Int64, fish: UUID?)?) {
        let now = Set(race.snapshot.members.map(\.id))
        for gone in members.subtracting(now) {
            accounts[gone] = nil
            fish[gone] = nil
            ended[gone] = nil
            actions.append(.memberLeft(gone))
        }
        for joined in now.subtracting(members) {
            if let joiner, joiner.id == joined {
                accounts[joined] = joiner.account
                fish[joined] = joiner.fish
            }
            actions.append(.memberJoined(joined))
        }
        members = now
    }
}

// MARK: Leaving, and the fish (issue 45)

extension RoomOwner {
    /// Asks for `lastWordsSaid(player)` once the room has said everything
    /// it will ever say to `player` about the runs they had in it: their
    /// `finished` (held until durable) and `result_saved`. At once when
    /// nothing is on its way.
    func awaitLastWords(of player: PlayerID) -> [RoomAction] {
        lastWords.wait(for: player)
        sayLastWordsIfDone(to: player)
        return take()
    }

    private func sayLastWordsIfDone(to player: PlayerID) {
        guard !held.isHolding(player), lastWords.quiet(player) else { return }
        actions.append(.lastWordsSaid(player))
    }

    /// A racer who brought a fish hears when it reacts (`fish`, right
    /// after the `graded` that made it): the rules' `FishReaction` of their
    /// right answers so far this round, sent only when it changes.
    private func tellFish(_ o: AnswerOutcome<Kind>) {
        guard game.playsWithFish, let theirs = fish[o.player], o.isCorrect else { return }
        let before = reactions[o.player, default: (0, .still)]
        let correct = before.correct + 1
        let reaction = FishReaction(correct: correct)
        reactions[o.player] = (correct, reaction)
        guard reaction != before.reaction else { return }
        say(ServerMessage.fish(question: o.question, fish: theirs, reaction: reaction, correct: correct), to: o.player)
    }
}

/// What a room still owes each player before it may say `left_room`: the
/// `result_saved` of each of their stored results. Service thread only.
struct LastWords {
    private var unsaid: [PlayerID: Int] = [:]
    /// Players waiting for the room's last words to them.
    private var waiting: Set<PlayerID> = []

    /// One more result of `player`'s is on its way to storage.
    mutating func expect(_ player: PlayerID) { unsaid[player, default: 0] += 1 }

    /// Its `result_saved` was said.
    mutating func said(_ player: PlayerID) {
        let left = max(0, unsaid[player, default: 0] - 1)
        unsaid[player] = left == 0 ? nil : left
    }

    mutating func wait(for player: PlayerID) { waiting.insert(player) }

    /// Whether `player` waited and nothing is owed them any more (the
    /// wait is over then).
    mutating func quiet(_ player: PlayerID) -> Bool {
        guard unsaid[player] == nil else { return false }
        return waiting.remove(player) != nil
    }
}
